import DaybookBuild
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
        ] {
            #expect(BuildManifest(text: damaged) == nil, "\(damaged)")
        }
    }
}
