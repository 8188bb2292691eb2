import DaybookCheck
import DaybookContent
import DaybookFuzzSupport

/// The two cache archives read from `<site>/.daybook-cache/` (decoded records, page facts). The
/// first byte picks one; the rest follows its magic line, so the fuzzer starts inside the format.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let first = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    if first % 2 == 0 {
        let cache = RecordCache(archive: Array("daybook-records-2\n".utf8) + rest)
        precondition(cache.decodeEveryEntry() >= 0)
    } else {
        let cache = PageFactsCache(archive: Array("daybook-page-facts-2\n".utf8) + rest)
        precondition(cache.readEveryEntry() >= 0)
    }
    return 0
}

@main
struct Fuzz {
    static func main() { FuzzEntry.main(fuzzOne) }
}
