import DaybookContent
import DaybookFeed
import DaybookRender
import Foundation

/// Decoded content held in memory by a long-lived process between its builds: `serve` neither
/// reads nor rewrites `.daybook-cache/records` on every save, nor decodes an unchanged file's
/// records again, nor sorts the comments, hashes a post or parses a Markdown text again when they
/// did not change. It starts from that file, so the first preview build is as quick as a
/// `daybook build` after it.
public final class RecordStore: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: RecordCache

    public init(site: URL) {
        stored = RecordCacheFile.read(site: site, maxBytes: 1 << 30)
        stored.keepsDecoded = true
    }

    var cache: RecordCache {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// The last build's comment orders, with what they were made of (`SiteFeeds.Reuse`).
    private var storedFeedsReuse: SiteFeeds.Reuse?

    var feedsReuse: SiteFeeds.Reuse? {
        get { lock.withLock { storedFeedsReuse } }
        set { lock.withLock { storedFeedsReuse = newValue } }
    }

    /// The last build's timeline versions, with what each was made of (`ListVersionMemo`).
    private var storedListMemo: ListVersionMemo?

    var listMemo: ListVersionMemo? {
        get { lock.withLock { storedListMemo } }
        set { lock.withLock { storedListMemo = newValue } }
    }

    /// The last build's Markdown drops, with the link rule they were found by (`MarkdownDropsMemo`).
    private var storedMarkdownMemo: MarkdownDropsMemo?

    var markdownMemo: MarkdownDropsMemo? {
        get { lock.withLock { storedMarkdownMemo } }
        set { lock.withLock { storedMarkdownMemo = newValue } }
    }

    /// The last build's post versions, with what each was made of (`PostVersionMemo`).
    private var storedVersionMemo: PostVersionMemo?

    var versionMemo: PostVersionMemo? {
        get { lock.withLock { storedVersionMemo } }
        set { lock.withLock { storedVersionMemo = newValue } }
    }

    /// The last build record this process wrote or read, with its bytes: the next build reads
    /// the record from the disk as always, and parses it only when the bytes differ.
    private var record: (bytes: [UInt8], manifest: BuildManifest)?

    var lastRecord: (bytes: [UInt8], manifest: BuildManifest)? {
        get { lock.withLock { record } }
        set { lock.withLock { record = newValue } }
    }
}
