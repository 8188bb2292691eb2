import DaybookTestSupport
import Foundation
import Testing

/// Issue 14: a build longer than a second shows one updating line on a terminal (the phase, and
/// pages done out of the total), erased when it ends; nothing reaches a pipe.
@Suite("progress line")
struct ProgressLineTests {
    let cli = DaybookBinaryTests()

    /// A site of 10,000 posts: seconds for a debug build, well past the line's one-second delay
    /// (3,000 took about one second once the theme rendered through the compiled walk).
    static func bigSite() throws -> SiteFixture {
        let posts = (0..<10000).map { i in
            #"{"id": "p\#(i)", "author": "ana", "createdAt": "2026-11-\#(10 + i % 10)T\#(10 + i % 12):\#(10 + i % 50):00Z", "caption": "Post \#(i) #t\#(i % 40)"}"#
        }
        return try SiteFixture("""
            -- site.yml --
            title: Big
            baseURL: https://example.org/
            -- content/users.json --
            [{"id": "ana", "name": "Ana"}]
            -- content/posts.json --
            [\(posts.joined(separator: ",\n"))]
            """)
    }

    @Test("on a terminal the line shows 'render and write N/total' and is erased before the summary; piped, no progress bytes")
    func terminalAndPipe() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let site = try Self.bigSite()
        let arguments = ["build", "--site", site.directory.path, "--now", "2026-11-21T12:00:00Z"]
        let terminal = try FirstRunTests().runOnTerminal(arguments)
        let drawn = terminal.matches(of: /\r\u{1B}\[2Krender and write ([0-9,]+)\/([0-9,]+)/)
        #expect(!drawn.isEmpty, "no progress line in \(terminal.debugDescription.prefix(300))")
        let totals = Set(drawn.map { String($0.output.2) })
        #expect(totals.count == 1)
        let total = try #require(Int((totals.first ?? "").replacing(",", with: "")))
        #expect(total > 10000)
        // Counts only grow.
        let counts = drawn.map { Int(String($0.output.1).replacing(",", with: "")) ?? -1 }
        #expect(counts == counts.sorted())
        // The last thing before the summary is the erase.
        let summary = try #require(terminal.range(of: "timeline +10,000"))
        #expect(terminal[..<summary.lowerBound].hasSuffix("\r\u{1B}[2K"))

        try FileManager.default.removeItem(at: site.directory.appending(path: "output"))
        let piped = try cli.run(arguments)
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("\u{1B}"))
        #expect(!piped.stderr.contains("\r"))
        #expect(!piped.stderr.contains("render and write"))
        try FileManager.default.removeItem(at: site.directory.appending(path: "output"))
        let quiet = try FirstRunTests().runOnTerminal(arguments + ["--quiet"])
        #expect(!quiet.contains("render and write"))
    }
}
