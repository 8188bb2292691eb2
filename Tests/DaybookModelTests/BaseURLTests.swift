import DaybookModel
import Testing

/// One rule for "an absolute base URL" (`SiteConfig.isAbsolute`): the feeds' absolute URLs, the
/// build's warning when they cannot be made, and `daybook check --base-url` all ask it.
@Suite("Base URL")
struct BaseURLTests {
    @Test("http or https, then a host: absolute; a path, a scheme alone or another scheme: not")
    func absolute() {
        for address in ["https://example.org/", "http://example.org/blog/", "https://localhost:8080/"] {
            #expect(SiteConfig.isAbsolute(address), "\(address)")
        }
        for other in ["/", "/blog/", "https://", "https:///blog/", "ftp://example.org/", "example.org/", "HTTPS://example.org/", ""] {
            #expect(!SiteConfig.isAbsolute(other), "\(other)")
        }
    }
}
