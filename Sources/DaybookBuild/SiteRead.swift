import DaybookCheck
import DaybookContent
import DaybookModel
import DaybookRender
import Foundation

/// What a read of the site's sources found, kept by `serve` from one build to the next: when its
/// watcher names every path that changed since, the next read starts from it and reads those
/// paths alone, instead of walking `content/` and looking at every file in it (7,500 on a
/// 20,000-post site, a tenth of a save-to-reload).
///
/// Only a plain site is patched: one whose folders hold no symbolic link (a walk follows a link
/// that stays inside the site and refuses one that leads out, which a named path cannot tell),
/// and whose read found no problem (each is said at its own path, which a patch would have to
/// track). Whatever a patch cannot take as a walk would (a folder, a link, a file that does not
/// read) makes it give up, and the build reads the site whole.
struct SiteRead: Sendable {
    var snapshot: ContentSnapshot
    var theme: Theme
    var diagnostics: [Diagnostic]
    /// Whether patching this read gives what a whole read would.
    var patchable: Bool
}

extension SiteReader {
    /// Reads the content and the theme whole.
    func readSite(reusing memo: SourceFiles?, keys: FileKeys?, listed: Listed? = nil) -> (read: SiteRead, files: SourceFiles?, keys: FileKeys?) {
        let content = readContentFolder(reusing: memo, keys: keys, listed: listed)
        let theme = readThemeFolder()
        let diagnostics = content.diagnostics + theme.diagnostics
        var status = stat()
        let siteFileIsLink = lstat(siteDirectory.path + "/site.yml", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
        let plain = !content.hasLinks && !theme.hasLinks && !siteFileIsLink && content.snapshot.outsideLinks.isEmpty
            && content.snapshot.unreadSources.isEmpty && diagnostics.isEmpty
        let read = SiteRead(snapshot: content.snapshot, theme: theme.theme, diagnostics: diagnostics, patchable: plain)
        return (read, content.files, content.keys)
    }

    /// `last` with the files at `changed` (site-relative) read again, or taken out when they are
    /// gone: what a whole read would give now, provided `changed` names every path that changed
    /// since `last` was read. `nil` when the site must be read whole: `last` is not plain, or a
    /// named path is a folder, a link or a file that does not read, or was a folder, or is
    /// anything but `site.yml` or a path below `content/` or `Templates/`.
    func reread(_ last: SiteRead, changed: [String]) -> SiteRead? {
        guard last.patchable else { return nil }
        var snapshot = last.snapshot
        var theme = last.theme
        var themeChanged = false
        for path in changed {
            if path.hasPrefix("Templates/") {
                themeChanged = true
                continue
            }
            guard path == "site.yml" || path.hasPrefix("content/") else { return nil }
            let full = siteDirectory.path + "/" + path
            var status = stat()
            guard lstat(full, &status) == 0 else {
                guard errno == ENOENT else { return nil }
                // A folder moved away is named alone, not the files in it.
                let below = path + "/"
                if snapshot.assets.contains(where: { $0.hasPrefix(below) }) || snapshot.sources.keys.contains(where: { $0.hasPrefix(below) }) {
                    return nil
                }
                snapshot.sources[path] = nil
                snapshot.contentKeys[path] = nil
                snapshot.assets.remove(path)
                continue
            }
            guard status.st_mode & S_IFMT == S_IFREG else { return nil }
            if ContentSnapshot.isSource(path) {
                // Through no link at all, at the file's name or on its way: a patched read is of a
                // site that held none, and a folder swapped for a link since the look is not followed.
                guard case .success(let read) = FileInfo.read(path, below: siteDirectory.path, maxBytes: maxSourceBytes) else { return nil }
                let bytes = read.bytes
                snapshot.sources[path] = bytes
                snapshot.contentKeys[path] = StableHash.ofContent(bytes)
            } else {
                snapshot.assets.insert(path)
            }
        }
        if themeChanged {
            let read = readThemeFolder()
            guard !read.hasLinks, read.diagnostics.isEmpty else { return nil }
            theme = read.theme
        }
        return SiteRead(snapshot: snapshot, theme: theme, diagnostics: [], patchable: true)
    }
}
