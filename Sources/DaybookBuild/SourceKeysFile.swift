import DaybookCheck
import DaybookModel
import Foundation

/// `<site>/.daybook-cache/sources`: the content key of each source by its status (`FileKeys`, as
/// `daybook check` keeps its pages'), so that `daybook build` reads only the sources whose status
/// changed. The records of the rest come from `.daybook-cache/records` by that key.
enum SourceKeysFile {
    static let name = "sources"
    /// A bound on the archive read back: 7,500 sources take 600 KB.
    static let maxBytes = 256 << 20

    static func read(site: URL) -> FileKeys {
        CacheFile.read(site: site, name: name, maxBytes: maxBytes).map(FileKeys.init(archive:)) ?? FileKeys()
    }

    static func save(_ keys: FileKeys, site: URL, faults: WriteFaults = .none) -> Diagnostic? {
        CacheFile.save(site: site, name: name, faults: faults) { $0(keys.archive[...]) }
    }
}
