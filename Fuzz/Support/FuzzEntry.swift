import DaybookContent
import Foundation
#if DAYBOOK_LIBFUZZER
import CFuzzDriver
#endif

/// What the fuzz targets share: each turns libFuzzer's bytes into a one-file `ContentSnapshot`
/// and loads it through `ContentLoader.load`, the public entry point the build uses, so the
/// targets follow the readers wherever their internals move.
///
/// Built normally (`swift build`), each target is a small program that loads the files named on
/// its command line the same way, to replay a crash or a corpus without libFuzzer. Built by
/// `scripts/fuzz` with `-D DAYBOOK_LIBFUZZER -sanitize=fuzzer,address`, the same `main` hands
/// control to libFuzzer's driver instead. (SwiftPM renames an executable's entry point and links
/// `main` to it, so libFuzzer's own `main` cannot be the program's: `LLVMFuzzerRunDriver` is the
/// documented way in.)
public enum FuzzEntry {
    /// One fuzz input, as libFuzzer calls a target.
    public typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    /// The program: libFuzzer's driver when built for fuzzing, else the replay of files.
    public static func main(_ callback: Callback) -> Never {
        #if DAYBOOK_LIBFUZZER
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
        #else
        exit(replay(Array(CommandLine.arguments.dropFirst())) { bytes in
            _ = bytes.withUnsafeBufferPointer { callback($0.baseAddress, $0.count) }
        })
        #endif
    }

    /// The collections, in a fixed order, for targets that let the first byte pick one.
    public static let collections = ["prompts", "sent-prompts", "users", "posts", "comments"]

    /// Loads one file; a crash, a trap or a hang here is the finding.
    public static func load(path: String, bytes: [UInt8]) {
        let site = ContentLoader.load(ContentSnapshot(sources: [path: bytes]))
        // Touch the results so nothing is optimised away.
        precondition(site.diagnostics.count >= 0)
    }

    /// The first byte picks a collection; the rest is the file.
    public static func split(_ bytes: [UInt8]) -> (collection: String, rest: [UInt8]) {
        guard let first = bytes.first else { return (collections[0], []) }
        return (collections[Int(first) % collections.count], Array(bytes.dropFirst()))
    }

    /// The replay program: loads each file named on the command line with `target`.
    public static func replay(_ arguments: [String], _ target: ([UInt8]) -> Void) -> Int32 {
        guard !arguments.isEmpty else {
            print("usage: \(CommandLine.arguments.first ?? "fuzz") FILE...  (built for fuzzing by scripts/fuzz)")
            return 64
        }
        for path in arguments {
            guard let bytes = readFile(path) else {
                print("\(path): cannot read the file")
                return 1
            }
            target(bytes)
            print("\(path): loaded \(bytes.count) bytes")
        }
        return 0
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }
}
