import DaybookContent
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Hostile and careless input at load time (issue 10): line ends, encodings, alias bombs, control
/// characters, and the fields that name image files.
@Suite("Input hardening")
struct InputHardeningTests {
    func load(_ files: [String: [UInt8]], assets: Set<String> = [], outsideLinks: Set<String> = []) -> LoadedSite {
        ContentLoader.load(ContentSnapshot(sources: files, assets: assets, outsideLinks: outsideLinks))
    }

    func load(_ files: [String: String], assets: Set<String> = [], outsideLinks: Set<String> = []) -> LoadedSite {
        load(files.mapValues { Array($0.utf8) }, assets: assets, outsideLinks: outsideLinks)
    }

    static let user = ["content/users.json": #"[{"id": "u"}]"#]

    // MARK: Line ends (item 14)

    @Test("CRLF and CR-only Markdown items load, with positions counted in lines", arguments: ["\r\n", "\r"])
    func lineEnds(_ end: String) {
        let text = ["---", "id: p1", "title: First", "date: nope", "---", "", "Hello", "there", ""].joined(separator: end)
        let site = load(["content/prompts/p1.md": text])
        #expect(site.diagnostics.map(\.description) == [
            "content/prompts/p1.md:4:7: error: 'date' must be a date YYYY-MM-DD such as 2026-11-21, found 'nope'"
        ])
        let good = ["---", "id: p2", "title: Second", "---", "", "Hello", "there", ""].joined(separator: end)
        let loaded = load(["content/prompts/p2.md": good])
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.content.prompts.map(\.body) == ["Hello\nthere"])
        #expect(loaded.content.prompts.map(\.title) == ["Second"])
    }

    // MARK: Encodings (item 15)

    @Test("a file that is not UTF-8 is an error at the line and column of its first bad byte")
    func notUTF8() {
        let site = load([
            "site.yml": Array("title: ok\nbaseURL: \u{7F}".utf8) + [0xFE],
            "content/prompts.json": Array(#"[{"id": "p1", "#.utf8) + [0x0A] + Array(#" "title": "caf"#.utf8) + [0xE9, 0x22, 0x7D, 0x5D],
            "content/prompts/p2.md": Array("---\nid: p2\ntitle: é".utf8) + [0xC3, 0x28] + Array("\n---\n".utf8),
        ])
        #expect(site.diagnostics.map(\.description) == [
            "content/prompts.json:2:15: error: file is not valid UTF-8: save it as UTF-8",
            "content/prompts/p2.md:3:9: error: file is not valid UTF-8: save it as UTF-8",
            "site.yml:2:11: error: file is not valid UTF-8: save it as UTF-8",
        ])
    }

    // MARK: Alias bombs (item 9)

    static func bomb(levels: Int) -> String {
        var lines = [#"l0: &l0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]"#]
        for level in 1..<levels {
            lines.append("l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("nine levels of nested aliases in site.yml stop fast, with an error at the key that grew too large")
    func aliasBombInConfig() {
        let started = ContinuousClock.now
        let site = load(["site.yml": Self.bomb(levels: 9)])
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(site.diagnostics.map(\.description) == [
            "site.yml:6:1: error: YAML is too large once its aliases are expanded (over 100,000 values); use fewer nested aliases"
        ])
    }

    @Test("nested aliases in front matter stop fast too")
    func aliasBombInFrontMatter() {
        let started = ContinuousClock.now
        let site = load(["content/prompts/p.md": "---\nid: p\ntitle: t\n" + Self.bomb(levels: 9) + "---\n"])
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(site.diagnostics.map(\.description) == [
            "content/prompts/p.md:9:1: error: YAML is too large once its aliases are expanded (over 100,000 values); use fewer nested aliases"
        ])
    }

    @Test("a few aliases still work")
    func someAliases() {
        let site = load(["content/prompts/p.md": "---\nid: &i p\ntitle: *i\n---\n"])
        #expect(site.diagnostics.isEmpty)
        #expect(site.content.prompts.map(\.title) == ["p"])
    }

    // MARK: Control characters (item 11)

    @Test("C0 controls and U+FFFE from JSON, YAML and Markdown text become U+FFFD")
    func controlCharacters() {
        let site = load(
            Self.user.merging([
                "content/posts.json": #"[{"id": "p1", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "caption": "a\u0000b\u0001c\u001bd\tok\uFFFE"}]"#,
                "content/prompts/q.md": "---\nid: q\ntitle: \"t\\e\\0\"\n---\nbody \u{1B}[31m red\u{7}\n",
            ]) { a, _ in a })
        #expect(site.diagnostics.isEmpty)
        #expect(site.content.posts.map(\.caption) == ["a\u{FFFD}b\u{FFFD}c\u{FFFD}d\tok\u{FFFD}"])
        #expect(site.content.prompts.map(\.title) == ["t\u{FFFD}\u{FFFD}"])
        #expect(site.content.prompts.map(\.body) == ["body \u{FFFD}[31m red\u{FFFD}"])
    }

    // MARK: Image fields (items 3, 8, 12; issue 15 item 10)

    @Test("unsafe image paths are errors at the field, and the field is dropped")
    func unsafeImagePaths() {
        let posts = [
            "/evil.example/pixel.png", "//host/x.png", #"\\\\evil.example\\p.png"#, #"images\\a.png"#, "images/../../x.png", "./a.png",
            "images//a.png", "",
        ].enumerated().map { index, image in
            #"{"id": "p\#(index)", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "\#(image)"}"#
        }
        let site = load(Self.user.merging(["content/posts.json": "[" + posts.joined(separator: ",\n") + "]"]) { a, _ in a })
        let rule = "must be a path under content/ such as images/photo.jpg, or an http(s) URL"
        #expect(site.diagnostics.map(\.description) == [
            "content/posts.json:1:76: error: 'image' \(rule); '/evil.example/pixel.png' is neither",
            "content/posts.json:2:75: error: 'image' \(rule); '//host/x.png' is neither",
            #"content/posts.json:3:75: error: 'image' \#(rule); '\\evil.example\p.png' is neither"#,
            #"content/posts.json:4:75: error: 'image' \#(rule); 'images\a.png' is neither"#,
            "content/posts.json:5:75: error: 'image' \(rule); 'images/../../x.png' is neither",
            "content/posts.json:6:75: error: 'image' \(rule); './a.png' is neither",
            "content/posts.json:7:75: error: 'image' \(rule); 'images//a.png' is neither",
            "content/posts.json:8:75: error: 'image' \(rule); '' is neither",
        ])
        #expect(site.content.posts.allSatisfy { $0.image == nil })
    }

    @Test("a missing image is a warning at the field, and the item is shown without it")
    func missingImage() {
        let site = load(
            [
                "content/users.json": #"[{"id": "u", "avatar": "images/me.png"}, {"id": "v", "avatar": "images/here.png"}]"#,
                "content/posts/p.md": "---\nid: p\nauthor: u\ncreatedAt: 2026-11-20T08:00:00Z\nimage: images/lost.png\n---\n",
                "content/posts/q.md": "---\nid: q\nauthor: u\ncreatedAt: 2026-11-20T08:00:00Z\nimage: https://example.org/a.png\n---\n",
            ], assets: ["content/images/here.png"])
        #expect(site.diagnostics.map(\.description) == [
            "content/posts/p.md:5:8: warning: image 'content/images/lost.png' does not exist; the post is shown without it",
            "content/users.json:1:24: warning: avatar 'content/images/me.png' does not exist; the user is shown without it",
        ])
        #expect(site.content.posts.map(\.image) == [nil, "https://example.org/a.png"])
        #expect(site.content.users.map(\.avatar) == [nil, "images/here.png"])
    }

    @Test("a file that leads out of the site is an error at the field that names it, or at the link")
    func outsideLinks() {
        let site = load(
            Self.user.merging([
                "content/posts.json": #"[{"id": "p", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "images/x.png"}, {"id": "q", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "out/deep/y.png"}]"#
            ]) { a, _ in a },
            outsideLinks: ["content/images/x.png", "content/out", "content/posts/p.json", "site.yml"])
        let fix = "it is not read: put the file itself there"
        #expect(site.diagnostics.map(\.description) == [
            "content/posts.json:1:75: error: image 'content/images/x.png' leads outside the site folder through the symbolic link 'content/images/x.png'; \(fix)",
            "content/posts.json:1:165: error: image 'content/out/deep/y.png' leads outside the site folder through the symbolic link 'content/out'; \(fix)",
            "content/posts/p.json: error: 'content/posts/p.json' is a symbolic link to a place outside the site folder; it is not read: replace it with the file itself",
            "site.yml: error: 'site.yml' is a symbolic link to a place outside the site folder; it is not read: replace it with the file itself",
        ])
        #expect(site.content.posts.allSatisfy { $0.image == nil })
    }
}
