import DaybookContent
import Foundation

/// Decoded content held in memory by a long-lived process between its builds: `serve` neither
/// reads nor rewrites `.daybook-cache/records` on every save. It starts from that file, so the
/// first preview build is as quick as a `daybook build` after it.
public final class RecordStore: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: RecordCache

    public init(site: URL) {
        stored = RecordCacheFile.read(site: site, maxBytes: 1 << 30)
    }

    var cache: RecordCache {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// The last build record this process wrote or read, with its bytes: the next build reads
    /// the record from the disk as always, and parses it only when the bytes differ.
    private var record: (bytes: [UInt8], manifest: BuildManifest)?

    var lastRecord: (bytes: [UInt8], manifest: BuildManifest)? {
        get { lock.withLock { record } }
        set { lock.withLock { record = newValue } }
    }
}
