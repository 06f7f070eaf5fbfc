import Foundation
import TouchLinux
import XCTest

/// The private directory `touchwire run` keeps its status file in off a package install (issue 31).
final class RuntimeDirectoryTests: XCTestCase {
    func temporaryPath(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "touchwire-rt-\(UUID().uuidString)-\(name)"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Created 0700; accepted again as it is; a directory others may enter, or a symlink, is refused.
    func testPrivateDirectoryIsCreatedOnlyThisUsersAndOthersAreRefused() throws {
        let path = temporaryPath("private")
        try RuntimeDirectory.makePrivate(path)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o700)
        XCTAssertNoThrow(try RuntimeDirectory.makePrivate(path), "an existing private directory is kept")
        XCTAssertTrue(RuntimeDirectory.isWritableDirectory(path))

        let open = temporaryPath("open")
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(open, 0o755), 0)
        XCTAssertThrowsError(try RuntimeDirectory.makePrivate(open)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(open): use as a private directory failed"), "\(error)")
        }
        let link = temporaryPath("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        XCTAssertThrowsError(try RuntimeDirectory.makePrivate(link), "a symlink planted at the path")
    }

    /// Why a status file cannot be read: ENOENT for a missing one, nil for a readable one.
    func testReadErrorNamesTheErrno() throws {
        let missing = temporaryPath("missing")
        XCTAssertEqual(RuntimeDirectory.readError(missing)?.rawValue, ENOENT)
        let file = temporaryPath("file")
        try "{}".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertNil(RuntimeDirectory.readError(file))
        XCTAssertFalse(RuntimeDirectory.isWritableDirectory(file), "a file is not a directory")
    }
}
