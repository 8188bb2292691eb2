import DaybookContent
import DaybookModel
import Foundation

/// `<site>/.daybook-cache/records`: the decoded content of the previous build (`RecordCache`).
enum RecordCacheFile {
    static let name = "records"

    /// No archive larger than this is read: four times the sources it encodes, and a margin.
    static func maxBytes(sources: Int) -> Int { 4 * sources + (1 << 20) }

    static func read(site: URL, sourceBytes: Int) -> RecordCache { read(site: site, maxBytes: maxBytes(sources: sourceBytes)) }

    /// With a bound of the caller's, for a reader that has not read the sources yet (`RecordStore`).
    static func read(site: URL, maxBytes: Int) -> RecordCache {
        var cache = RecordCache()
        if let read = CacheFile.readWithStatus(site: site, name: name, maxBytes: maxBytes) {
            cache = RecordCache(archive: read.bytes)
            // A damaged archive reads as none, and is written anew rather than added to.
            if !cache.isEmpty { cache.archiveStatus = read.status }
        }
        // Taken only where the files they were made of have the same keys, so whichever build
        // saved them, and whatever became of the records since.
        cache.checksArchive = CacheFile.read(site: site, name: checksName, maxBytes: maxBytes).map(Array.init)
        return cache
    }

    /// `<site>/.daybook-cache/checks`: the checks across records of the build that saved the records.
    static let checksName = "checks"

    /// Saves the load's checks across records when they differ from the ones it was handed.
    static func saveChecks(_ cache: RecordCache, site: URL, faults: WriteFaults = .none) -> Diagnostic? {
        guard cache.checksChanged, let checks = cache.checksArchive else { return nil }
        return CacheFile.save(site: site, name: checksName, faults: faults) { $0(checks[...]) }
    }

    /// Adds the entries the load added to the archive it was read from, while that archive is
    /// at most twice the size of one holding only the load's entries (the rest are of files
    /// since edited or removed); otherwise writes the archive anew.
    static func save(_ cache: RecordCache, site: URL, faults: WriteFaults = .none) -> Diagnostic? {
        if let status = cache.archiveStatus {
            var added: [UInt8] = []
            cache.appendix { added += $0 }
            if Int(status.size) + added.count <= 2 * (CacheFile.identity.count + cache.liveBytes) {
                if let code = faults.failure(at: .cache(name)) { return CacheFile.failure(name, "write", code) }
                if CacheFile.append(added, site: site, name: name, to: status) { return nil }
            }
        }
        return CacheFile.save(site: site, name: name, faults: faults, cache.writeArchive)
    }
}
