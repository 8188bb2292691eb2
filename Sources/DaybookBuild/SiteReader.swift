import DaybookContent
import DaybookModel
import DaybookRender
import Foundation

/// Reads a site folder into values: the content snapshot and the site's own theme files.
///
/// This is the only place the build reads the site's sources; everything after works on bytes.
public struct SiteReader: Sendable {
    public let siteDirectory: URL

    public init(siteDirectory: URL) { self.siteDirectory = siteDirectory }

    /// Reads `site.yml` and everything under `content/`. Files that cannot be read become diagnostics.
    public func readContent() -> (ContentSnapshot, [Diagnostic]) {
        var snapshot = ContentSnapshot()
        var diagnostics: [Diagnostic] = []
        for path in ["site.yml"] + files(under: "content") {
            if ContentSnapshot.isSource(path) {
                do {
                    snapshot.sources[path] = Array(try Data(contentsOf: siteDirectory.appending(path: path)))
                } catch {
                    if path != "site.yml" || FileManager.default.fileExists(atPath: siteDirectory.appending(path: path).path) {
                        diagnostics.append(.error("cannot read file: \(error.localizedDescription)", at: SourceLocation(path: path)))
                    }
                }
            } else if path.hasPrefix("content/") {
                snapshot.assets.insert(path)
            }
        }
        return (snapshot, diagnostics)
    }

    /// The site's `Templates/` folder as a theme (empty when the site has none).
    public func readTheme() -> (Theme, [Diagnostic]) {
        var theme = Theme()
        var diagnostics: [Diagnostic] = []
        for path in files(under: "Templates") {
            let relative = String(path.dropFirst("Templates/".count))
            guard let data = try? Data(contentsOf: siteDirectory.appending(path: path)) else {
                diagnostics.append(.error("cannot read file", at: SourceLocation(path: path)))
                continue
            }
            if relative.hasSuffix(".mustache") {
                guard let text = String(data: data, encoding: .utf8) else {
                    diagnostics.append(.error("template is not valid UTF-8", at: SourceLocation(path: path)))
                    continue
                }
                theme.templates[String(relative.dropLast(".mustache".count))] = (text, path)
            } else {
                theme.assets[relative] = Array(data)
            }
        }
        return (theme, diagnostics)
    }

    /// Reads a file the content names (an image), by site-relative path.
    public func readAsset(_ path: String) -> [UInt8]? {
        (try? Data(contentsOf: siteDirectory.appending(path: path))).map(Array.init)
    }

    /// Site-relative paths of the regular files below `folder`, sorted; hidden files are skipped.
    func files(under folder: String) -> [String] {
        FileInfo.regularFiles(under: siteDirectory.appending(path: folder).standardizedFileURL.path)
            .map { folder + "/" + $0 }.sorted()
    }
}
