import DaybookFuzzSupport

/// `site.yml`, read by ConfigReader through the loader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzEntry.load(path: "site.yml", bytes: bytes)
    return 0
}

@main
struct Fuzz {
    static func main() { FuzzEntry.main(fuzzOne) }
}
