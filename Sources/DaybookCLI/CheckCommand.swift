import ArgumentParser
import DaybookBuild
import DaybookCheck
import DaybookModel
import Foundation

/// `daybook check`: proves a built output folder sound, for CI. It needs only the folder.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a built site: links, fragments, pages, feeds and the sitemap.",
        discussion: """
            Every internal href, src and srcset must resolve to a file (x/ is x/index.html) and every \
            #fragment to an element id; pages must parse as HTML5 with one non-empty <title>, unique ids \
            and alt text on images; feeds and the sitemap must be well-formed, the sitemap listing \
            exactly the pages. External links are listed, never fetched. Exits non-zero on any error.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    @OptionGroup var folders: SiteOptions

    @Option(name: .long, help: "The site's published address (default: read from the feeds or the sitemap).")
    var baseURL: String?

    @Option(name: .long, help: "text (default) or json.")
    var format: Format = .text

    @Flag(name: .long, help: "Also print every external link found.")
    var listExternal = false

    /// A usage error (exit 64) for a `--base-url` that is neither an http(s) address nor a path
    /// from the root, as `site.yml`'s `baseURL` must be: with it, every link would be judged
    /// against nothing, and thousands of errors would hide the one mistake.
    func validate() throws {
        guard let baseURL else { return }
        let isAddress = ["http://", "https://"].contains { baseURL.hasPrefix($0) && baseURL.count > $0.count }
        if !(isAddress || baseURL.hasPrefix("/")) {
            throw ValidationError("--base-url must be the site's address, such as https://example.org/ or /blog/, found '\(baseURL)'")
        }
    }

    static let cacheName = "check"
    /// The key of each file by its status (`FileKeys`), beside the facts.
    static let filesName = "check-files"
    /// A bound on the cache read back: a million pages' facts fit well under it.
    static let maxCacheBytes = 1 << 30

    func run() async throws {
        let folder = folders.outputDirectory
        guard SiteOptions.isFolder(folder) else {
            throw CommandFailure("output folder '\(folders.outputShown)' does not exist; run 'daybook build' first")
        }
        // The facts of pages checked before, by their bytes, in the site's cache folder; only in a
        // site folder (one with content/): `check` needs nothing but the output, and a folder it
        // merely runs in is left as it was.
        let site = folders.siteDirectory
        var cache: PageFactsCache? =
            SiteOptions.isFolder(site.appending(path: "content"))
            ? CacheFile.read(site: site, name: Self.cacheName, maxBytes: Self.maxCacheBytes).map(PageFactsCache.init(archive:))
                ?? PageFactsCache()
            : nil
        let startedAt = FileInfo.realtimeNanoseconds()
        if cache != nil {
            cache?.files = CacheFile.read(site: site, name: Self.filesName, maxBytes: Self.maxCacheBytes).map(FileKeys.init(archive:)) ?? FileKeys()
        }
        let source = FolderSource(directory: folder, reusing: cache?.files.folders ?? FolderListings(), at: startedAt)
        cache?.start(at: startedAt, folders: source.listings)
        let report = await SiteChecker(baseURL: baseURL).check(source, cache: &cache)
        if let cache {
            // The facts and the files' keys are two files that do not read each other: written at
            // once, each on its own core (a cold check of medium writes 30 MB of them).
            await withTaskGroup(of: Void.self) { group in
                group.addTask { if cache.changed { CacheFile.save(site: site, name: Self.cacheName, cache.writeArchive) } }
                group.addTask { if cache.filesChanged { CacheFile.save(site: site, name: Self.filesName) { $0(cache.nextFiles.archive[...]) } } }
            }
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            let data = try encoder.encode(report)
            DiagnosticPrinter.printVerbatim(String(decoding: data, as: UTF8.self))
        case .text:
            DiagnosticPrinter.print(report.diagnostics)
            if listExternal { report.externalLinks.forEach { DiagnosticPrinter.printSummary("external \($0)") } }
            DiagnosticPrinter.printSummary(report.summary)
        }
        // Exit here, with the cache and the report still held: the kernel takes the memory back
        // whole, where freeing a check's hundreds of thousands of small allocations one by one
        // took a tenth of a second on a 32,000-page site (clang's -disable-free does the same).
        withExtendedLifetime((cache, report)) { ProcessEnd.exit(report.errorCount > 0 ? 1 : 0) }
    }
}
