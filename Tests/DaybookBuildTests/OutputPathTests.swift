@testable import DaybookBuild
import Testing

/// Every output path, and every path the build record names, passes this check before any
/// file is touched; it runs on bytes, once per path per build.
@Suite("Output paths")
struct OutputPathTests {
    @Test("the output folder cuts a path into the names split(separator:) gives")
    func names() {
        for path in ["", "/", "a", "a/b/index.html", "a//b", "/a/", "//", "日本/ü x/index.html", "posts/001gqjdc/index.html", ".daybook-tmp/3"] {
            #expect(OutputFolder.names(path) == path.split(separator: "/").map(String.init), "\(path)")
        }
    }

    @Test("plain paths are names joined by single slashes, none empty, '.' or '..', no NUL")
    func plain() {
        for path in ["a", "a/b/index.html", "...", "a/.../b", ".well-known/x", "a../b", "日本/index.html", "a b/c%20d"] {
            #expect(OutputPath.isPlain(path), "\(path)")
        }
        for path in ["", "/", "/a", "a/", "a//b", ".", "..", "a/./b", "a/../b", "../a", "a/..", "a\0b", "./"] {
            #expect(!OutputPath.isPlain(path), "\(path)")
        }
    }

    @Test("the first name over 255 bytes, and a path over 4,095 bytes under the root, are named")
    func limits() {
        let long = String(repeating: "é", count: 128)  // 256 bytes
        #expect(OutputPath.problem("a/\(long)/b", rootBytes: 5) == .nameTooLong(bytes: 256))
        #expect(OutputPath.problem("a/\(String(repeating: "x", count: 255))", rootBytes: 5) == nil)
        let deep = Array(repeating: String(repeating: "x", count: 200), count: 20).joined(separator: "/")
        #expect(OutputPath.problem(deep, rootBytes: 100) == .pathTooLong(bytes: 100 + 1 + deep.utf8.count))
        #expect(OutputPath.problem("a//b", rootBytes: 1) == .unsafePath)
    }
}
