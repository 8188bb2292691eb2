import DaybookFuzzSupport

/// Front matter and YAML: a Markdown item (`content/<collection>/x.md`); the first byte picks the collection.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let (collection, rest) = FuzzEntry.split(bytes)
    FuzzEntry.load(path: "content/\(collection)/x.md", bytes: rest)
    return 0
}

@main
struct Fuzz {
    static func main() { FuzzEntry.main(fuzzOne) }
}
