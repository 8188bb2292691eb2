import DaybookContent
import Foundation

/// `<site>/.daybook-cache/records`: the decoded content of the previous build (`RecordCache`).
enum RecordCacheFile {
    static let name = "records"

    /// No archive larger than this is read: four times the sources it encodes, and a margin.
    static func maxBytes(sources: Int) -> Int { 4 * sources + (1 << 20) }

    static func read(site: URL, sourceBytes: Int) -> RecordCache { read(site: site, maxBytes: maxBytes(sources: sourceBytes)) }

    /// With a bound of the caller's, for a reader that has not read the sources yet (`RecordStore`).
    static func read(site: URL, maxBytes: Int) -> RecordCache {
        CacheFile.read(site: site, name: name, maxBytes: maxBytes).map(RecordCache.init(archive:)) ?? RecordCache()
    }

    static func save(_ cache: RecordCache, site: URL) { CacheFile.save(site: site, name: name, cache.writeArchive) }
}
