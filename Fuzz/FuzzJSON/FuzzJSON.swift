import DaybookFuzzSupport

/// The JSON reader, through a collection file: the first byte picks the collection and whether
/// the rest is an array file (`content/posts.json`) or a one-item file (`content/posts/x.json`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let (collection, rest) = FuzzEntry.split(bytes)
    let oneItem = (bytes.first ?? 0) & 0x80 != 0
    FuzzEntry.load(path: oneItem ? "content/\(collection)/x.json" : "content/\(collection).json", bytes: rest)
    return 0
}

@main
struct Fuzz {
    static func main() { FuzzEntry.main(fuzzOne) }
}
