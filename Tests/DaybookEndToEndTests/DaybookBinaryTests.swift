import DaybookTestSupport
import Foundation
import Testing

/// Runs the built `daybook` executable as a user would: exit codes, stdout, stderr and files.
@Suite("daybook binary")
struct DaybookBinaryTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: URL {
        // Tests run from the build products folder, beside the executable.
        let products = Bundle.main.bundleURL.lastPathComponent.hasSuffix(".xctest")
            ? Bundle.main.bundleURL.deletingLastPathComponent() : Bundle.main.bundleURL
        return products.appending(path: "daybook")
    }

    func run(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "SOURCE_DATE_EPOCH")
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("build prints warnings to stderr, a one-line summary to stdout, and exits 0")
    func build() throws {
        let site = try SiteFixture(MiniSite.archive)
        let result = try run(["build", "--site", site.directory.path, "--now", MiniSite.now])
        #expect(result.status == 0)
        #expect(result.stderr == """
            content/comments.json:5:10: warning: comment 'c4' is on post 'nope', which does not exist; it is left out
            content/sent-prompts.json:5:10: warning: sent prompt 's4' names prompt 'lost', which does not exist; it is shown as a placeholder
            site.yml: warning: baseURL '/' has no scheme and host, so the feeds and the sitemap cannot give absolute URLs; set it to the site's address, such as 'baseURL: https://example.org/'

            """)
        #expect(result.stdout.hasPrefix("journal +4 · timeline +4 · tags +1 · users +3 · locations +1 · 24 pages · images 0 encoded, 0 reused · files 46 written, 0 unchanged, 0 removed · 3 warnings · "))
        #expect(result.stdout.hasSuffix(" s\n"))
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(HTMLProbe.dataIDs(site.read("output/journal/index.html") ?? "") == ["today", "twice"])
    }

    @Test("a damaged photo is one diagnostic at its field on stderr, and nothing of libvips's own")
    func damagedPhoto() throws {
        let site = try SiteFixture("""
            -- site.yml --
            baseURL: https://example.org/
            -- content/users.json --
            [{"id": "u"}]
            -- content/posts.json --
            [{"id": "p", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "image": "images/cut.png"}]
            """)
        try site.write("content/images/cut.png", bytes: TestPNG.make(width: 64, height: 64).prefix(100))
        let result = try run(["build", "--site", site.directory.path, "--now", MiniSite.now])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("content/posts.json:1:75: error: 'content/images/cut.png' cannot be decoded (") == true)
        #expect(lines.dropFirst().first == "build failed: 1 error, 0 warnings; the output folder was not changed")
    }

    @Test("two processes (two hash seeds) give byte-identical output")
    func deterministicAcrossProcesses() throws {
        let a = try SiteFixture(IndexSite.archive)
        let b = try SiteFixture(IndexSite.archive)
        _ = try run(["build", "--site", a.directory.path, "--now", IndexSite.now])
        _ = try run(["build", "--site", b.directory.path, "--now", IndexSite.now])
        #expect(a.tree("output").count > 40)
        #expect(a.tree("output") == b.tree("output"))
    }

    @Test("--quiet prints no summary, --verbose prints each change, and they exclude each other")
    func verbosity() throws {
        let site = try SiteFixture(IndexSite.archive)
        let quiet = try run(["build", "--site", site.directory.path, "--now", IndexSite.now, "--quiet"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty)
        try site.write("content/prompts.json", #"[{"id": "q1", "title": "One, again"}, {"id": "q2", "title": "Two & <three>", "body": "Some *text*."}, {"id": "q3", "title": "Three"}]"#)
        let verbose = try run(["build", "--site", site.directory.path, "--now", IndexSite.now, "--verbose"])
        let lines = verbose.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(4)) == ["journal ~ q1", "wrote journal/page/2/index.html", "wrote journal/q1/index.html", "wrote journal/feed.xml"])
        // The search files of the words the title dropped and added, and the entry's card.
        #expect(Array(lines.dropFirst(4).prefix(3)) == ["wrote search/l/0.json", "wrote search/p/3.json", "wrote search/d/0.json"])
        #expect(lines.count == 9)
        #expect(lines.dropFirst(7).first?.hasPrefix("time: read ") == true)
        #expect(verbose.stdout.split(separator: "\n").last?.hasPrefix("journal ~1 · 40 pages · images 0 encoded, 0 reused · files 6 written, 59 unchanged, 0 removed · 1 warning · ") == true)
        let both = try run(["build", "--site", site.directory.path, "--quiet", "--verbose"])
        #expect(both.status != 0)
        #expect(both.stderr.contains("--quiet and --verbose cannot be used together"))
    }

    @Test("--force hands a hand-placed file over to the build")
    func force() throws {
        let site = try SiteFixture(IndexSite.archive)
        try site.write("output/index.html", "mine")
        let refused = try run(["build", "--site", site.directory.path, "--now", IndexSite.now])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("output/index.html: error: the build would replace index.html, which it did not write"))
        #expect(site.read("output/index.html") == "mine")
        let forced = try run(["build", "--site", site.directory.path, "--now", IndexSite.now, "--force"])
        #expect(forced.status == 0)
        #expect(site.read("output/index.html") != "mine")
    }

    @Test("check: a clean build checks clean; a broken one fails with located errors, in text and JSON")
    func check() throws {
        let site = try SiteFixture(IndexSite.archive)
        _ = try run(["build", "--site", site.directory.path, "--now", IndexSite.now])
        let output = site.directory.appending(path: "output").path
        let clean = try run(["check", "--output", output])
        #expect(clean.status == 0)
        #expect(clean.stderr.isEmpty)
        #expect(clean.stdout.hasPrefix("checked 40 pages · "))
        #expect(clean.stdout.contains(" · 0 errors · "))

        try FileManager.default.removeItem(atPath: output + "/posts/p3")
        let broken = try run(["check", "--output", output])
        #expect(broken.status != 0)
        let errors = broken.stderr.split(separator: "\n").map(String.init)
        #expect(errors.contains("sitemap.xml:16:6: error: sitemap URL https://example.org/blog/posts/p3/ has no page in the folder"))
        // p3 was on six pages (home, timeline page 2, #sky, #café, Porto, Zoë), each card linking it twice,
        // and Zoë's next newer and older posts (p1, p4) link it as their neighbour (`data-nav`).
        #expect(errors.filter { $0.hasSuffix("error: link to /blog/posts/p3/ does not resolve") }.count == 8)
        // The profile's grid links each post once, without a separate comments link.
        #expect(errors.filter { $0.hasSuffix("error: link to /blog/posts/p3/#comments does not resolve") }.count == 5)
        #expect(errors.contains("index.html:113:27: error: link to /blog/posts/p3/ does not resolve"))
        // And the feeds that list p3: the timeline's and Zoë's.
        #expect(errors.filter { $0.contains(".xml:") && $0.hasSuffix("error: link to https://example.org/blog/posts/p3/ does not resolve") }.count == 2)
        #expect(broken.stdout.contains(" · 16 errors · "))

        let json = try run(["check", "--output", output, "--format", "json"])
        #expect(json.status != 0)
        struct Report: Decodable {
            struct Item: Decodable { var path: String; var line: Int?; var column: Int?; var severity: String; var message: String }
            var diagnostics: [Item]; var errors: Int; var pages: Int
        }
        let report = try JSONDecoder().decode(Report.self, from: Data(json.stdout.utf8))
        #expect(report.errors == 16)
        #expect(report.pages == 39)
        #expect(report.diagnostics.first { $0.path == "sitemap.xml" }?.line == 16)
    }

    @Test("check: a --base-url that is not an address is a usage error, exit 64", arguments: ["", "notaurl", "https://"])
    func checkBaseURL(value: String) throws {
        let site = try SiteFixture(IndexSite.archive)
        let result = try run(["check", "--output", site.directory.path, "--base-url", value])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--base-url must be the site's address, such as https://example.org/ or /blog/, found '\(value)'"))
    }

    @Test("check keeps its page facts in the site's cache folder, and writes nothing in a folder that is not a site")
    func checkCache() throws {
        let site = try SiteFixture(IndexSite.archive)
        _ = try run(["build", "--site", site.directory.path, "--now", IndexSite.now])
        let output = site.directory.appending(path: "output").path
        let elsewhere = try SiteFixture("")
        let outside = try run(["check", "--output", output], in: elsewhere.directory)
        #expect(outside.status == 0)
        #expect(elsewhere.tree("").isEmpty)
        let inside = try run(["check", "--site", site.directory.path])
        #expect(inside.status == 0)
        #expect(FileManager.default.fileExists(atPath: site.directory.appending(path: ".daybook-cache/check").path))
        // From the cache, the same report (but for the time it took).
        let again = try run(["check", "--site", site.directory.path])
        func withoutTime(_ text: String) -> String { text.replacing(#/ · [0-9.]+ s\n$/#, with: "") }
        #expect(again.status == 0)
        #expect(withoutTime(again.stdout) == withoutTime(inside.stdout))
        #expect(withoutTime(inside.stdout).hasPrefix("checked 40 pages · "))
    }

    @Test("--future lists what is dated after now")
    func future() throws {
        let site = try SiteFixture(MiniSite.archive)
        _ = try run(["build", "--site", site.directory.path, "--now", MiniSite.now, "--future"])
        #expect(HTMLProbe.dataIDs(site.read("output/timeline/index.html") ?? "") == ["p9", "p3"])
        #expect(HTMLProbe.dataIDs(site.read("output/journal/index.html") ?? "") == ["today", "extra"])
    }

    @Test("--drafts lists what is marked draft: true")
    func drafts() throws {
        let site = try SiteFixture(JournalSite.archive)
        _ = try run(["build", "--site", site.directory.path, "--now", JournalSite.now])
        #expect(HTMLProbe.dataIDs(site.read("output/timeline/index.html") ?? "") == ["b1", "p3", "p2", "p1"])
        _ = try run(["build", "--site", site.directory.path, "--now", JournalSite.now, "--drafts"])
        #expect(HTMLProbe.dataIDs(site.read("output/timeline/index.html") ?? "") == ["pd", "b1", "p3", "p2", "p1"])
    }

    @Test("SOURCE_DATE_EPOCH is the build's now when --now is not given")
    func sourceDateEpoch() throws {
        let site = try SiteFixture(MiniSite.archive)
        // 2026-11-19T12:00:00Z: 'older' (sent that morning) is the newest entry and no prompt is dated today.
        let result = try run(["build", "--site", site.directory.path], environment: ["SOURCE_DATE_EPOCH": "1795089600"])
        #expect(result.status == 0)
        #expect(HTMLProbe.dataIDs(site.read("output/journal/index.html") ?? "") == ["older", "twice"])
    }

    @Test("an error exits non-zero, names the place, and leaves the output untouched")
    func failure() throws {
        let site = try SiteFixture(MiniSite.archive)
        _ = try run(["build", "--site", site.directory.path, "--now", MiniSite.now])
        let before = site.tree("output")
        try site.write("content/users/bad.json", #"{"id": "bad", "follows": "ana"}"#)
        let result = try run(["build", "--site", site.directory.path, "--now", MiniSite.now])
        #expect(result.status != 0)
        #expect(result.stderr.contains("content/users/bad.json:1:26: error: 'follows' must be an array of strings, found a string\n"))
        #expect(result.stderr.hasSuffix("build failed: 1 error, 3 warnings; the output folder was not changed\n"))
        #expect(result.stdout.isEmpty)
        #expect(site.tree("output") == before)
    }

    @Test("a bad --now is refused with a clear message")
    func badNow() throws {
        let site = try SiteFixture(MiniSite.archive)
        let result = try run(["build", "--site", site.directory.path, "--now", "tomorrow"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--now 'tomorrow' is not an RFC 3339 date-time such as 2026-11-21T08:00:00Z"))
    }

    /// Payloads that break out of text and of attributes, placed in every field that reaches a page.
    static let script = "<script>alert(1)</script>"
    static let breakout = "\\\"><img src=x onerror=alert(1)>"
    static let quote = "' onmouseover='alert(1)"

    @Test("content is escaped in every field")
    func escaping() throws {
        let p = "\(Self.script)\(Self.breakout)\(Self.quote)"
        let site = try SiteFixture("""
            -- site.yml --
            title: "\(p)"
            -- content/prompts.json --
            [{"id": "x", "title": "\(p)", "date": "2026-11-21", "body": "\(p) [a](javascript:alert(1))"}]
            -- content/sent-prompts.json --
            [{"id": "s", "promptId": "<b>gone</b>", "sentAt": "2026-11-20T08:00:00Z"}]
            -- content/users.json --
            [{"id": "u", "name": "\(p)", "bio": "\(p)", "avatar": "\(p).png"}]
            -- content/posts.json --
            [{"id": "p", "author": "u", "createdAt": "2026-11-20T08:00:00Z", "caption": "\(p) #tag @u",
              "image": "https://example.org/\(p).png", "imageAlt": "\(p)", "location": {"name": "\(p)"}, "tags": ["ok"]}]
            -- content/comments.json --
            [{"id": "c", "postId": "p", "author": "u", "createdAt": "2026-11-20T09:00:00Z", "text": "\(p)"}]
            """)
        let result = try run(["build", "--site", site.directory.path, "--now", MiniSite.now])
        #expect(result.status == 0, "\(result.stderr)")
        let pages = site.tree("output").filter { $0.key.hasSuffix(".html") }
        #expect(pages.count == 15)
        for (path, data) in pages {
            // The theme's own scripts (search, load more) are the only ones a page may carry.
            let html = String(decoding: data, as: UTF8.self).replacing("<script src=\"/search.js\" defer></script>", with: "")
                .replacing("<script src=\"/load-more.js\" defer></script>", with: "")
                .replacing("<script src=\"/sensitive.js\" defer></script>", with: "").replacing("<script src=\"/preview.js\" defer></script>", with: "")
            #expect(!html.contains("<script"), "\(path) has a script element")
            #expect(!html.contains("<img src=x"), "\(path) has an injected image")
            #expect(!html.contains("javascript:"), "\(path) has a javascript: link")
            #expect(!html.contains("<b>gone"), "\(path) has unescaped id text")
            // No tag may carry an injected attribute. Quoted values are dropped first: the payload
            // inside them is harmless text, because its own quotes are escaped as &quot;.
            for tag in html.split(separator: "<").map({ $0.prefix { $0 != ">" } }) {
                let names = tag.replacing(/"[^"]*"/, with: "")
                #expect(!names.contains("onerror") && !names.contains("onmouseover"), "\(path): <\(tag)>")
            }
        }
        let post = String(decoding: pages["posts/p/index.html"] ?? Data(), as: UTF8.self)
        #expect(post.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }
}

/// The repository is itself a site: its example must build cleanly, and every link in it must resolve.
@Suite("The example site")
struct ExampleSiteTests {
    @Test("builds with no warnings, and every internal link resolves")
    func example() throws {
        let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = SiteFixture.temporaryFolder("example")
        let result = try DaybookBinaryTests().run([
            "build", "--site", repository.path, "--output", output.path, "--now", "2026-11-21T12:00:00Z", "--strict",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        // Images are encoded or reused depending on the repository's .daybook-cache; the sum is fixed.
        #expect(result.stdout.hasPrefix("journal +14 · timeline +36 · tags +35 · users +7 · locations +6 · 117 pages · images "))
        #expect(result.stdout.contains(" reused · files 235 written, 0 unchanged, 0 removed · 0 warnings · "))
        #expect(try LinkResolver(root: output, prefix: "/").brokenLinks() == [])
        let journal = try String(contentsOf: output.appending(path: "journal/index.html"), encoding: .utf8)
        #expect(HTMLProbe.dataIDs(journal).first == "today-window")
    }
}

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("daybook serve")
struct ServeBinaryTests {
    @Test("starts on a free port, serves the site, prints each phase with --verbose, and stops cleanly on SIGTERM")
    func serve() async throws {
        let site = try SiteFixture(IndexSite.archive)
        let process = Process()
        process.executableURL = DaybookBinaryTests.binary
        process.arguments = ["serve", "--site", site.directory.path, "--port", "0", "--verbose"]
        var environment = ProcessInfo.processInfo.environment
        environment["SOURCE_DATE_EPOCH"] = "1795262400"  // 2026-11-21T12:00:00Z
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // Read until the "Serving … at http://127.0.0.1:PORT/blog/" line.
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while !text.contains("(Ctrl-C to stop)") && Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { try await Task.sleep(for: .milliseconds(50)) } else { text += String(decoding: chunk, as: UTF8.self) }
        }
        #expect(text.contains("\nwrote index.html\n"))
        #expect(text.contains("\ntime: read "))
        let match = try #require(text.firstMatch(of: #/at (http://127\.0\.0\.1:(\d+)/blog/) /#))
        #expect(Int(match.2) != 8000)
        let (data, response) = try await URLSession.shared.data(from: URL(string: String(match.1))!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("/_daybook/events"))

        kill(process.processIdentifier, SIGTERM)
        let stopped = Date().addingTimeInterval(15)
        while process.isRunning && Date() < stopped { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
