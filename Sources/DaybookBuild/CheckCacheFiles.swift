import DaybookCheck
import DaybookModel
import Foundation

/// `<site>/.daybook-cache/check` and `check-files`: the facts of the pages `daybook check` read,
/// and each output file's key by its status, so that the next check reads only what changed.
package enum CheckCacheFiles {
    static let factsName = "check"
    /// The key of each file by its status (`FileKeys`), beside the facts.
    static let filesName = "check-files"
    /// A bound on the cache read back: a million pages' facts fit well under it.
    static let maxBytes = 1 << 30

    /// The saved facts and keys; empty ones when missing, damaged or another executable's.
    package static func read(site: URL) -> PageFactsCache {
        var cache = readFacts(site: site)
        cache.files = readFileKeysArchive(site: site).map(FileKeys.init(archive:)) ?? FileKeys()
        return cache
    }

    /// The saved facts alone (`check`): what a check needs once the output is listed, so that
    /// `daybook check` reads it while it lists (on medium, 39 MB and a tenth of a second each).
    package static func readFacts(site: URL) -> PageFactsCache {
        CacheFile.read(site: site, name: factsName, maxBytes: maxBytes).map(PageFactsCache.init(archive:)) ?? PageFactsCache()
    }

    /// The saved file keys (`check-files`) as stored, for `FileKeys.folders(archive:)` and
    /// `FileKeys.keys(archive:)`: the listing needs the first, the reads the second.
    package static func readFileKeysArchive(site: URL) -> ArraySlice<UInt8>? {
        CacheFile.read(site: site, name: filesName, maxBytes: maxBytes)
    }

    /// Saves what changed, when it is worth writing (`PageFactsCache.worthSaving`); the errors
    /// of the files that could not be written.
    package static func save(_ cache: PageFactsCache, site: URL, faults: WriteFaults = .none) async -> [Diagnostic] {
        // The facts and the files' keys are two files that do not read each other: written at
        // once, each on its own core (a cold check of medium writes 30 MB of them).
        await withTaskGroup(of: Diagnostic?.self) { group in
            group.addTask { cache.worthSaving ? CacheFile.save(site: site, name: factsName, faults: faults, cache.writeArchive) : nil }
            group.addTask {
                cache.filesWorthSaving ? CacheFile.save(site: site, name: filesName, faults: faults) { $0(cache.nextFiles.archive[...]) } : nil
            }
            var failures: [Diagnostic] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures.sorted()
        }
    }
}
