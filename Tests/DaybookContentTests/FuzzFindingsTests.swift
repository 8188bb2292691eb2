import DaybookContent
import DaybookModel
import Testing

/// Inputs that crashed a fuzz target (scripts/fuzz), kept as tests; each is also in Fuzz/Corpus.
@Suite("Fuzz findings")
struct FuzzFindingsTests {
    @Test("a mapping whose key is a mapping with a mapping key (site.yml and front matter) is a warning, not a trap")
    func mappingKeyedByMapping() {
        // FuzzConfig, 92,163 executions in: Yams' Node.any traps on `{{g%2}:g%2}` as a key.
        let config = ContentLoader.load(ContentSnapshot(sources: ["site.yml": Array("{{g%2}:g%2}: \n".utf8)]))
        #expect(config.diagnostics.map(\.description) == ["site.yml:1:1: warning: unknown key '{{g%2: }: g%2}'; known keys: baseURL, description, feedSize, hashtags, icon, images, language, pageSize, report, timeZone, timeline, title"])
        let item = "---\n{{a: b}: c}: d\nid: p1\nauthor: a\ncreatedAt: 2026-11-01T00:00:00Z\n---\n"
        let loaded = ContentLoader.load(ContentSnapshot(sources: ["content/posts/p1.md": Array(item.utf8)]))
        #expect(loaded.diagnostics.map(\.description).first
            == "content/posts/p1.md:2:1: warning: unknown key '{{a: b}: c}' in post; known keys: author, caption, createdAt, draft, featured, id, image, imageAlt, lang, location, sensitive, tags, updatedAt")
    }
}
