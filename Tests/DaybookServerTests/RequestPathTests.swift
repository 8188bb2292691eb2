@testable import DaybookServer
import Testing

@Suite("Request paths")
struct RequestPathTests {
    func resolve(_ raw: String, base: String = "/", folders: Set<String> = ["journal", "tags/café"]) -> RequestPath {
        RequestPath.resolve(raw, basePath: base) { folders.contains($0) }
    }

    @Test("pretty URLs, files and folder redirects")
    func pretty() {
        #expect(resolve("/") == .file("index.html"))
        #expect(resolve("/journal/") == .file("journal/index.html"))
        #expect(resolve("/journal") == .redirect("/journal/"))
        #expect(resolve("/style.css") == .file("style.css"))
        #expect(resolve("/tags/caf%C3%A9/") == .file("tags/café/index.html"))
        #expect(resolve("/tags/caf%C3%A9") == .redirect("/tags/caf%C3%A9/"))
    }

    @Test("under a base path, and outside it")
    func basePath() {
        #expect(resolve("/blog/", base: "/blog/") == .file("index.html"))
        #expect(resolve("/blog", base: "/blog/") == .redirect("/blog/"))
        #expect(resolve("/blog/journal/", base: "/blog/") == .file("journal/index.html"))
        #expect(resolve("/journal/", base: "/blog/") == .notFound)
    }

    @Test("every traversal form is refused", arguments: [
        "/../etc/passwd", "/journal/../../etc/passwd", "/%2e%2e/etc/passwd", "/%2E%2E%2Fetc%2Fpasswd", "/.%2e/x",
        "/journal/%2e%2e/%2e%2e/x", "/./index.html", "/a\\..\\b", "/%5c..%5cetc", "/a%00b", "/%zz", "/%c3%28",
    ])
    func traversal(raw: String) {
        switch resolve(raw) {
        case .badRequest: break
        default: Issue.record("\(raw) was not refused: \(resolve(raw))")
        }
    }

    @Test("double encoding decodes once, to a harmless name; hidden files are not served")
    func doubleEncodingAndHidden() {
        #expect(resolve("/%252e%252e/etc/passwd") == .file("%2e%2e/etc/passwd"))
        #expect(resolve("/.daybook-manifest") == .notFound)
        #expect(resolve("/journal/.hidden") == .notFound)
        #expect(resolve("//etc/passwd") == .notFound)
    }
}
