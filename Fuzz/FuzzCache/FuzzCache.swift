import DaybookBuild
import DaybookCheck
import DaybookContent
import DaybookFeed
import DaybookFuzzSupport
import DaybookImages
import DaybookIncremental
import DaybookRender

/// What `<site>/.daybook-cache/` holds: the containers (the memo, and the check's) and the values
/// in them: page facts, the check's file keys, post cards, the pages' facts, a file's records, a
/// check's verdict, the comment orders and the indexes' shape. The first byte picks one; the rest is the value (after
/// the container's magic line), so the fuzzer starts inside the format.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let first = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    switch first % 10 {
    case 9:
        // The memo's build record (`NoChangeRecord`): what it reads back, it writes back the same.
        precondition(NoChangeRecord.readsBack(rest) != false)
    case 8:
        // The memo's photo index: what it reads back, it writes and reads back the same (a path
        // the writer cannot hold on a line, with a carriage return, is left out of both).
        if let index = SourceIndex(text: String(decoding: rest, as: UTF8.self)) {
            precondition(SourceIndex(text: index.text)?.text == index.text)
        }
    case 7:
        // The facts each page read: what it reads back, it writes back the same.
        if let table = PageFactTable(bytes: rest[...]) {
            precondition(PageFactTable(bytes: table.bytes[...]) == table)
        }
    case 6:
        // The incremental layer's memo: every value it reads back, it writes back the same.
        // Appended to, it reads back as the fresh container of the same table.
        let table = MemoTable(container: (MemoContainer.magic + rest)[...])
        let again = MemoTable(container: table.encoded()[...])
        precondition(again.encoded() == table.encoded())
        var bytes = MemoContainer.magic + rest
        table.prepared().appended(at: bytes.count) { bytes += $0 }
        precondition(MemoTable(container: bytes[...]).encoded() == table.encoded())
    case 5:
        // The memo's feeds: the comment orders and the indexes' shape. What each reads back, it
        // writes back the same.
        if let orders = FeedStep.Kept(bytes: rest[...]) {
            precondition(FeedStep.Kept(bytes: orders.bytes[...]) == orders)
        }
        if let shape = SiteIndexes.Shape(bytes: rest[...], postCount: 1_000) {
            precondition(SiteIndexes.Shape(bytes: shape.bytes[...], postCount: 1_000) == shape)
        }
    case 0:
        // The memo's records of one file: what it reads back, it writes back the same.
        if let records = DecodedRecords(bytes: rest[...], path: "content/posts.json") {
            precondition(records.bytes == DecodedRecords(bytes: records.bytes[...], path: "content/posts.json")?.bytes)
        }
    case 4:
        // The memo's verdict of a check: what it reads back, it writes back the same.
        if let dropped = ContentValidator.Dropped(bytes: rest[...]) {
            precondition(ContentValidator.Dropped(bytes: dropped.bytes[...]) == dropped)
        }
    case 1:
        let cache = PageFactsCache(archive: rest)
        precondition(cache.readEveryEntry() >= 0)
    case 3:
        // Read back and written again the same, or refused.
        _ = CardStore.readEveryCard(archive: rest[...])
    default:
        let keys = FileKeys(archive: rest[...])
        // What it reads back, it writes back the same.
        precondition(FileKeys(archive: keys.archive[...]) == keys)
    }
    return 0
}

@main
struct Fuzz {
    static func main() { FuzzEntry.main(fuzzOne) }
}
