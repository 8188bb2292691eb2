import DaybookTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a first-time user meets, through the real binary: `--version`, `new`, the messages for a
/// folder that is not a site, exit codes, and what reaches their terminal.
@Suite("first run")
struct FirstRunTests {
    let cli = DaybookBinaryTests()

    /// An empty temporary folder.
    func emptyFolder() throws -> URL {
        SiteFixture.temporaryFolder("first-run")
    }

    func files(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        return (enumerator?.allObjects as? [String] ?? []).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appending(path: path).path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    @Test("--version prints 'daybook X.Y.Z' and exits 0")
    func version() throws {
        let result = try cli.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "daybook 0.4.0\n")
        #expect(result.stdout.wholeMatch(of: /daybook \d+\.\d+\.\d+\n/) != nil)
        #expect(result.stderr.isEmpty)
    }

    @Test("new DIR makes a site that builds and checks with --strict and no warnings")
    func newSite() throws {
        let parent = try emptyFolder()
        let made = try cli.run(["new", "my-site"], in: parent)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.isEmpty)
        #expect(made.stdout.hasPrefix("Created a Daybook site in my-site: site.yml, .gitignore and "))
        #expect(made.stdout.contains("Next: cd my-site && daybook serve"))
        let site = parent.appending(path: "my-site")
        // One Markdown item for each collection; `responses` once the loader knows that collection.
        let expected = [
            ".gitignore", "content/comments/first-comment.md", "content/posts/first-post.md",
            "content/prompts/what-went-well.md", "content/sent-prompts/first-send.md", "content/users/me.md", "site.yml",
        ]
        let written = files(under: site)
        #expect(written.filter { !$0.hasPrefix("content/responses/") } == expected)
        #expect(written.count == expected.count || written.contains("content/responses/first-answer.md"))
        #expect(try String(contentsOf: site.appending(path: ".gitignore"), encoding: .utf8) == "output/\n.daybook-cache/\n")
        let settings = try String(contentsOf: site.appending(path: "site.yml"), encoding: .utf8)
        #expect(settings.contains("\nbaseURL: https://example.com/\n"))
        #expect(settings.split(separator: "\n").filter { $0.hasPrefix("#") }.count >= 5)

        let built = try cli.run(["build", "--strict", "--check"], in: site)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stderr.isEmpty)
        #expect(built.stdout.contains(" · 0 warnings · "))
        let timeline = try String(contentsOf: site.appending(path: "output/timeline/index.html"), encoding: .utf8)
        #expect(HTMLProbe.dataIDs(timeline) == ["first-post"])
        let journal = try String(contentsOf: site.appending(path: "output/journal/index.html"), encoding: .utf8)
        #expect(HTMLProbe.dataIDs(journal) == ["what-went-well"])
        let checked = try cli.run(["check"], in: site)
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    @Test("new --language writes a starter site in that language, which builds and checks with --strict and no warnings",
        arguments: ["pt", "ar", "ja"])
    func newSiteInLanguage(language: String) throws {
        let parent = try emptyFolder()
        let made = try cli.run(["new", "site", "--language", language], in: parent)
        #expect(made.status == 0, "\(made.stderr)")
        let site = parent.appending(path: "site")
        let settings = try String(contentsOf: site.appending(path: "site.yml"), encoding: .utf8)
        #expect(settings.contains("\nlanguage: \(language)\n"))
        let built = try cli.run(["build", "--strict", "--check"], in: site)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stderr.isEmpty)
        let home = try String(contentsOf: site.appending(path: "output/index.html"), encoding: .utf8)
        #expect(home.contains("<html lang=\"\(language)\"\(language == "ar" ? " dir=\"rtl\"" : "")>"))
        let prompt = try String(contentsOf: site.appending(path: "content/prompts/what-went-well.md"), encoding: .utf8)
        let titles = ["pt": "title: \"O que deu certo hoje?\"", "ar": "title: \"ما الذي سار على ما يرام اليوم؟\"", "ja": "title: \"今日うまくいったことは？\""]
        #expect(prompt.contains(titles[language]!), "\(prompt)")
        // The caption's hashtags are tags of the language's words, each with its page.
        let tags = files(under: site.appending(path: "output/tags")).filter { $0.hasSuffix("/index.html") && $0 != "index.html" }
        #expect(tags.count == 2, "\(tags)")
    }

    @Test("new --language refuses a tag that is not BCP 47, and says so for a language Daybook has no words for")
    func newSiteLanguageErrors() throws {
        let parent = try emptyFolder()
        let refused = try cli.run(["new", "site", "--language", "pt_BR"], in: parent)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: --language must be a BCP 47 language tag such as en, pt-BR or zh-Hant, found 'pt_BR'\n")
        #expect(!FileManager.default.fileExists(atPath: parent.appending(path: "site").path))
        let unknown = try cli.run(["new", "klingon", "--language", "tlh"], in: parent)
        #expect(unknown.status == 0)
        #expect(unknown.stdout.contains("Daybook has no words for 'tlh': the theme and these first items are in English; add the theme's words in Templates/i18n/tlh.yml."))
    }

    @Test("new refuses a folder that is not empty, with no usage; an empty one is fine")
    func newRefusesNonEmpty() throws {
        let parent = try emptyFolder()
        try FileManager.default.createDirectory(at: parent.appending(path: "taken"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: parent.appending(path: "taken/notes.txt"))
        let refused = try cli.run(["new", "taken"], in: parent)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: 'taken' is not empty; choose a new folder, or an empty one, so nothing in it is overwritten\n")
        #expect(files(under: parent.appending(path: "taken")) == ["notes.txt"])

        try FileManager.default.createDirectory(at: parent.appending(path: "empty"), withIntermediateDirectories: true)
        #expect(try cli.run(["new", "empty"], in: parent).status == 0)

        let missing = try cli.run(["new"], in: parent)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("Usage: daybook new <directory>"))
    }

    @Test("daybook in a folder with no content/ says so and points at daybook new")
    func noContent() throws {
        let folder = try emptyFolder()
        let result = try cli.run([], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr == "error: this folder has no content/ folder, so it is not a Daybook site; start one with 'daybook new DIR', or pass --site DIR\n")
        #expect(result.stdout.isEmpty)
        #expect(files(under: folder) == [])
    }

    @Test("usage errors exit 64 with the usage; site and build errors exit 1 without it")
    func exitCodes() throws {
        let missing = try cli.run(["build", "--site", "/nonexistent"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: site folder '/nonexistent' does not exist; start a site there with 'daybook new /nonexistent'\n")

        let unknown = try cli.run(["build", "--frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("Usage: daybook build"))

        let site = try SiteFixture(MiniSite.archive)
        let badNow = try cli.run(["build", "--site", site.directory.path, "--now", "tomorrow"])
        #expect(badNow.status == 64)
        #expect(badNow.stderr.contains("--now 'tomorrow' is not an RFC 3339 date-time"))
        #expect(badNow.stderr.contains("Usage: daybook build"))

        let badEpoch = try cli.run(["build", "--site", site.directory.path], environment: ["SOURCE_DATE_EPOCH": "soon"])
        #expect(badEpoch.status == 1)
        #expect(badEpoch.stderr == "error: SOURCE_DATE_EPOCH 'soon' is not a whole number of seconds since 1970\n")

        try site.write("content/users/bad.json", #"{"id": 7}"#)
        let failed = try cli.run(["build", "--site", site.directory.path, "--now", MiniSite.now])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("content/users/bad.json:1:8: error: 'id' must be a string, found a number; put it in quotes\n"))
        #expect(!failed.stderr.contains("Usage"))

        let noOutput = try cli.run(["check", "--output", "/nonexistent/output"])
        #expect(noOutput.status == 1)
        #expect(noOutput.stderr == "error: output folder '/nonexistent/output' does not exist; run 'daybook build' first\n")
        // With --format json, tools that parse the report get one: the error, nothing checked.
        let noOutputJSON = try cli.run(["check", "--output", "/nonexistent/output", "--format", "json"])
        #expect(noOutputJSON.status == 1)
        #expect(noOutputJSON.stderr == "")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(noOutputJSON.stdout.utf8)) as? [String: Any])
        #expect(report["errors"] as? Int == 1)
        #expect(report["pages"] as? Int == 0)
        let diagnostic = try #require((report["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic["path"] as? String == "/nonexistent/output")
        #expect(diagnostic["severity"] as? String == "error")
        #expect(diagnostic["message"] as? String == "output folder '/nonexistent/output' does not exist; run 'daybook build' first")
    }

    @Test("a baseURL without scheme and host is a warning naming site.yml")
    func relativeBaseURL() throws {
        let site = try SiteFixture(MiniSite.archive)
        let defaulted = try cli.run(["build", "--site", site.directory.path, "--now", MiniSite.now])
        #expect(defaulted.status == 0)
        #expect(defaulted.stderr.hasSuffix(
            "site.yml: warning: baseURL '/' has no scheme and host, so the feeds and the sitemap cannot give absolute URLs; set it to the site's address, such as 'baseURL: https://example.org/'\n"))
        try site.write("site.yml", "title: Mini\nbaseURL: /blog/\n")
        let strict = try cli.run(["build", "--site", site.directory.path, "--now", MiniSite.now, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("\nsite.yml:2:10: warning: baseURL '/blog/' has no scheme and host"))
        #expect(strict.stderr.hasSuffix("build failed: 0 errors, 3 warnings (--strict); the output folder was not changed\n"))
    }

    @Test("a partial that does not exist is an error at its place in the template")
    func missingPartial() throws {
        let site = try SiteFixture(MiniSite.archive)
        try site.write("site.yml", "title: Mini\nbaseURL: https://example.org/\n")
        try site.write("Templates/item-comment.mustache", "<li>\n  {{> no-such-partial }}\n</li>\n")
        let result = try cli.run(["build", "--site", site.directory.path, "--now", MiniSite.now])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(
            "Templates/item-comment.mustache:2:3: error: template 'item-comment' includes the partial 'no-such-partial', which the theme does not have; add Templates/no-such-partial.mustache or fix the name\n"))
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output").path))
    }

    @Test("a bad optional field is reported and its item kept, so nothing cascades")
    func noCascade() throws {
        let site = try SiteFixture(MiniSite.archive)
        try site.write("content/users/x.json", #"{"id": "x", "follows": "y"}"#)
        try site.write("content/posts/by-x.json", #"{"id": "by-x", "author": "x", "createdAt": "2026-11-20T08:00:00Z"}"#)
        let result = try cli.run(["build", "--site", site.directory.path, "--now", MiniSite.now])
        #expect(result.status == 1)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors == ["content/users/x.json:1:24: error: 'follows' must be an array of strings, found a string"])
    }

    /// Runs the binary on a pseudo-terminal (util-linux `script`), as a person at a terminal would.
    func runOnTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let command = ([DaybookBinaryTests.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        env["TERM"] = "xterm"
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("error and warning are coloured on a terminal, not when piped, not with NO_COLOR")
    func colour() throws {
        let site = try SiteFixture(MiniSite.archive)
        let arguments = ["build", "--site", site.directory.path, "--now", MiniSite.now]
        let piped = try cli.run(arguments)
        #expect(piped.stderr.contains("site.yml: warning: baseURL"))
        #expect(!piped.stderr.contains("\u{1B}"))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let terminal = try runOnTerminal(arguments)
        #expect(terminal.contains("site.yml: \u{1B}[1;35mwarning\u{1B}[0m: baseURL"))
        let noColour = try runOnTerminal(arguments, environment: ["NO_COLOR": "1"])
        #expect(noColour.contains("site.yml: warning: baseURL"))
        #expect(!noColour.contains("\u{1B}"))
        let missing = try runOnTerminal(["build", "--site", "/nonexistent"])
        #expect(missing.hasPrefix("\u{1B}[1;31merror\u{1B}[0m: site folder '/nonexistent' does not exist"))
    }

    @Test("control characters from content are escaped in diagnostics, on a terminal and piped")
    func controlCharacters() throws {
        let site = try SiteFixture(MiniSite.archive)
        // Text from content has controls replaced (U+FFFD) when it is read; a file's name is not
        // content text, so one carrying ESC sequences (clear screen, red) and a C1 control (U+009B,
        // CSI) shows that the printer escapes what reaches it.
        try site.write("content/posts/evil.json", #"{"id": "evil", "author": "\u001b[2J\u001b[31mroot\u009b", "createdAt": "2026-11-20T08:00:00Z"}"#)
        try site.write("content/posts/bad\u{1B}[2J\u{9B}.json", "{")
        let arguments = ["build", "--site", site.directory.path, "--now", MiniSite.now]
        let fromText = "content/posts/evil.json:1:8: error: post 'evil' has author '\u{FFFD}[2J\u{FFFD}[31mroot\u{FFFD}', which is not a user"
        let fromName = #"content/posts/bad\u{1B}[2J\u{9B}.json:1:2: error: invalid JSON: "#
        let piped = try cli.run(arguments)
        #expect(piped.status == 1)
        #expect(piped.stderr.contains(fromText + "\n"))
        #expect(piped.stderr.contains(fromName))
        #expect(!piped.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let terminal = try runOnTerminal(arguments, environment: ["NO_COLOR": "1"])
        #expect(terminal.contains(fromText))
        #expect(terminal.contains(fromName))
        #expect(!terminal.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
    }
}

/// `daybook serve` before it serves: the port check, `--future`, and its clock.
@Suite("daybook serve, starting")
struct ServeStartTests {
    /// Holds a listening socket on a free loopback port for the test's lifetime.
    final class TakenPort {
        let descriptor: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            guard bound == 0, listen(fd, 1) == 0 else {
                close(fd)
                throw CocoaError(.fileWriteUnknown)
            }
            withUnsafeMutablePointer(to: &address) { pointer in
                _ = pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            descriptor = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    @Test("a taken port is reported before building, with what to do")
    func portInUse() throws {
        let taken = try TakenPort()
        let site = try SiteFixture(MiniSite.archive)
        let result = try DaybookBinaryTests().run(["serve", "--site", site.directory.path, "--port", String(taken.port)])
        #expect(result.status == 1)
        #expect(result.stderr == "error: port \(taken.port) is in use; try --port 0 for a free one\n")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: site.directory.appending(path: "output").path))
    }

    /// Starts `serve`, waits for its first build, stops it, and returns what it printed.
    func serveOnce(_ arguments: [String], environment: [String: String]) async throws -> String {
        try await serveOnceWithErrors(arguments, environment: environment).stdout
    }

    /// `serveOnce`, with what it printed to standard error too.
    func serveOnceWithErrors(_ arguments: [String], environment: [String: String] = [:]) async throws -> (stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = DaybookBinaryTests.binary
        process.arguments = ["serve", "--port", "0"] + arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while !text.contains("(Ctrl-C to stop)") && Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { try await Task.sleep(for: .milliseconds(50)) } else { text += String(decoding: chunk, as: UTF8.self) }
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return (text, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test("serving on an address that is not loopback is said on standard error; on loopback nothing is")
    func openHost() async throws {
        let site = try SiteFixture(MiniSite.archive)
        let open = try await serveOnceWithErrors(["--site", site.directory.path, "--host", "0.0.0.0"])
        #expect(open.stdout.contains("(Ctrl-C to stop)"))
        #expect(open.stderr.hasPrefix(
            "warning: --host 0.0.0.0 is not a loopback address: anyone who can reach this machine can read the preview, drafts and scheduled items included; --host 127.0.0.1 keeps it to this machine\n"))
        let loopback = try await serveOnceWithErrors(["--site", site.directory.path])
        #expect(!loopback.stderr.contains("loopback"))
    }

    @Test("with SOURCE_DATE_EPOCH, serve's first build is build's, it says it follows the clock, and --future previews what is scheduled")
    func clockAndFuture() async throws {
        let epoch = ["SOURCE_DATE_EPOCH": "1795262400"]  // 2026-11-21T12:00:00Z, MiniSite.now
        let served = try SiteFixture(MiniSite.archive)
        let built = try SiteFixture(MiniSite.archive)
        let text = try await serveOnce(["--site", served.directory.path], environment: epoch)
        #expect(text.hasPrefix(
            "SOURCE_DATE_EPOCH is set: the preview starts at 2026-11-21T12:00:00Z, as 'daybook build' would, and then follows the clock\n"))
        _ = try DaybookBinaryTests().run(["build", "--site", built.directory.path], environment: epoch)
        #expect(served.tree("output").count > 20)
        #expect(served.tree("output") == built.tree("output"))

        let future = try SiteFixture(MiniSite.archive)
        _ = try await serveOnce(["--site", future.directory.path, "--future"], environment: epoch)
        #expect(HTMLProbe.dataIDs(future.read("output/timeline/index.html") ?? "") == ["p9", "p3"])
    }
}
