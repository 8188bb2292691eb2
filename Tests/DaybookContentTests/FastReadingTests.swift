@testable import DaybookContent
import DaybookModel
import Testing

/// The readers' quick paths give what the slow ones gave: YAML's plain scalars typed as Yams's
/// default resolver types them, front matter split on bytes as it was on characters, and records
/// with many keys still checked for duplicates.
@Suite("Quick paths of the content readers")
struct FastReadingTests {
    /// The kind of each plain scalar, read as the value of `k`.
    static func kind(_ scalar: String) throws -> RawValue.Kind? {
        guard case .object(let members) = try YAMLReader.parse("k: \(scalar)")?.kind else { return nil }
        return members.first?.value.kind
    }

    @Test("plain YAML scalars are typed by the core schema: booleans, nulls and numbers", arguments: [
        ("true", RawValue.Kind.bool(true)), ("True", .bool(true)), ("yes", .bool(true)), ("On", .bool(true)),
        ("FALSE", .bool(false)), ("no", .bool(false)), ("off", .bool(false)),
        ("~", .null), ("null", .null), ("NULL", .null), ("", .null),
        ("12", .number(12)), ("-3.5", .number(-3.5)), ("+7", .number(7)), (".5", .number(0.5)), ("1_000", .number(1000)),
        ("1e3", .number(1000)),
    ])
    func typed(_ scalar: String, _ expected: RawValue.Kind) throws {
        #expect(try Self.kind(scalar) == expected)
    }

    @Test("other plain scalars, quoted ones and explicitly tagged ones are text", arguments: [
        ("nope", "nope"), ("trueish", "trueish"), ("ana", "ana"), ("2026-11-21", "2026-11-21"),
        ("2026-11-21T08:00:00Z", "2026-11-21T08:00:00Z"), ("12 apples", "12 apples"), ("<<<", "<<<"), ("#tag", nil),
        ("'12'", "12"), ("\"true\"", "true"), ("!!str 12", "12"), ("!!str yes", "yes"), ("=x", "=x"), ("Ōsaka", "Ōsaka"),
    ])
    func text(_ scalar: String, _ expected: String?) throws {
        // `#tag` is a comment: the value is null.
        #expect(try Self.kind(scalar) == (expected.map { .string($0) } ?? .null))
    }

    @Test("front matter: a byte order mark, spaces after a fence, and blank lines of any whitespace around the body")
    func frontMatter() throws {
        let text = "\u{FEFF}---  \r\nid: p\r\ntitle: T\n--- \t\n\u{3000}\n \t\r\nBody é\r\n\r\nmore\u{2003}\n\u{00A0}\n\n"
        let parts = try FrontMatter.split(text)
        #expect(parts.yaml == "id: p\ntitle: T")
        #expect(parts.body == "Body é\n\nmore\u{2003}")
        #expect(parts.bodyLine == 7)
        #expect(try FrontMatter.split("---\nid: p\n---").body == nil)
        #expect(try FrontMatter.split("---\r---\r\rx").body == "x")
        #expect(try FrontMatter.split("---\r---\r\rx").bodyLine == 4)
        #expect(throws: FrontMatter.Failure.missingOpening) { try FrontMatter.split("") }
        #expect(throws: FrontMatter.Failure.missingOpening) { try FrontMatter.split("----\nid: p\n---\n") }
        #expect(throws: FrontMatter.Failure.missingClosing) { try FrontMatter.split("---\nid: p\n--- x\n") }
        // A combining mark after a fence makes it another character, so no fence.
        #expect(throws: FrontMatter.Failure.missingClosing) { try FrontMatter.split("---\nid: p\n---\u{301}\n") }
    }

    @Test("a key written twice in front matter is an error at the second, naming the first's line, nested keys too")
    func duplicateKey() {
        let site = ContentLoader.load(ContentSnapshot(sources: [
            "content/prompts/p.md": Array("---\nid: a1\ntitle: T\nid: a2\n---\n".utf8),
            "content/posts/q.md": Array("---\nid: q\nauthor: u\nlocation:\n  name: A\n  lat: 1\n  name: B\n---\n".utf8),
        ]))
        #expect(site.diagnostics.map(\.description) == [
            "content/posts/q.md:7:3: error: duplicate key 'name' (first at line 5)",
            "content/prompts/p.md:4:1: error: duplicate key 'id' (first at line 2)",
        ])
        // Lines broken by CR alone, as YAML allows (a crash the config fuzz target found).
        let crlf = ContentLoader.load(ContentSnapshot(sources: ["site.yml": Array("title: A\rtitle: B\r".utf8)]))
        #expect(crlf.diagnostics.map(\.description) == ["site.yml:2:1: error: duplicate key 'title' (first at line 1)"])
        let found = ContentLoader.load(ContentSnapshot(sources: ["site.yml": Array("&aKKKKKKKKKK\r\r\r\r\rb: &b KKK\r\r\r\r\rb: &b ".utf8)]))
        #expect(found.diagnostics.count == 1)
    }

    @Test("a key written twice in front matter, once in quotes, is an error at the first, as YAML compares keys as text")
    func quotedDuplicateKey() {
        let site = ContentLoader.load(ContentSnapshot(sources: [
            "content/prompts/p.md": Array("---\nid: p\ntitle: T\n1: a\n\"1\": b\n---\n".utf8)
        ]))
        #expect(site.diagnostics.map(\.description) == ["content/prompts/p.md:4:1: error: duplicate key '1'"])
    }

    @Test("a record with more keys than are searched in order still reports each duplicate at its second place")
    func manyKeys() {
        let keys = (1...40).map { "\"k\($0)\": 1" } + ["\"k35\": 2", "\"k3\": 3", "\"id\": \"p\"", "\"title\": \"T\""]
        let site = ContentLoader.load(ContentSnapshot(sources: ["content/prompts.json": Array("[{\(keys.joined(separator: ", "))}]".utf8)]))
        let errors = site.diagnostics.filter { $0.severity == .error }.map(\.message)
        #expect(errors == ["duplicate key 'k35' (first at line 1)", "duplicate key 'k3' (first at line 1)"])
        #expect(site.diagnostics.count { $0.severity == .warning } == 40)
        #expect(site.content.prompts.map(\.id) == ["p"])
    }

    @Test("control characters in JSON keys and strings, escaped or not, become U+FFFD; other text is kept as written")
    func jsonCleaning() throws {
        let value = try JSONReader.parse(Array(#"{"a\u0001": "x\u007Fy", "b": "caf\u00e9 \uFFFE", "c": "plain"}"#.utf8), cleaning: true, eachElement: nil)
        guard case .object(let members) = value.kind else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a\u{FFFD}", "b", "c"])
        #expect(members.map(\.value.kind) == [.string("x\u{FFFD}y"), .string("café \u{FFFD}"), .string("plain")])
        let kept = try JSONReader.parse(Array(#"["x\u0001"]"#.utf8), eachElement: nil)
        #expect(kept.kind == .array([RawValue(.string("x\u{1}"), at: TextPosition(line: 1, column: 2))]))
    }
}
