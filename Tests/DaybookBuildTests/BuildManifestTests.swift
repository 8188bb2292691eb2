import DaybookBuild
import DaybookFeed
import Testing

@Suite("Build manifest")
struct BuildManifestTests {
    @Test("round-trips paths and ids holding spaces, percent signs and line breaks")
    func roundTrip() {
        let manifest = BuildManifest(
            files: ["a b/index.html": .written(.init(hash: 42, size: 7)), "tags/100%/index.html": .intended],
            lists: ["journal": ListSnapshot(ids: ["x y", "50%", "line\nbreak", "%20"], versions: ["x y": 1, "50%": 2, "line\nbreak": 3, "%20": 4])])
        #expect(BuildManifest(text: manifest.text) == manifest)
    }

    @Test("the text is sorted, so it is as deterministic as the site")
    func sorted() {
        let manifest = BuildManifest(files: ["b": .written(.init(hash: 1, size: 1)), "a": .written(.init(hash: 255, size: 2))])
        #expect(manifest.text == "daybook-manifest 1\nf 00000000000000ff 2 a\nf 0000000000000001 1 b\n")
    }

    @Test("a foreign or damaged manifest is ignored")
    func damaged() {
        #expect(BuildManifest(text: "hello") == nil)
        #expect(BuildManifest(text: "daybook-manifest 1\nf zz 1 a\n") == nil)
    }
}
