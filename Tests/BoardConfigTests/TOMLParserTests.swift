import XCTest

@testable import BoardConfig

/// The TOML 1.0 reader that replaced TOMLKit (`TOMLParser`): what a board file may spell, and one
/// syntax error with its line for what it may not.
final class TOMLParserTests: XCTestCase {
    private func parse(_ text: String, line: UInt = #line) -> [String: TOMLNode] {
        do throws(TOMLNode.SyntaxError) {
            return try TOMLNode.parse(text)
        } catch {
            XCTFail("rejected: \(error.message) at \(error.line ?? 0)", line: line)
            return [:]
        }
    }

    private func failure(_ text: String, line: UInt = #line) -> TOMLNode.SyntaxError? {
        do throws(TOMLNode.SyntaxError) {
            _ = try TOMLNode.parse(text)
            XCTFail("accepted: \(text)", line: line)
            return nil
        } catch {
            XCTAssertTrue(error.message.hasPrefix("TOML syntax error: "), error.message, line: line)
            return error
        }
    }

    func testScalars() {
        let root = parse(
            """
            a = 1_000
            c = 0xdead_BEEF
            d = 0o755
            e = 0b1010
            f = -9223372036854775808
            g = 6.5e-3
            h = -inf
            i = true
            j = 1979-05-27T07:32:00Z
            k = 1979-05-27 07:32:00.5
            l = 07:32:00
            m = 1979-05-27
            n = +1.5
            o = 1E2
            """)
        XCTAssertEqual(root["a"], .integer(1000))
        XCTAssertEqual(root["c"], .integer(0xdead_beef))
        XCTAssertEqual(root["d"], .integer(0o755))
        XCTAssertEqual(root["e"], .integer(10))
        XCTAssertEqual(root["f"], .integer(Int.min))
        XCTAssertEqual(root["g"], .double(6.5e-3))
        XCTAssertEqual(root["h"], .double(-.infinity))
        XCTAssertEqual(root["i"], .bool(true))
        XCTAssertEqual(root["j"], .other("date-time"))
        XCTAssertEqual(root["k"], .other("date-time"))
        XCTAssertEqual(root["l"], .other("time"))
        XCTAssertEqual(root["m"], .other("date"))
        XCTAssertEqual(root["n"], .double(1.5))
        XCTAssertEqual(root["o"], .double(100))
        if case .double(let nan)? = parse("x = nan")["x"] { XCTAssertTrue(nan.isNaN) } else { XCTFail("nan") }
    }

    func testStrings() {
        let root = parse(
            #"""
            a = "tab\there \u00e9 \U0001F600 \"q\" \\"
            b = 'C:\path'
            c = """
            one
            two \
                three"""
            d = '''
            raw \n'''
            e = """""quotes"""""
            "quoted key" = 1
            'lit.key' = 2
            """#)
        XCTAssertEqual(root["a"], .string("tab\there é 😀 \"q\" \\"))
        XCTAssertEqual(root["b"], .string("C:\\path"))
        XCTAssertEqual(root["c"], .string("one\ntwo three"))
        XCTAssertEqual(root["d"], .string("raw \\n"))
        XCTAssertEqual(root["e"], .string("\"\"quotes\"\""))
        XCTAssertEqual(root["quoted key"], .integer(1))
        XCTAssertEqual(root["lit.key"], .integer(2))
    }

    func testTablesArraysAndDottedKeys() {
        let root = parse(
            """
            # a comment
            top.x = 1   # after a value
            [panel]
            size = { w = 800, h.v = 480 }
            [[recognizer]]
            name = "a"
            [[recognizer]]
            name = "b"
            grid = [
              [1, 2,],  # nested
              ["x"],
            ]
            [recognizer.sub]
            k = 2
            [a.b.c]
            [a]
            d = 1
            """)
        XCTAssertEqual(root["top"], .table(["x": .integer(1)]))
        XCTAssertEqual(
            root["panel"], .table(["size": .table(["w": .integer(800), "h": .table(["v": .integer(480)])])]))
        XCTAssertEqual(
            root["recognizer"],
            .array([
                .table(["name": .string("a")]),
                .table([
                    "name": .string("b"),
                    "grid": .array([.array([.integer(1), .integer(2)]), .array([.string("x")])]),
                    "sub": .table(["k": .integer(2)]),
                ]),
            ]))
        XCTAssertEqual(root["a"], .table(["d": .integer(1), "b": .table(["c": .table([:])])]))
    }

    /// Each bad document is one error, with the line where it is.
    func testErrorsNameTheirLine() {
        let cases: [(String, Int, String)] = [
            ("a = 1\na = 2", 2, "defined twice"),
            ("[t]\n[t]", 2, "defined twice"),
            ("[t]\nx = 1\n\n[t.x]", 4, "already a value"),
            ("a.b = 1\n[a]", 2, "defined twice"),
            ("[a.b.c]\n[a]\nb.c.t = 1", 3, "defined by a header"),
            ("p = { x = 1 }\n[p.q]", 2, "already a value"),
            ("[[t]]\n[t]", 2, "array of tables"),
            ("a = 9223372036854775808", 1, "64 bits"),
            ("a = 0x1_0000_0000_0000_0000", 1, "64 bits"),
            ("a = 1e400", 1, "1e400"),
            ("a = 012", 1, "not a value"),
            ("a = -0x10", 1, "not a value"),
            ("a = 1__2", 1, "not a value"),
            ("a = hello", 1, "needs quotes"),
            ("a = \"open\nb = 1", 1, "closing quote"),
            ("a = \"\\q\"", 1, "unknown escape"),
            ("a = \"\\uD800\"", 1, "no Unicode scalar"),
            ("a = 1 b = 2", 1, "end of the line"),
            ("x = 1\na = { b = 1,\n c = 2 }", 2, "expected a key"),
            ("a = [1 2]", 1, "\",\" or \"]\""),
            ("= 1", 1, "expected a key"),
            ("a = \"\u{1}\"", 1, "control character"),
        ]
        for (text, line, fragment) in cases {
            guard let error = failure(text) else { continue }
            XCTAssertEqual(error.line, line, text)
            XCTAssertTrue(error.message.contains(fragment), "\(text): \(error.message)")
        }
    }

    /// Nesting is bounded by the parser itself (not only by `TOMLCrashScreen`, which runs
    /// first), so no input can exhaust the stack.
    func testDeepNestingIsAnErrorNotACrash() {
        let deep = "a = " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let dotted = (0..<100).map { _ in "k" }.joined(separator: ".") + " = 1"
        for text in [
            deep, dotted, "a = " + String(repeating: "{b = ", count: 50) + "1" + String(repeating: "}", count: 50),
        ] {
            do throws(TOMLNode.SyntaxError) {
                _ = try TOMLParser.parse(text)
                XCTFail("accepted: \(text.prefix(40))")
            } catch {
                XCTAssertEqual(error.line, 1)
                XCTAssertTrue(error.message.contains("32"), error.message)
            }
        }
    }
}
