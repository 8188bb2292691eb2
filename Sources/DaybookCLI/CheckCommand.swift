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
        if !(SiteConfig.isAbsolute(baseURL) || baseURL.hasPrefix("/")) {
            throw ValidationError("--base-url must be the site's address, such as https://example.org/ or /blog/, found '\(baseURL)'")
        }
    }

    func run() async throws {
        let folder = folders.outputDirectory
        guard SiteOptions.isFolder(folder) else {
            let message = "output folder '\(folders.outputShown)' does not exist; run 'daybook build' first"
            guard format == .json else { throw CommandFailure(message) }
            // Tools that parse the report get one here too: an error, and nothing checked.
            try Self.printJSON(CheckReport(stoppedBy: .error(message, at: SourceLocation(path: folders.outputShown))))
            ProcessEnd.exit(1)
        }
        // The facts of pages checked before, by their bytes, in the site's cache folder; only in a
        // site folder (one with content/): `check` needs nothing but the output, and a folder it
        // merely runs in is left as it was.
        let site = folders.siteDirectory
        let keepsCache = SiteOptions.isFolder(site.appending(path: "content"))
        var start = CheckContainer.start(output: folder, site: keepsCache ? site : nil)
        var report = await SiteChecker(baseURL: baseURL).check(start.source, cache: &start.cache)
        if let cache = start.cache, let kept = start.kept, let failure = CheckContainer.save(cache, over: kept, site: site) {
            // A cache that cannot be saved is an error, as every failed write is (CONTRACT §6).
            report.diagnostics = (report.diagnostics + [failure]).sorted()
        }
        switch format {
        case .json:
            try Self.printJSON(report)
        case .text:
            DiagnosticPrinter.print(report.diagnostics)
            if listExternal { report.externalLinks.forEach { DiagnosticPrinter.printSummary("external \($0)") } }
            DiagnosticPrinter.printSummary(report.summary)
        }
        // Exit here, with the cache and the report still held: the kernel takes the memory back
        // whole, where freeing a check's hundreds of thousands of small allocations one by one
        // took a tenth of a second on a 32,000-page site (clang's -disable-free does the same).
        withExtendedLifetime((start, report)) { ProcessEnd.exit(report.errorCount > 0 ? 1 : 0) }
    }

    static func printJSON(_ report: CheckReport) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = try encoder.encode(report)
        DiagnosticPrinter.printVerbatim(String(decoding: data, as: UTF8.self))
    }
}
