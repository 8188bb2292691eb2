@testable import DaybookBuild
import DaybookModel
import Testing

/// The build record is read before every build, from a folder anyone can edit: it must read back
/// exactly what was written, and anything else must give no record (and so a full build).
@Suite("No-change record text")
struct NoChangeRecordTests {
    static let record = NoChangeRecord(
        identity: "id|/out|00000", now: 1_795_262_400, validUntil: 1_795_300_000,
        inputs: [
            ("site.yml", FileStatus(size: 12, modified: -5, changed: 1_795_630_248_178_306_558, inode: 8_251_902, device: 65024)),
            ("content/a b%.md", FileStatus(size: 0, modified: 0, changed: 0, inode: UInt64.max, device: 0)),
            ("link-out:content/x", nil),
        ],
        manifest: FileStatus(size: 4, modified: 1, changed: 2, inode: 3, device: 4),
        outputs: [("index.html", 1496), ("tags/caf%C3%A9 x/index.html", 0), ("p/a\nb/index.html", 7)],
        pageCount: 3, imagesReused: 1, baseURL: "https://example.org/a b/", timeZone: "Europe/Oslo",
        diagnostics: [Diagnostic(.warning, "comment 'c' is on a post; which does not exist", at: SourceLocation(path: "content/c.json", line: 3, column: 8))])

    @Test("reads back what it wrote: statuses, paths with spaces, percent signs and line feeds, diagnostics")
    func roundTrip() throws {
        let read = try #require(NoChangeRecord(text: Self.record.text))
        #expect(read == Self.record)
        #expect(read.outputs.map(\.path) == Self.record.outputs.map(\.path))
        #expect(read.outputs.map(\.size) == [1496, 0, 7])
        #expect(read.inputs.map(\.status) == Self.record.inputs.map(\.status))
        #expect(read.inputs[0].status?.modified == -5)
        #expect(read.inputs[1].status?.inode == UInt64.max)
        #expect(read.diagnostics.map(\.description) == Self.record.diagnostics.map(\.description))
    }

    @Test("any line out of shape gives no record", arguments: [
        ("out 1496 index.html", "out x1496 index.html"),
        ("out 1496 index.html", "out -1496x index.html"),
        ("out 1496 index.html", "out 99999999999999999999 index.html"),
        ("out 1496 index.html", "out 1496 ../index.html"),
        ("out 1496 index.html", "out 1496"),
        ("out 1496 index.html", "outs 1496 index.html"),
        ("in 12 -5 ", "in 12 - "),
        ("in 12 -5 ", "in +12 -5 "),
        ("in 0 0 0 18446744073709551615 0", "in 0 0 0 18446744073709551616 0"),
        ("in 0 0 0 18446744073709551615 0 ", "in 0 0 0 18446744073709551615 "),
        ("manifest 4 1 2 3 4", "manifest +4 1 2 3 4"),
        ("manifest 4 1 2 3 4", "manifest 4 1 2 3"),
        ("manifest 4 1 2 3 4", "manifest 4 1 2 3 4 5"),
        ("manifest 4 1 2 3 4", "manifests 4 1 2 3 4"),
        ("d warning 3 8", "d notice 3 8"),
    ])
    func malformed(_ change: (from: String, to: String)) throws {
        let text = Self.record.text
        #expect(text.contains(change.from))
        #expect(NoChangeRecord(text: text.replacing(change.from, with: change.to, maxReplacements: 1)) == nil)
    }

    @Test("the outputs are read only when the record up to them is accepted")
    func proceed() {
        var seen: [String] = []
        #expect(NoChangeRecord(text: Self.record.text, readingOutputsIf: { seen.append($0.identity); return $0.outputs.isEmpty && $0.inputs.count == 3 }) == Self.record)
        #expect(NoChangeRecord(text: Self.record.text, readingOutputsIf: { _ in false }) == nil)
        #expect(seen == ["id|/out|00000"])
    }
}
