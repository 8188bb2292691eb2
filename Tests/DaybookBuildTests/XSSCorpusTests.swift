import DaybookBuild
import DaybookCheck
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Issue 10: every payload of `XSSPayloads` in every text field of every collection, and in the
/// site title, from JSON and from Markdown files alike. The built pages, parsed as a browser
/// would (gumbo), hold no element, event handler or URL that content put there, and the site
/// passes `daybook check`.
@Suite("XSS corpus")
struct XSSCorpusTests {
    static let now = "2026-11-30T12:00:00Z"

    enum Form: String, CaseIterable, Sendable {
        case json, markdown
    }

    @Test("payloads in every field build into pages free of foreign elements, handlers and script URLs", arguments: Form.allCases)
    func corpus(form: Form) async throws {
        let payloads = XSSPayloads.all
        #expect(payloads.count >= 100)
        let site = try Self.site(form: form, payloads: payloads)
        defer { try? FileManager.default.removeItem(at: site.directory) }
        let result = await SiteBuilder().build(BuildOptions(siteDirectory: site.directory, now: Fixed.at(Self.now)))
        #expect(result.errorCount == 0, "\(result.diagnostics.filter { $0.severity == .error }.prefix(10).map(\.description))")
        #expect(result.succeeded)
        let output = site.directory.appending(path: "output")
        let source = FolderSource(directory: output)
        let pages = source.paths.filter { $0.hasSuffix(".html") }.sorted()
        // One page per post, user, prompt and location at least.
        #expect(pages.count >= payloads.count * 4)

        var findings: [String] = []
        for page in pages {
            guard let bytes = source.bytes(of: page) else { continue }
            findings += Self.foreign(in: bytes, page: page).map { "\(page):\($0)" }
        }
        #expect(findings.isEmpty, "\(findings.count) findings, the first: \(findings.prefix(20).joined(separator: "\n"))")

        let report = await SiteChecker(baseURL: "https://example.org/").check(source)
        let errors = report.diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(errors.isEmpty, "\(errors.count) errors, the first: \(errors.prefix(20).joined(separator: "\n"))")
    }

    @Test("the scan itself finds what escaping would let through")
    func scanFindsInjections() {
        let page = """
            <!doctype html><html><head><title>t</title><script src="/search.js"></script></head><body>
            <a href=" &#106;ava&#x09;script:alert(1)" onclick="x">a</a><img src="data:text/html,x" alt="">
            <svg><circle/></svg><iframe src="/"></iframe><p style="color:red">p</p><script>alert(1)</script>
            </body></html>
            """
        #expect(Self.foreign(in: Array(page.utf8), page: "index.html") == [
            "2:1: <a href=\" java\tscript:alert(1)\">",
            "2:1: <a onclick=\"x\">",
            "2:60: <img src=\"data:text/html,x\">",
            "3:1: <svg> in svg",
            "3:6: <circle> in svg",
            "3:21: <iframe>",
            "3:46: <p style=…>",
            "3:72: <script>",
        ])
    }


    // MARK: - What must not be on a page

    /// Elements that content must never create. The theme uses none of them.
    static let forbidden: Set<String> = [
        "script", "iframe", "frame", "frameset", "object", "embed", "applet", "style", "base", "link", "meta",
        "svg", "math", "form", "button", "input", "textarea", "select", "isindex", "marquee", "template",
        "video", "audio", "source", "noscript", "details", "x",
    ]

    /// The theme's own: its scripts (by name), the "load more" button, and the search page's form
    /// (a GET to itself), its inputs and buttons, and `<noscript>` note.
    static func isThemes(_ element: PageElement, page: String) -> Bool {
        func value(_ name: String) -> String? { element.attributes.first { $0.name == name }?.value }
        switch element.name {
        case "script":
            // The theme's structured data (§12): data, not a script; a browser runs none of it.
            if value("type") == "application/ld+json" && element.attributes.count == 1 { return true }
            guard element.text.isEmpty, let src = value("src"), let name = src.split(separator: "/").last else { return false }
            return themeScripts.contains(String(name)) && src.hasPrefix("/")
        case "button":
            if page == "search/index.html" { return ["submit", "button"].contains(value("type") ?? "") && value("formaction") == nil }
            return value("data-load-more") != nil && element.attributes.count <= 3
        case "link": return ["stylesheet", "alternate", "prev", "next", "canonical", "icon"].contains(value("rel") ?? "")
        case "meta": return value("http-equiv") == nil
        case "form": return value("class") == "search-form" && value("method") == "get" && value("action") == nil
        case "input": return page == "search/index.html" && ["search", "text"].contains(value("type") ?? "")
        case "noscript": return element.attributes.isEmpty  // the search note, a sensitive photo's link
        // A sensitive photo (CONTRACT §7): a closed details holding the photo in a template.
        case "details": return value("data-sensitive") != nil && value("open") == nil
        case "template": return value("data-sensitive-photo") != nil && element.attributes.count == 1
        default: return false
        }
    }

    /// The default theme's scripts, served from the site root.
    static let themeScripts: Set<String> = ["search.js", "load-more.js", "preview.js", "sensitive.js"]

    static let urlAttributes: Set<String> = ["href", "src", "action", "formaction", "poster", "background", "cite", "data", "xlink:href", "srcset"]

    /// A URL after what a browser forgives: character references (gumbo decoded them), ASCII
    /// whitespace and C0 controls anywhere, and case.
    static func isPlaceholderColour(_ style: String, on element: String) -> Bool {
        element == "img" && style.wholeMatch(of: /background-color:#[0-9a-f]{6}/) != nil
    }

    static func isDangerous(_ url: String) -> Bool {
        let squeezed = String(String.UnicodeScalarView(url.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F })).lowercased()
        return ["javascript:", "vbscript:", "data:", "livescript:"].contains { squeezed.hasPrefix($0) }
    }

    static func foreign(in html: [UInt8], page: String) -> [String] {
        var found: [String] = []
        for element in PageElement.all(in: html) {
            let at = "\(element.line):\(element.column)"
            if element.namespace != .html {
                found.append("\(at): <\(element.name)> in \(element.namespace.rawValue)")
                continue
            }
            let themes = isThemes(element, page: page)
            if forbidden.contains(element.name) && !themes { found.append("\(at): <\(element.name)>") }
            for attribute in element.attributes {
                if attribute.name.hasPrefix("on") && !themes { found.append("\(at): <\(element.name) \(attribute.name)=\"\(attribute.value)\">") }
                // The one style the theme writes: a photo's placeholder colour, `background-color:#rrggbb`.
                if attribute.name == "style" && !Self.isPlaceholderColour(attribute.value, on: element.name) {
                    found.append("\(at): <\(element.name) style=…>")
                }
                guard urlAttributes.contains(attribute.name) else { continue }
                let urls = attribute.name == "srcset"
                    ? attribute.value.split(separator: ",").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
                    : [attribute.value]
                for url in urls where isDangerous(url) { found.append("\(at): <\(element.name) \(attribute.name)=\"\(url)\">") }
            }
        }
        return found
    }

    // MARK: - The site

    /// Each payload `i` is a user `u<i>` (name, bio), a prompt `q<i>` (title, body) sent on a day,
    /// a post `p<i>` (caption, imageAlt, a location named after it, tags) with a comment `c<i>`
    /// (text); the site title is every payload, joined.
    static func site(form: Form, payloads: [String]) throws -> SiteFixture {
        let site = try SiteFixture("-- site.yml --\nbaseURL: https://example.org/\n")
        try site.write("site.yml", """
            title: \(yamlString("Daybook " + payloads.joined(separator: " | ")))
            baseURL: https://example.org/
            pageSize: 50

            """)
        let png = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../content/images/lake-still.png")
        try FileManager.default.createDirectory(at: site.directory.appending(path: "content/images"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: png, to: site.directory.appending(path: "content/images/a.png"))

        var users: [[String: Any]] = [], prompts: [[String: Any]] = [], sent: [[String: Any]] = []
        var posts: [[String: Any]] = [], comments: [[String: Any]] = []
        for (i, payload) in payloads.enumerated() {
            let minute = String(format: "%02d:%02d", 8 + i / 60, i % 60)
            let day = String(format: "2026-11-%02d", 1 + i % 28)
            users.append(["id": "u\(i)", "name": payload, "bio": payload])
            prompts.append(["id": "q\(i)", "title": payload, "body": payload])
            sent.append(["id": "s\(i)", "promptId": "q\(i)", "sentAt": "\(day)T\(minute):00Z"])
            posts.append([
                "id": "p\(i)", "author": "u\(i)", "createdAt": "\(day)T\(minute):30Z", "caption": payload,
                "image": "images/a.png", "imageAlt": payload, "tags": [payload, "tag\(i)"],
                "location": ["name": "Place \(i) \(payload)", "lat": 38.7, "lon": -9.1] as [String: Any],
            ])
            comments.append(["id": "c\(i)", "postId": "p\(i)", "author": "u\(i)", "createdAt": "\(day)T\(minute):45Z", "text": payload])
        }
        try site.write("content/sent-prompts.json", json(sent))
        switch form {
        case .json:
            try site.write("content/users.json", json(users))
            try site.write("content/prompts.json", json(prompts))
            try site.write("content/posts.json", json(posts))
            try site.write("content/comments.json", json(comments))
        case .markdown:
            for (collection, items, main) in [("users", users, "bio"), ("prompts", prompts, "body"), ("posts", posts, "caption"), ("comments", comments, "text")] {
                for item in items {
                    let id = item["id"] as! String
                    let fields = item.keys.sorted().filter { $0 != main }.map { "\($0): \(yaml(item[$0]!))" }
                    try site.write("content/\(collection)/\(id).md", "---\n" + fields.joined(separator: "\n") + "\n---\n" + (item[main] as! String) + "\n")
                }
            }
        }
        return site
    }

    static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    static func yaml(_ value: Any) -> String {
        switch value {
        case let text as String: yamlString(text)
        case let number as Double: String(number)
        case let list as [String]: "[" + list.map(yamlString).joined(separator: ", ") + "]"
        case let map as [String: Any]: "{" + map.keys.sorted().map { "\($0): \(yaml(map[$0]!))" }.joined(separator: ", ") + "}"
        default: "\(value)"
        }
    }

    /// A YAML double-quoted scalar: only `"`, `\`, controls and YAML's own line breaks escaped.
    static func yamlString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || [0x85, 0x2028, 0x2029, 0xFEFF].contains(scalar.value) {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
