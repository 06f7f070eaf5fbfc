import BoardConfig
import XCTest

/// Board texts for tests: a valid minimal board, with pieces to swap in.
enum TestBoards {
    static let panel = """
        [panel]
        width = 800
        height = 480

        """

    static let hardware = """
        [controller]
        chip = "ft5x06"
        bus = "/dev/i2c-1"

        """

    static let regions = """
        [[region]]
        name = "screen"
        frame = [0, 0, 800, 480]

        """

    static let tap = """
        [[recognizer]]
        name = "tap"
        kind = "tap"
        region = "screen"

        """

    /// A whole board from pieces (each defaults to the valid minimal one).
    static func text(
        panel: String = panel, hardware: String = hardware, regions: String = regions, recognizers: String = tap,
        extra: String = ""
    ) -> String {
        panel + hardware + regions + recognizers + extra
    }

    static func load(_ text: String, file: String = "boards/x.toml", directory: String = "/nonexistent")
        throws(BoardFileError) -> BoardDescription
    {
        try BoardLoader.parse(text, file: file, directory: directory)
    }

    /// The issues of a board that must be rejected; fails the test when it loads.
    static func issues(
        _ text: String, file: String = "boards/x.toml", directory: String = "/nonexistent",
        line: UInt = #line
    ) -> [BoardIssue] {
        do throws(BoardFileError) {
            _ = try BoardLoader.parse(text, file: file, directory: directory)
            XCTFail("board was accepted", line: line)
            return []
        } catch {
            XCTAssertFalse(error.issues.isEmpty, "a BoardFileError must carry issues", line: line)
            return error.issues
        }
    }

    /// The recognizer parsed from one `[[recognizer]]` body on the minimal board.
    static func recognizer(_ body: String, line: UInt = #line) -> RecognizerDescription? {
        let text = self.text(recognizers: "[[recognizer]]\nname = \"r\"\nregion = \"screen\"\n" + body + "\n")
        do throws(BoardFileError) {
            return try load(text).recognizers.first
        } catch {
            XCTFail("rejected: \(error)", line: line)
            return nil
        }
    }
}

/// The repository root, found from this file's path (`Tests/BoardConfigTests/TestBoards.swift`).
func repositoryRoot(file: String = #filePath) -> String {
    var parts = file.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}
