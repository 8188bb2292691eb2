import DaybookImages
import DaybookTestSupport
import Foundation
import Testing

extension BrowserTests {
    /// Screenshots of the pages this work changed, at a phone's and a desktop's width, for a
    /// person to look at. They go to `$DAYBOOK_SCREENSHOTS`, else a temporary folder (printed);
    /// they are never committed.
    @Suite("Screenshots")
    struct Screenshots {
        static let folder: URL = {
            if let path = ProcessInfo.processInfo.environment["DAYBOOK_SCREENSHOTS"], !path.isEmpty { return URL(filePath: path) }
            return FileManager.default.temporaryDirectory.appending(path: "daybook-screenshots")
        }()

        /// The pixel width and height in a PNG's IHDR chunk.
        static func size(ofPNG data: Data) -> (width: Int, height: Int)? {
            let bytes = [UInt8](data.prefix(24))
            guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
            func word(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            return (word(16), word(20))
        }

        static let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

        /// The example site's photos and icon, encoded once a run into a cache folder each
        /// fixture starts from, so that a case spends its minute in the browser, not in libvips:
        /// encoded again in every case, on a machine busy with the other tests, the first axe
        /// case outgrew its minute. `nil` (each case encodes them) if the folder cannot be made.
        /// The example uses the default `images.widths`; other widths would only miss the cache.
        static let encodedImages: URL? = {
            let folder = FileManager.default.temporaryDirectory.appending(path: "daybook-example-images-\(getpid())")
            try? FileManager.default.removeItem(at: folder)
            guard let pipeline = try? ImagePipeline(cacheFolder: folder.appending(path: "images")) else { return nil }
            let content = repository.appending(path: "content")
            let paths = (FileManager.default.enumerator(atPath: content.path)?.allObjects as? [String] ?? [])
                .filter { ["jpg", "jpeg", "png", "webp"].contains(URL(filePath: $0).pathExtension.lowercased()) }
            _ = pipeline.process(paths.map { ImageSource.file(content.appending(path: $0), path: $0) })
            if let icon = FileManager.default.contents(atPath: content.appending(path: "images/icon.png").path) {
                _ = try? pipeline.icon(source: Array(icon), path: "images/icon.png") { "\($0)" }
            }
            atexit { try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appending(path: "daybook-example-images-\(getpid())")) }
            return folder.appending(path: "images")
        }()

        /// The repository's example site, with its `language` set to `language`.
        static func example(in language: String) throws -> SiteFixture {
            let fixture = try SiteFixture("")
            let repository = Self.repository
            for name in ["content", "Templates"] {
                try FileManager.default.copyItem(at: repository.appending(path: name), to: fixture.directory.appending(path: name))
            }
            if let images = Self.encodedImages {
                try FileManager.default.createDirectory(at: fixture.directory.appending(path: ".daybook-cache"), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: images, to: fixture.directory.appending(path: ".daybook-cache/images"))
            }
            let settings = try String(contentsOf: repository.appending(path: "site.yml"), encoding: .utf8)
            try fixture.write("site.yml", settings + "language: \(language)\n")
            return fixture
        }

        @Test("the example site in Portuguese, Japanese and Arabic (right to left): home, timeline, a post and the preview, at 390 and 1280 px",
            arguments: ["pt", "ja", "ar"])
        func languages(language: String) async throws {
            let fixture = try Self.example(in: language)
            let served = try await LoopbackSite.start(fixture, now: "2026-11-21T12:00:00Z")
            defer { try? FileManager.default.removeItem(at: fixture.directory) }
            do {
                try await withBrowser(width: 1280) { page in
                    var written: [String] = []
                    for width in [390, 1280] {
                        try await page.resize(width: width, height: 900)
                        for (name, path) in [("home", ""), ("timeline", "timeline/"), ("post", "posts/p08/"), ("journal", "journal/")] {
                            try await page.navigate(served.url(path))
                            #expect(try await page.string("document.documentElement.lang") == language)
                            #expect(try await page.string("getComputedStyle(document.body).direction") == (language == "ar" ? "rtl" : "ltr"))
                            let file = Self.folder.appending(path: "\(language)-\(name)-\(width).png")
                            try await page.screenshot(width: width, to: file)
                            written.append(file.path)
                        }
                        try await page.navigate(served.url("users/marta/"))
                        try await page.click("a[data-preview]")
                        try await page.waitUntil("!!document.querySelector('dialog[data-preview]')?.open", "the preview to open")
                        let file = Self.folder.appending(path: "\(language)-preview-\(width).png")
                        try await page.screenshot(width: width, to: file)
                        written.append(file.path)
                    }
                    print("screenshots:\n" + written.joined(separator: "\n"))
                }
                await served.stop()
            } catch {
                await served.stop()
                throw error
            }
        }

        @Test("search with results and a timeline page with its button, at 390 and 1280 px")
        func searchAndLoadMore() async throws {
            try await withServedSite(SearchSite.archive, now: SearchSite.now) { site, page in
                var written: [String] = []
                for width in [390, 1280] {
                    try await page.resize(width: width, height: 800)
                    try await page.navigate(site.url("search/?q=light"))
                    try await page.waitUntil("document.querySelectorAll('#search-results a').length === 4", "four results")
                    let search = Self.folder.appending(path: "search-\(width).png")
                    try await page.screenshot(width: width, to: search)

                    try await page.navigate(site.url("timeline/"))
                    try await page.waitUntil("!document.querySelector('.load-more').hidden", "the button to show")
                    let timeline = Self.folder.appending(path: "timeline-\(width).png")
                    try await page.screenshot(width: width, to: timeline)

                    for file in [search, timeline] {
                        let size = Self.size(ofPNG: try Data(contentsOf: file))
                        #expect(size?.width == width, "\(file.lastPathComponent)")
                        #expect((size?.height ?? 0) > 300, "\(file.lastPathComponent)")
                        written.append(file.path)
                    }
                }
                print("screenshots:\n" + written.joined(separator: "\n"))
            }
        }
    }
}
