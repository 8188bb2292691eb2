import DaybookFeed
import DaybookModel
import DaybookRender
import Foundation

/// A value kept whole in one file of `<site>/.daybook-cache/` as its own bytes, read back as
/// untrusted input (`init?(bytes:)` refuses what does not read whole) and only when this very
/// executable wrote it (`CacheFile`).
protocol CacheArchive {
    /// The file's name in the cache folder.
    static var cacheName: String { get }
    /// No larger file is read.
    static var maxCacheBytes: Int { get }
    init?(bytes: ArraySlice<UInt8>)
    var bytes: [UInt8] { get }
}

extension CacheFile {
    /// The value kept in `Value.cacheName`, or `nil` when the file is missing, damaged or another
    /// executable's.
    static func read<Value: CacheArchive>(_ type: Value.Type, site: URL) -> Value? {
        read(site: site, name: Value.cacheName, maxBytes: Value.maxCacheBytes).flatMap(Value.init(bytes:))
    }

    @discardableResult
    static func save<Value: CacheArchive>(_ value: Value, site: URL, faults: WriteFaults = .none) -> Diagnostic? {
        let bytes = value.bytes
        return save(site: site, name: Value.cacheName, faults: faults) { $0(bytes[...]) }
    }
}

/// `versions`: each post's page and timeline versions as the last `daybook build` worked them out.
extension KeptVersions: CacheArchive {
    static let cacheName = "versions"
    /// A 100,000-post site's versions take about 3 MB.
    static let maxCacheBytes = 64 << 20
}
