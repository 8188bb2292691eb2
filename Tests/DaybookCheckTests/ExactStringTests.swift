@testable import DaybookCheck
import DaybookModel
import Testing

/// The check tells strings apart by their bytes: ids as a browser does, paths as a server's file
/// system does.
@Suite("Strings compared by their bytes")
struct ExactStringTests {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"

    @Test("a string interned again has its first index; strings equal as Unicode but not in bytes have two")
    func bytes() {
        #expect(composed == decomposed, "Swift calls them equal")
        var table = StringTable()
        let (first, second, again) = (table.intern(composed), table.intern(decomposed), table.intern("caf\u{E9}"))
        #expect(first == 0)
        #expect(second == 1)
        #expect(again == 0)
        #expect(table.index(of: decomposed) == 1)
        #expect(table.index(of: "cafe") == nil)
        #expect(table[1].unicodeScalars.count == 5)
    }

    @Test("a table read back holds each string once: two of the same bytes is a damaged archive, two equal as Unicode is not")
    func readBack() {
        #expect(StringTable(strings: ["a", "b", "a"]) == nil)
        let table = StringTable(strings: [composed, decomposed, "b"])
        #expect(table?.index(of: decomposed) == 1)
        #expect(table?.index(of: "b") == 2)
    }

    @Test("a fragment written decomposed does not reach an id written composed, as in a browser")
    func fragment() async {
        let page = """
            <!doctype html><html lang="en"><head><title>Home</title></head>
            <body><p id="\(composed)">x</p><a href="#\(decomposed)">d</a> <a href="#\(composed)">c</a></body></html>
            """
        let report = await SiteChecker(baseURL: "/").check(MemorySource(files: ["index.html": Array(page.utf8)]))
        #expect(report.diagnostics.map(\.description).filter { $0.contains("id '") } == [
            "index.html:2:33: error: link to #\(decomposed): index.html has no element with id '\(decomposed)'"
        ])
    }

    @Test("a link written decomposed does not reach a folder named composed, as on a server's file system")
    func path() async {
        let page = """
            <!doctype html><html lang="en"><head><title>Home</title></head>
            <body><a href="/\(decomposed)/">d</a> <a href="/\(composed)/">c</a></body></html>
            """
        let files = ["index.html": Array(page.utf8), "\(composed)/index.html": Array(page.utf8)]
        let report = await SiteChecker(baseURL: "/").check(MemorySource(files: files))
        #expect(report.diagnostics.map(\.description).filter { $0.contains("resolve") } == [
            "\(composed)/index.html:2:15: error: link to /\(decomposed)/ does not resolve",
            "index.html:2:15: error: link to /\(decomposed)/ does not resolve",
        ])
    }
}
