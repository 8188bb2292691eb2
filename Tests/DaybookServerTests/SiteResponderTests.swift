import DaybookBuild
@testable import DaybookServer
import DaybookTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The preview server in process, through Hummingbird's router test client (no sockets).
@Suite("Preview server")
struct SiteResponderTests {
    static let built = BuiltSite(IndexSite.archive, now: IndexSite.now)

    func app() async throws -> (some ApplicationProtocol, SiteFixture) {
        let site = try await Self.built.get()
        let responder = SiteResponder(outputDirectory: site.directory.appending(path: "output"), basePath: "/blog/", hub: ReloadHub())
        return (Application(responder: responder), site)
    }

    @Test("pages are served with pretty URLs, the live-reload script added, and not cached")
    func pages() async throws {
        let (app, site) = try await app()
        try await app.test(.router) { client in
            let home = try await client.execute(uri: "/blog/", method: .get)
            #expect(home.status == .ok)
            #expect(home.headers[.contentType] == "text/html; charset=utf-8")
            #expect(home.headers[.cacheControl] == "no-cache")
            let body = String(buffer: home.body)
            #expect(body.contains("<title>Indexes</title>"))
            #expect(body.contains("new EventSource(\"/_daybook/events\")"))
            #expect(body.hasSuffix("</script>\n</body>\n</html>\n"))
            // The file on disk stays as the build wrote it.
            #expect(site.read("output/index.html")?.contains("EventSource") == false)

            let redirect = try await client.execute(uri: "/blog/journal?x=1", method: .get)
            #expect(redirect.status == .movedPermanently)
            #expect(redirect.headers[.location] == "/blog/journal/?x=1")
            #expect(try await client.execute(uri: "/blog", method: .get).headers[.location] == "/blog/")
            let unicode = try await client.execute(uri: "/blog/tags/caf%C3%A9/", method: .get)
            #expect(unicode.status == .ok)
        }
    }

    @Test("content types", arguments: [
        ("/blog/style.css", "text/css; charset=utf-8"), ("/blog/search.js", "text/javascript; charset=utf-8"),
        ("/blog/search/l/0.json", "application/json"), ("/blog/sitemap.xml", "application/xml"),
        ("/blog/journal/feed.xml", "application/atom+xml"),
    ])
    func contentTypes(uri: String, type: String) async throws {
        let (app, _) = try await app()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == type)
        }
    }

    @Test("HEAD has the headers of GET and no body")
    func head() async throws {
        let (app, _) = try await app()
        try await app.test(.router) { client in
            let get = try await client.execute(uri: "/blog/style.css", method: .get)
            let head = try await client.execute(uri: "/blog/style.css", method: .head)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(get.body.readableBytes))
            #expect(head.headers[.eTag] == get.headers[.eTag])
        }
    }

    @Test("HEAD of a refusal (400, 404 without a 404 page, 500 over the size limit) has the headers of GET and no body")
    func headOfRefusals() async throws {
        let site = try await Self.built.get()
        let output = site.directory.appending(path: "output")
        let empty = FileManager.default.temporaryDirectory.appending(path: "daybook-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let size = try #require(site.read("output/style.css")).utf8.count
        let cases: [(SiteResponder, String, HTTPResponse.Status)] = [
            (SiteResponder(outputDirectory: output, basePath: "/blog/", hub: ReloadHub()), "/blog/%ZZ", .badRequest),
            (SiteResponder(outputDirectory: empty, basePath: "/blog/", hub: ReloadHub()), "/blog/nothing/", .notFound),
            (SiteResponder(outputDirectory: output, basePath: "/blog/", hub: ReloadHub(), maxFileBytes: size - 1), "/blog/style.css", .internalServerError),
        ]
        for (responder, uri, status) in cases {
            try await Application(responder: responder).test(.router) { client in
                let get = try await client.execute(uri: uri, method: .get)
                let head = try await client.execute(uri: uri, method: .head)
                #expect([get.status, head.status] == [status, status], "\(uri)")
                #expect(get.body.readableBytes > 0, "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri)")
                #expect(head.headers[.contentLength] == String(get.body.readableBytes), "\(uri)")
                #expect(head.headers[.contentType] == "text/plain; charset=utf-8", "\(uri)")
            }
        }
    }

    @Test("ETag and Last-Modified answer 304")
    func notModified() async throws {
        let (app, _) = try await app()
        try await app.test(.router) { client in
            let first = try await client.execute(uri: "/blog/style.css", method: .get)
            let etag = try #require(first.headers[.eTag])
            let modified = try #require(first.headers[.lastModified])
            #expect(modified.hasSuffix(" GMT"))
            let byTag = try await client.execute(uri: "/blog/style.css", method: .get, headers: [.ifNoneMatch: etag])
            #expect(byTag.status == .notModified)
            #expect(byTag.body.readableBytes == 0)
            let byDate = try await client.execute(uri: "/blog/style.css", method: .get, headers: [.ifModifiedSince: modified])
            #expect(byDate.status == .notModified)
            let stale = try await client.execute(uri: "/blog/style.css", method: .get, headers: [.ifNoneMatch: "\"nope\""])
            #expect(stale.status == .ok)
        }
    }

    @Test("a missing page is the site's 404 page with status 404; other methods are refused")
    func notFound() async throws {
        let (app, _) = try await app()
        try await app.test(.router) { client in
            let missing = try await client.execute(uri: "/blog/nowhere/", method: .get)
            #expect(missing.status == .notFound)
            #expect(String(buffer: missing.body).contains("Page not found"))
            // Its script also answers to the 404 page's own path; a page's, to none.
            #expect(String(buffer: missing.body).contains("var servedAs = \"/blog/404.html\";"))
            #expect(String(buffer: try await client.execute(uri: "/blog/", method: .get).body).contains("var servedAs = null;"))
            #expect(try await client.execute(uri: "/blog/", method: .post).status == .methodNotAllowed)
        }
    }

    @Test("a path put in the live-reload script cannot end the script or the string")
    func scriptLiteral() {
        #expect(LiveReloadScript.literal("/a\"b\\c</script><!--&\u{2028}") == "\"/a\\u0022b\\u005cc\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\"")
    }

    @Test("no request reads outside the output folder", arguments: [
        "/blog/../../etc/passwd", "/blog/%2e%2e/%2e%2e/etc/passwd", "/blog/%252e%252e/%252e%252e/etc/passwd",
        "/blog/..%5c..%5cetc%5cpasswd", "/blog/%2e%2e%5c%2e%2e%5cetc%5cpasswd", "/blog/index.html%00.css", "/blog/.daybook-manifest",
        "/blog/outside", "/blog/outside-folder/hostname",
    ])
    func traversal(uri: String) async throws {
        let (app, site) = try await app()
        let output = site.directory.appending(path: "output")
        // Symlinks placed in the output folder that point outside it.
        try? FileManager.default.createSymbolicLink(atPath: output.appending(path: "outside").path, withDestinationPath: "/etc/passwd")
        try? FileManager.default.createSymbolicLink(atPath: output.appending(path: "outside-folder").path, withDestinationPath: "/etc")
        try await app.test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .notFound || response.status == .badRequest, "\(uri) → \(response.status)")
            #expect(!String(buffer: response.body).contains("root:"))
        }
    }

    @Test("a file over the size limit is refused with a reason naming the limit; one at the limit is served")
    func sizeLimit() async throws {
        let site = try await Self.built.get()
        let output = site.directory.appending(path: "output")
        let size = try #require(site.read("output/style.css")).utf8.count
        for (limit, status) in [(size - 1, HTTPResponse.Status.internalServerError), (size, .ok)] {
            let app = Application(responder: SiteResponder(outputDirectory: output, basePath: "/blog/", hub: ReloadHub(), maxFileBytes: limit))
            try await app.test(.router) { client in
                let response = try await client.execute(uri: "/blog/style.css", method: .get)
                #expect(response.status == status, "limit \(limit)")
                if status != .ok {
                    #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                    #expect(String(buffer: response.body) == "This file is \(size) bytes, more than the \(limit) bytes the preview serves; open it from the output folder instead.\n")
                }
            }
        }
        #expect(SiteResponder.describe(bytes: SiteResponder.maxFileBytes) == "256 MiB")
        #expect(SiteResponder.describe(bytes: SiteResponder.maxFileBytes + 1) == "257 MiB")
    }

    @Test("a FIFO at a page path is not found, and does not block the server", .timeLimit(.minutes(1)))
    func fifo() async throws {
        let (app, site) = try await app()
        let folder = site.directory.appending(path: "output/fifo-page")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = mkfifo(folder.appending(path: "index.html").path, 0o644)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/blog/fifo-page/", method: .get)
            #expect(response.status == .notFound)
            #expect(String(buffer: response.body).contains("Page not found"))
        }
    }

    @Test("no symbolic link below the output folder is followed, to a page outside it or inside", arguments: [
        "/blog/linked-page/", "/blog/linked-folder/", "/blog/linked-style.css",
    ])
    func linkedPage(uri: String) async throws {
        let (app, site) = try await app()
        let output = site.directory.appending(path: "output")
        try site.write("outside/index.html", "<p>outside the output</p>\n")
        try? FileManager.default.createDirectory(at: output.appending(path: "linked-page"), withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(
            atPath: output.appending(path: "linked-page/index.html").path, withDestinationPath: site.directory.appending(path: "outside/index.html").path)
        try? FileManager.default.createSymbolicLink(atPath: output.appending(path: "linked-folder").path, withDestinationPath: "../outside")
        // Inside the output, but a build writes no link: one there was put by something else.
        try? FileManager.default.createSymbolicLink(atPath: output.appending(path: "linked-style.css").path, withDestinationPath: "style.css")
        try await app.test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .notFound, "\(uri) → \(response.status)")
            #expect(!String(buffer: response.body).contains("outside the output"))
            #expect(try await client.execute(uri: "/blog/style.css", method: .get).status == .ok)
        }
    }
}
