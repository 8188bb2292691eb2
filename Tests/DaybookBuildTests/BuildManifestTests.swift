@testable import DaybookBuild
import DaybookFeed
import Testing

@Suite("Build manifest")
struct BuildManifestTests {
    @Test("round-trips paths and ids holding spaces, percent signs and line breaks")
    func roundTrip() {
        let manifest = BuildManifest(
            files: ["a b/index.html": .written(.init(hash: 42, size: 7)), "tags/100%/index.html": .intended],
            lists: ["journal": ListSnapshot(ids: ["x y", "50%", "line\nbreak", "%20"], versions: ["x y": 1, "50%": 2, "line\nbreak": 3, "%20": 4])],
            pageKeys: ["tags/日本/index.html": .max, "a b/index.html": 0, "tags/100%/index.html": 0x0123_4567_89AB_CDEF])
        #expect(BuildManifest(text: manifest.text) == manifest)
        #expect(BuildManifest(text: "\ndaybook-manifest 1\n\np 00000000000000FF a b\n")?.pageKeys == ["a b": 255])
    }

    @Test("the text is sorted, so it is as deterministic as the site")
    func sorted() {
        let manifest = BuildManifest(files: ["b": .written(.init(hash: 1, size: 1)), "a": .written(.init(hash: 255, size: 2))])
        #expect(manifest.text == "daybook-manifest 1\nf 00000000000000ff 2 a\nf 0000000000000001 1 b\n")
    }

    @Test("a foreign or damaged manifest is ignored")
    func damaged() {
        #expect(BuildManifest(text: "hello") == nil)
        for damaged in [
            "", "daybook-manifest 2\n", "daybook-manifest 1\nf zz 1 a\n", "daybook-manifest 1\nf 1  a\n", "daybook-manifest 1\nf 1 x a\n",
            "daybook-manifest 1\np 1ffffffffffffffff a\n", "daybook-manifest 1\ni a 1\n", "daybook-manifest 1\nl a b\n",
            "daybook-manifest 1\nl a\ni a 1 2\n", "daybook-manifest 1\nq 1 a\n", "daybook-manifest 1\nf\n", "daybook-manifest 1\npx 1 a\n",
            "daybook-manifest 1\nf 1 +1 a\n", "daybook-manifest 1\nf 1 1234567890123456789 a\n", "daybook-manifest 1\nf 1 - a\n",
        ] {
            #expect(BuildManifest(text: damaged) == nil, "\(damaged)")
        }
    }

    @Test("a record read back says whether every key's path is a file's, the very string; a key of no file, or spelled with a percent sign, says not")
    func keysAreFiles() throws {
        let entry = BuildManifest.FileRecord.written(.init(hash: 1, size: 1))
        let manifest = BuildManifest(
            files: ["a/index.html": entry, "b.png": entry, "c/index.html": entry, "d.png": entry], pageKeys: ["a/index.html": 1, "c/index.html": 2])
        let parsed = try #require(BuildManifest.Parsed(text: manifest.text))
        #expect(parsed.keysAreFiles)
        #expect(parsed.manifest == manifest)
        for other in [
            BuildManifest(files: manifest.files, pageKeys: manifest.pageKeys.merging(["e/index.html": 3]) { $1 }),
            BuildManifest(files: manifest.files.merging(["100%/index.html": entry]) { $1 }, pageKeys: ["100%/index.html": 4]),
        ] {
            let read = try #require(BuildManifest.Parsed(text: other.text))
            #expect(!read.keysAreFiles)
            #expect(read.manifest == other)
        }
        // The keys after a file out of their order are found all the same, as new strings.
        let swapped = "daybook-manifest 1\nf 0000000000000001 1 b\nf 0000000000000001 1 a\np 0000000000000002 a\np 0000000000000003 b\n"
        let read = try #require(BuildManifest.Parsed(text: swapped))
        #expect(read.manifest.pageKeys == ["a": 2, "b": 3])
        #expect(!read.keysAreFiles)
    }

    @Test("a record read back gives its files in their written order, and no order when they are not in it")
    func pathOrder() {
        let manifest = BuildManifest(
            files: ["b/index.html": .written(.init(hash: 1, size: 1)), "a b/index.html": .intended, "a/index.html": .written(.init(hash: 2, size: 2))],
            pageKeys: ["a/index.html": 3])
        #expect(BuildManifest.Parsed(text: manifest.text)?.pathOrder == ["a b/index.html", "a/index.html", "b/index.html"])
        let swapped = "daybook-manifest 1\nf 0000000000000001 1 b\nf 0000000000000001 1 a\n"
        #expect(BuildManifest.Parsed(text: swapped)?.pathOrder == nil)
        #expect(BuildManifest.Parsed(text: swapped)?.manifest.files.count == 2)
        let repeated = "daybook-manifest 1\nf 0000000000000001 1 a\nf 0000000000000002 1 a\n"
        #expect(BuildManifest.Parsed(text: repeated)?.pathOrder == nil)
    }

    @Test("a given order naming exactly the files is written as it is; one that does not is set aside for a sort")
    func givenOrder() {
        let manifest = BuildManifest(
            files: ["a": .written(.init(hash: 1, size: 1)), "b": .written(.init(hash: 2, size: 2))], pageKeys: ["a": 5, "b": 6])
        #expect(manifest.encoded(pathOrder: ["a", "b"]).bytes == manifest.bytes)
        #expect(manifest.encoded(pathOrder: ["a", "b"]).pathOrder == ["a", "b"])
        // Taken as it is, not sorted again: the order is what saves the sort.
        let taken = String(decoding: manifest.encoded(pathOrder: ["b", "a"]).bytes, as: UTF8.self)
        #expect(taken == "daybook-manifest 1\nf 0000000000000002 2 b\nf 0000000000000001 1 a\np 0000000000000006 b\np 0000000000000005 a\n")
        for unfit in [["a"], ["a", "c"], ["a", "b", "c"], [], ["b"], ["c"]] {
            #expect(manifest.encoded(pathOrder: unfit).bytes == manifest.bytes, "\(unfit)")
            #expect(manifest.encoded(pathOrder: unfit).pathOrder == ["a", "b"], "\(unfit)")
        }
    }

    @Test("after files came and went, an earlier sorted order keeps its places and the new paths are merged in, as a sort would put them")
    func mergedOrder() {
        let paths = ["a b/index.html", "a/index.html", "a/x.html", "b/index.html", "c.html", "z/index.html"]
        let manifest = BuildManifest(files: Dictionary(uniqueKeysWithValues: paths.enumerated().map { ($1, .written(.init(hash: UInt64($0), size: $0))) }))
        for earlier in [
            ["a/index.html", "b/index.html", "gone.html"], ["a b/index.html", "a/x.html", "c.html", "z/index.html"], ["y/index.html"],
            ["a b/index.html", "a/index.html", "a/x.html", "b/index.html", "c.html", "gone/index.html", "z/index.html"],
        ] {
            #expect(manifest.encoded(pathOrder: earlier).pathOrder == paths, "\(earlier)")
            #expect(manifest.encoded(pathOrder: earlier).bytes == manifest.bytes, "\(earlier)")
        }
        // An order out of sort is no help: the paths are sorted whole.
        #expect(manifest.encoded(pathOrder: ["b/index.html", "a/index.html"]).pathOrder == paths)
    }

    @Test("a record patched at the paths that changed is the record written whole, and says where its lines lie as writing or reading it does")
    func patched() throws {
        let entry = { (size: Int) in BuildManifest.FileRecord.written(.init(hash: UInt64(size), size: size)) }
        let paths = ["a b/index.html", "a/index.html", "a/x.png", "b/index.html", "c 100%/index.html", "z/index.html"]
        let before = BuildManifest(
            files: Dictionary(uniqueKeysWithValues: paths.enumerated().map { ($1, entry($0)) }),
            lists: ["journal": ListSnapshot(ids: ["x"], versions: ["x": 1])],
            pageKeys: ["a/index.html": 2, "b/index.html": 3, "z/index.html": 4])
        let encoded = before.encoded(pathOrder: nil)
        #expect(BuildManifest.Parsed(text: before.text)?.lines == encoded.lines)
        #expect(encoded.lines?.keyCount == 3)

        var after = before
        after.files["a/x.png"] = entry(70)
        after.files["z/index.html"] = .intended
        after.pageKeys["b/index.html"] = 30
        after.pageKeys["a/index.html"] = nil
        after.pageKeys["c 100%/index.html"] = 5
        after.pageKeys["a b/index.html"] = 1
        after.lists["journal"] = ListSnapshot(ids: ["y", "x"], versions: ["y": 2, "x": 1])
        // In any order, a path named twice.
        let changed = ["z/index.html", "a/x.png", "b/index.html", "a/index.html", "c 100%/index.html", "b/index.html", "a b/index.html"]
        let patched = try #require(after.encoded(patching: encoded, changed: changed))
        #expect(String(decoding: patched.bytes, as: UTF8.self) == after.text)
        #expect(patched.pathOrder == paths)
        #expect(patched.lines == after.encoded(pathOrder: nil).lines)
        // Patched from a patched record, back to the first.
        let back = try #require(before.encoded(patching: patched, changed: changed))
        #expect(back.bytes == encoded.bytes)
        #expect(back.lines == encoded.lines)
        #expect(before.encoded(patching: encoded, changed: [])?.bytes == encoded.bytes)

        // Refused, for the record to be written whole: a path not among the record's files, a key
        // gained outside the paths named, or no lines known.
        var added = before
        added.files["new.html"] = entry(9)
        #expect(added.encoded(patching: encoded, changed: ["new.html"]) == nil)
        var unsaid = before
        unsaid.pageKeys["a/x.png"] = 8
        #expect(unsaid.encoded(patching: encoded, changed: ["a/index.html"]) == nil)
        var unknown = encoded
        unknown.lines = nil
        #expect(after.encoded(patching: unknown, changed: changed) == nil)
    }

    @Test("a record read back says where its lines lie only when laid out as written: files, then keys of files, in order, then lists")
    func linesRead() {
        let lines = { (text: String) in BuildManifest.Parsed(text: text)?.lines }
        let file = { (path: String) in "f 0000000000000001 1 \(path)\n" }
        let key = { (path: String) in "p 0000000000000002 \(path)\n" }
        let head = "daybook-manifest 1\n"
        #expect(lines(head + file("a") + file("b") + key("b") + "l j\ni x 0000000000000001\n") == BuildManifest.Lines(files: [19, 42, 65], keys: [65, 65, 86], keyCount: 1))
        #expect(lines(head) == BuildManifest.Lines(files: [19], keys: [19], keyCount: 0))
        for outOfLayout in [
            head + file("a") + key("a") + file("b"), head + file("a") + "l j\n" + key("a"), head + file("a") + key("c"),
            head + file("b") + file("a"), head + file("a%20b") + key("a%20b"),
        ] {
            #expect(lines(outOfLayout) == nil, "\(outOfLayout)")
        }
    }
}
