import DaybookCheck
import DaybookContent
import DaybookModel
import DaybookParallel
import DaybookRender
import Foundation

/// Reads a site folder into values: the content snapshot and the site's own theme files.
///
/// This is the only place the build reads the site's sources; everything after works on bytes.
package struct SiteReader: Sendable {
    package let siteDirectory: URL

    /// The largest source file read (a JSON list, a Markdown item, site.yml): a bound on what an
    /// untrusted folder makes the build hold in memory, far above any real file (a 100,000-post
    /// site's comments.json is about 100 MB).
    package var maxSourceBytes = 512 << 20
    /// Every file of the site is read through it, so none is read through a link out of the site,
    /// even one swapped in after the walk.
    let folder: ConfinedFolder

    package init(siteDirectory: URL) {
        self.siteDirectory = siteDirectory
        folder = ConfinedFolder(path: siteDirectory.standardizedFileURL.path)
    }

    /// Reads `site.yml` and everything under `content/`. Files that cannot be read become diagnostics.
    ///
    /// Symbolic links are followed only while they stay inside the site folder; those that lead out
    /// are listed in `outsideLinks` and never read (CONTRACT §2), and each folder is entered once, so
    /// a link loop (`ln -s . content/images/a`) or a link to `/` costs nothing.
    package func readContent() -> (ContentSnapshot, [Diagnostic]) {
        let (snapshot, diagnostics, _, _) = readContent(reusing: nil)
        return (snapshot, diagnostics)
    }

    /// Reads as `readContent()` does; given the files of an earlier read (`serve` keeps them), a
    /// source whose status is unchanged is not read again (on a 20,000-post site a save reads one
    /// file instead of 54 MB), and every source's content key comes with the snapshot.
    /// - Parameter keys: the content keys of an earlier read by status (`daybook build` keeps
    ///   them in its memo, `SourceKeysStep`): a source whose status is unchanged is left unread,
    ///   with its key (`ContentSnapshot.unreadSources`); `site.yml` is always read.
    /// - Returns: also the files of this read, for the next, when `memo` was given, and the keys
    ///   of this read when `keys` was.
    package func readContent(reusing memo: SourceFiles?, keys: FileKeys? = nil) -> (ContentSnapshot, [Diagnostic], SourceFiles?, FileKeys?) {
        let read = readContentFolder(reusing: memo, keys: keys)
        return (read.snapshot, read.diagnostics, read.files, read.keys)
    }

    /// What `readContent(reusing:keys:)` gives, and whether `content/` held a symbolic link.
    struct ContentRead {
        var snapshot: ContentSnapshot
        var diagnostics: [Diagnostic]
        var files: SourceFiles?
        var keys: FileKeys?
        var hasLinks: Bool
    }

    /// What a walk of `content/` found (`siteFiles(under:)`), with each file's status as taken
    /// then (links followed), for a read that follows it.
    struct Listed: Sendable {
        var walk: FileInfo.SiteFiles
        var statuses: [String: FileStatus]
        /// When the listing started (nanoseconds since 1970).
        var takenAt: Int64 = 0
    }

    /// - Parameter listed: the walk of `content/` that `daybook build` made to compare the
    ///   inputs with its last build's: taken instead of walking and looking at every file again
    ///   (7,500 on a 20,000-post site, a third of the read). A source whose listed status has a
    ///   stored key is taken as the walk saw it, as if read then; any other is read as it is now.
    ///   Either way the build's record holds the listed statuses, so the next build sees an edit
    ///   made since.
    func readContentFolder(reusing memo: SourceFiles?, keys: FileKeys? = nil, listed: Listed? = nil) -> ContentRead {
        var snapshot = ContentSnapshot()
        var diagnostics: [Diagnostic] = []
        let walk = listed?.walk ?? siteFiles(under: "content")
        let hasLinks = walk.hasLinks
        snapshot.outsideLinks = Set(walk.outsideLinks)
        diagnostics += Self.walkErrors(walk, of: "content")
        var paths = walk.files
        if FileManager.default.fileExists(atPath: siteDirectory.appending(path: "site.yml").path),
            !FileInfo.isInside(siteDirectory.appending(path: "site.yml").path, root: siteDirectory.path)
        {
            snapshot.outsideLinks.insert("site.yml")
        } else {
            paths.insert("site.yml", at: 0)
        }
        let sources = paths.filter(ContentSnapshot.isSource)
        let root = siteDirectory.path
        let limit = maxSourceBytes
        // Statuses from a listing were taken when it started.
        let takenAt = listed?.takenAt ?? FileInfo.realtimeNanoseconds()
        // Read on all cores: a 20,000-post site has 7,500 source files.
        let read = Parallel.mapBlocking(sources) { path -> Result<Found, FileInfo.ReadFailure> in
            let full = root + "/" + path
            if let keys, path != "site.yml", let status = listed?.statuses[path] ?? FileStatus(path: full), status.size <= limit,
                let key = keys.key(path, status: status)
            {
                return .success(.unread(key: key, status: status))
            }
            if let memo, let status = FileStatus(path: full), let file = memo.value(path, status: status) { return .success(.read(file, status)) }
            // Without a memo or keys to keep, neither the status nor the key is wanted.
            let keeps = memo != nil || keys != nil
            return folder.read(path, maxBytes: limit).map { read in
                .read(SourceFile(bytes: read.bytes, key: keeps ? StableHash.ofContent(read.bytes) : nil), keeps ? read.status : nil)
            }
        }
        var files = memo.map { _ in SourceFiles(takenAt: takenAt) }
        files?.entries.reserveCapacity(sources.count)
        var nextKeys = keys.map { _ in FileKeys(checkedAt: takenAt) }
        snapshot.sources.reserveCapacity(sources.count)
        if memo != nil || keys != nil { snapshot.contentKeys.reserveCapacity(sources.count) }
        for (path, result) in zip(sources, read) {
            switch result {
            case .success(.read(let file, let status)):
                snapshot.sources[path] = file.bytes
                if let key = file.key {
                    snapshot.contentKeys[path] = key
                    if let status { nextKeys?.set(path, status: status, key: key) }
                }
                if let status { files?.set(path, status: status, value: file) }
            case .success(.unread(let key, let status)):
                snapshot.unreadSources.insert(path)
                snapshot.unreadBytes += Int(status.size)
                snapshot.contentKeys[path] = key
                nextKeys?.set(path, status: status, key: key)
            case .failure(.tooLarge(let size, _)):
                diagnostics.append(.error(
                    "the file is \(size.grouped) bytes, over the limit of \(limit.grouped) for one source file; split it",
                    at: SourceLocation(path: path)))
            case .failure(.unreadable(let reason)):
                if path != "site.yml" || FileManager.default.fileExists(atPath: siteDirectory.appending(path: path).path) {
                    diagnostics.append(.error("cannot read file: \(reason)", at: SourceLocation(path: path)))
                }
            }
        }
        if !snapshot.unreadSources.isEmpty {
            snapshot.readSource = { [folder] path in try? folder.read(path, maxBytes: limit).get().bytes }
        }
        for path in paths where !ContentSnapshot.isSource(path) && path.hasPrefix("content/") { snapshot.assets.insert(path) }
        return ContentRead(snapshot: snapshot, diagnostics: diagnostics, files: files, keys: nextKeys, hasLinks: hasLinks)
    }

    /// One source as `readContent` found it: read, or known by its status alone.
    private enum Found: Sendable {
        case read(SourceFile, FileStatus?)
        case unread(key: UInt64, status: FileStatus)
    }

    /// A source file as read, with its content key (`StableHash.ofContent`) when known.
    package struct SourceFile: Sendable {
        package var bytes: [UInt8]
        package var key: UInt64?

        package init(bytes: [UInt8], key: UInt64?) { (self.bytes, self.key) = (bytes, key) }
    }

    /// Source files by site-relative path, each with the status it was read at.
    package typealias SourceFiles = StatusMemo<SourceFile>

    /// The site's `Templates/` folder as a theme (empty when the site has none).
    package func readTheme() -> (Theme, [Diagnostic]) {
        let read = readThemeFolder()
        return (read.theme, read.diagnostics)
    }

    /// What `readTheme()` gives, and whether `Templates/` held a symbolic link.
    func readThemeFolder() -> (theme: Theme, diagnostics: [Diagnostic], hasLinks: Bool) {
        var theme = Theme()
        var diagnostics: [Diagnostic] = []
        let walk = siteFiles(under: "Templates")
        let (templateFiles, hasLinks) = (walk.files, walk.hasLinks)
        diagnostics += Self.walkErrors(walk, of: "Templates")
        for link in walk.outsideLinks {
            diagnostics.append(
                .error("'\(link)' is a symbolic link to a place outside the site folder; it is not read: replace it with the file itself", at: SourceLocation(path: link)))
        }
        for path in templateFiles {
            let relative = String(path.dropFirst("Templates/".count))
            let data: [UInt8]
            switch folder.read(path, maxBytes: maxSourceBytes) {
            case .success(let read):
                data = read.bytes
            case .failure(.tooLarge(let size, let limit)):
                diagnostics.append(.error(
                    "the file is \(size.grouped) bytes, over the limit of \(limit.grouped) for one theme file; make it smaller",
                    at: SourceLocation(path: path)))
                continue
            case .failure(.unreadable(let reason)):
                diagnostics.append(.error("cannot read file: \(reason)", at: SourceLocation(path: path)))
                continue
            }
            if !theme.add(relative, bytes: data, path: path) {
                diagnostics.append(.error("template is not valid UTF-8", at: SourceLocation(path: path)))
            }
        }
        return (theme, diagnostics, hasLinks)
    }

    /// Reads a file under `content/` to publish (an image), by site-relative path, up to
    /// `maxSourceBytes`; a failure when it cannot be read or leads outside the site folder.
    package func readAsset(_ path: String) -> Result<[UInt8], FileInfo.ReadFailure> {
        folder.read(path, maxBytes: maxSourceBytes).map(\.bytes)
    }

    /// Site-relative paths of the regular files below `folder`, sorted, and of the links that lead
    /// out of the site (`folder` itself when it is one); hidden files are skipped. Also whether the
    /// walk met a link at all, which a read patched by named paths cannot follow as it does.
    func siteFiles(under folder: String) -> FileInfo.SiteFiles {
        var listing = FileInfo.siteFiles(
            under: siteDirectory.appending(path: folder).standardizedFileURL.path, root: siteDirectory.standardizedFileURL.path)
        func named(_ links: [String]) -> [String] { links.map { $0.isEmpty ? folder : folder + "/" + $0 }.sorted() }
        listing.files = listing.files.map { folder + "/" + $0 }.sorted()
        listing.outsideLinks = named(listing.outsideLinks)
        listing.refusedLinks = named(listing.refusedLinks)
        listing.outputFolders = named(listing.outputFolders)
        return listing
    }

    /// The errors of a walk of `folder` besides its links out of the site: the links inside it
    /// that are not followed, and a walk its bounds stopped.
    static func walkErrors(_ walk: FileInfo.SiteFiles, of folder: String) -> [Diagnostic] {
        var errors: [Diagnostic] = walk.refusedLinks.map { link in
            .error(
                "'\(link)' is a symbolic link to the site folder, a folder that holds it, a hidden folder or an output folder; it is not read, lest the build publish its own files again: link to the folder you mean instead",
                at: SourceLocation(path: link))
        }
        errors += walk.outputFolders.map { output in
            .error(
                "'\(output)' holds a build record (\(OutputWriter.manifestName)): it is an output folder, which the build does not publish again; move it out of \(folder)/",
                at: SourceLocation(path: output))
        }
        if walk.isCut {
            errors.append(.error(
                "\(folder)/ holds more than \(FileInfo.SiteFiles.maxNames.grouped) names, or folders more than \(FileInfo.SiteFiles.maxDepth) deep; the build does not read past them: move what the site does not publish out of \(folder)/",
                at: SourceLocation(path: folder)))
        }
        return errors
    }
}
