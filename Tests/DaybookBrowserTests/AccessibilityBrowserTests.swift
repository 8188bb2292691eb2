import DaybookTestSupport
import Foundation
import Testing

extension BrowserTests {
    /// CONTRACT §12: every kind of page of the example site passes axe-core's WCAG 2.1 A and AA
    /// rules and its best practices, at 390 and 1280 CSS px, light and dark. axe-core is fetched
    /// from PyPI at test time (`scripts/fetch-axe`), never vendored.
    @Suite("Accessibility")
    struct Accessibility {
        /// axe-core's source, fetched once a run.
        static let axe: String = {
            let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let process = Process()
            process.executableURL = repository.appending(path: "scripts/fetch-axe")
            let pipe = Pipe()
            process.standardOutput = pipe
            try? process.run()
            process.waitUntilExit()
            let path = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }()

        /// One page of each kind the site has.
        static let pages = [
            "", "journal/", "journal/page/2/", "journal/first-light/", "timeline/", "timeline/page/2/", "posts/p08/", "tags/",
            "tags/lisbon/", "users/", "users/marta/", "locations/", "locations/lisbon/", "search/?q=light", "nowhere/",
        ]

        /// Each language at a phone's width and a desktop's, light, and the desktop dark: one
        /// case each, so that none outgrows the browser tests' minute.
        static let views: [(language: String, width: Int, scheme: String)] = ["en", "ar"].flatMap { language in
            [(language, 390, "light"), (language, 1280, "light"), (language, 1280, "dark")]
        }

        /// axe-core's violations on the page as it is now, one line a node; axe is loaded if it is not.
        static func violations(_ page: BrowserPage) async throws -> [String] {
            if try await page.bool("typeof axe === 'undefined'") { _ = try await page.evaluate(Self.axe) }
            return try await page.strings("""
                axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})
                  .then(r => r.violations.flatMap(v => v.nodes.map(n => v.id + ' ' + n.target.join(' ') + ': ' + (n.failureSummary || '').split('\\n').slice(1, 2).join(''))))
                """)
        }

        /// The example site in `language`, served, in a fresh browser.
        static func withExample(in language: String, _ body: (LoopbackSite, BrowserPage) async throws -> Void) async throws {
            try #require(Self.axe.hasPrefix("/*! axe v4.12"), "scripts/fetch-axe could not fetch axe-core from PyPI")
            let fixture = try Screenshots.example(in: language)
            let served = try await LoopbackSite.start(fixture, now: "2026-11-21T12:00:00Z")
            defer { try? FileManager.default.removeItem(at: fixture.directory) }
            do {
                try await withBrowser(width: 1280) { page in try await body(served, page) }
                await served.stop()
            } catch {
                await served.stop()
                throw error
            }
        }

        @Test("zero axe-core violations on every kind of page, at 390 and 1280 px, light and dark", arguments: views)
        func axeClean(language: String, width: Int, scheme: String) async throws {
            try await Self.withExample(in: language) { served, page in
                var violations: [String] = []
                try await page.resize(width: width, height: 900)
                _ = try await page.send("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": scheme]]])
                for path in Self.pages {
                    try await page.navigate(served.url(path))
                    if path.hasPrefix("search/") {
                        try await page.waitUntil("document.querySelectorAll('#search-results a').length > 0", "search results")
                    }
                    let found = try await Self.violations(page)
                    violations += found.map { "\(language) \(width) \(scheme) /\(path): \($0)" }
                }
                #expect(violations == [], Comment(rawValue: "\(violations.count) violations:\n" + violations.joined(separator: "\n")))
            }
        }

        /// A dialog is built by script, so the pages above never show it to axe.
        @Test("zero axe-core violations with the photo preview open, at 390 and 1280 px, light and dark", arguments: ["en", "ar"])
        func axeCleanPreview(language: String) async throws {
            try await Self.withExample(in: language) { served, page in
                var violations: [String] = []
                for view in Self.views where view.language == language {
                    try await page.resize(width: view.width, height: 900)
                    _ = try await page.send("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": view.scheme]]])
                    try await page.navigate(served.url("users/marta/"))
                    try await page.click("a[data-preview]")
                    try await page.waitUntil("!!document.querySelector('dialog[data-preview]')?.open && !!document.querySelector('dialog[data-preview] img')?.complete",
                        "the preview to open with its photo")
                    let found = try await Self.violations(page)
                    violations += found.map { "\(language) \(view.width) \(view.scheme) preview: \($0)" }
                }
                #expect(violations == [], Comment(rawValue: "\(violations.count) violations:\n" + violations.joined(separator: "\n")))
            }
        }
    }
}
