import DaybookRender
import Foundation

/// `<site>/.daybook-cache/links`: the link targets of the Markdown texts of the last
/// `daybook build` (`MarkdownTargets`).
enum MarkdownTargetsFile {
    static let name = "links"

    /// No file larger than this is read: the bench site's targets take about 300 KB.
    static let maxBytes = 256 << 20

    /// The kept targets, or none (empty) when the file is missing, damaged or another
    /// executable's: the build then parses every text and saves what it found.
    static func read(site: URL) -> MarkdownTargets {
        CacheFile.read(site: site, name: name, maxBytes: maxBytes).flatMap { MarkdownTargets(bytes: $0) } ?? MarkdownTargets()
    }

    static func save(_ targets: MarkdownTargets, site: URL) {
        let bytes = targets.bytes
        CacheFile.save(site: site, name: name) { $0(bytes[...]) }
    }
}
