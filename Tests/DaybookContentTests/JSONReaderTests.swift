@testable import DaybookContent
import DaybookModel
import Testing

/// The JSON reader: every value keeps its position, and every syntax error names the exact
/// line and column (1-based, in Unicode scalars) of the offending character.
@Suite("JSON reader")
struct JSONReaderTests {
    static func parse(_ text: String) throws(JSONSyntaxError) -> RawValue { try JSONReader.parse(Array(text.utf8)) }

    static func string(_ text: String) throws -> String? {
        if case .string(let value) = try parse(text).kind { return value }
        return nil
    }

    static func number(_ text: String) throws -> Double? {
        if case .number(let value) = try parse(text).kind { return value }
        return nil
    }

    @Test("escapes decode to their characters", arguments: [
        (#""\"\\\/""#, "\"\\/"),
        (#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"),
        (#""\u0041\u00e9\u4E2D""#, "Aé中"),
        (#""\ud83d\ude00""#, "😀"),
        (#""é😀 raw""#, "é😀 raw"),
    ])
    func escapes(json: String, expected: String) throws {
        #expect(try Self.string(json) == expected)
    }

    @Test("numbers: JSON's grammar, no more", arguments: [
        ("0", 0.0), ("-0", -0.0), ("1e5", 100_000.0), ("1E+2", 100.0), ("2.5e-1", 0.25), ("-12.75", -12.75),
    ])
    func numbers(json: String, expected: Double) throws {
        let value = try #require(try Self.number(json))
        #expect(value == expected)
        #expect(value.sign == expected.sign)
    }

    /// Each bad input, with the message and the exact line and column of the error.
    @Test("syntax errors at their exact position", arguments: [
        // A leading zero ends the number; what follows is extra text.
        ("01", "unexpected text after the JSON value", 1, 2),
        ("[01]", "expected ',' or ']'", 1, 3),
        ("-", "invalid number", 1, 2),
        ("1.", "invalid number", 1, 3),
        ("1e", "invalid number", 1, 3),
        (".5", "unexpected character; expected a value", 1, 1),
        ("+1", "unexpected character; expected a value", 1, 1),
        // Lone surrogates, high and low, and a high one followed by something else.
        (#""\ud83d""#, "unpaired UTF-16 surrogate in \\u escape", 1, 8),
        (#""\ude00""#, "unpaired UTF-16 surrogate in \\u escape", 1, 8),
        (#""\ud83d\u0041""#, "unpaired UTF-16 surrogate in \\u escape", 1, 14),
        (#""\x""#, "invalid escape in a string", 1, 3),
        (#""\u12G4""#, "invalid \\u escape", 1, 6),
        ("\"a\tb\"", "control character in a string; write it escaped (\\n, \\t)", 1, 3),
        ("\"open", "unterminated string", 1, 6),
        ("{\"a\": 1} x", "unexpected text after the JSON value", 1, 10),
        ("[1, 2]\n]", "unexpected text after the JSON value", 2, 1),
        ("{\"a\" 1}", "expected ':' after the key", 1, 6),
        ("{a: 1}", "expected a key in double quotes", 1, 2),
        ("[1,]", "unexpected character; expected a value", 1, 4),
        ("[1 2]", "expected ',' or ']'", 1, 4),
        ("", "unexpected end of file; expected a value", 1, 1),
        ("tru", "unexpected character; expected a value", 1, 1),
        // Columns count scalars: é is 2 bytes and 😀 is 4, each one column.
        ("{\"é😀\": tru}", "unexpected character; expected a value", 1, 8),
        ("[\"é\",\n \"😀\", x]", "unexpected character; expected a value", 2, 7),
    ])
    func syntaxErrors(json: String, message: String, line: Int, column: Int) {
        #expect(throws: JSONSyntaxError(message: message, position: TextPosition(line: line, column: column))) {
            try Self.parse(json)
        }
    }

    @Test("values keep their positions, counted in scalars after multi-byte characters")
    func positions() throws {
        let value = try Self.parse("{\"é😀\": [1,\n  \"x\", true]}")
        guard case .object(let members) = value.kind, let member = members.first, case .array(let items) = member.value.kind else {
            Issue.record("not an object holding an array")
            return
        }
        #expect(member.keyPosition == TextPosition(line: 1, column: 2))
        #expect(member.value.position == TextPosition(line: 1, column: 8))
        #expect(items.map(\.position) == [TextPosition(line: 1, column: 9), TextPosition(line: 2, column: 3), TextPosition(line: 2, column: 8)])
    }

    @Test("a byte-order mark is skipped and does not count as a column")
    func byteOrderMark() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try JSONReader.parse(bom + Array("[1]".utf8)).position == TextPosition(line: 1, column: 1))
        #expect(throws: JSONSyntaxError(message: "unexpected character; expected a value", position: TextPosition(line: 1, column: 5))) {
            try JSONReader.parse(bom + Array("[1, x]".utf8))
        }
    }

    @Test("nesting: 512 levels parse, the 513th is an error at its bracket")
    func depthLimit() throws {
        _ = try Self.parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512))
        #expect(throws: JSONSyntaxError(message: "JSON nested too deeply", position: TextPosition(line: 1, column: 513))) {
            try Self.parse(String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
        }
    }
}
