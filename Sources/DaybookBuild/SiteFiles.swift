import DaybookModel
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension FileInfo {
    /// The files below `folder` that a build may read: regular files, following symbolic links only
    /// while they stay inside `root` (their real location, by `realpath`), and entering each folder
    /// once (by device and inode), so a link loop ends. Links that lead out of `root` (to a file or
    /// a folder) are listed apart, relative to `folder`, and never read.
    ///
    /// A link inside the site is not followed either when it leads to a folder that holds the
    /// walked one (`content/b -> ..`, the site folder), to a hidden folder (`.daybook-cache`), or to
    /// an output folder (one that holds a build record, or `excluding`): the build would publish
    /// its own output, its caches or its sources again, one level deeper with every build. Those
    /// are listed apart too (`refusedLinks`). So is a real folder below the walked one that holds a
    /// build record (`outputFolders`): an output folder copied into `content/` is not published
    /// again.
    ///
    /// This one walk decides both what the build reads and what `serve`'s watcher watches (it
    /// passes `enter`, which places a folder's watch before the folder is listed), so the two
    /// cannot disagree on which folders make up the site; when they were two walks, they did.
    /// - Parameters:
    ///   - bounds: an untrusted folder may hold millions of names, or folders nested until the
    ///     path is 4 KB long; what a bound leaves out, the walk says (`isCut`).
    ///   - excluding: a folder never entered, even through a link: the output folder `serve`
    ///     writes, before its first build has put a record in it.
    ///   - enter: given each folder's real path and its path relative to `folder` (`""` for
    ///     `folder`) before it is listed; the folder is listed only when it returns true.
    /// - Returns: also whether the walk met a symbolic link at all, inside the site or out.
    ///   The folder itself may be such a link (`content` → elsewhere): then it is the one link out,
    ///   as `""`, and nothing below it is listed.
    package static func siteFiles(
        under folder: String, root: String, bounds: SiteFiles.Bounds = SiteFiles.Bounds(), excluding: String? = nil,
        enter: (_ real: String, _ relative: String) -> Bool = { _, _ in true }
    ) -> SiteFiles {
        let realRoot = realPath(root) ?? root
        var status = stat()
        let folderIsLink = lstat(folder, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
        if folderIsLink {
            // A dangling link names nothing; one that leads out is not entered.
            guard stat(folder, &status) == 0 else { return SiteFiles(hasLinks: true) }
            guard isInside(folder, root: realRoot) else { return SiteFiles(outsideLinks: [""], hasLinks: true) }
        }
        guard let realFolder = realPath(folder) else { return SiteFiles(hasLinks: folderIsLink) }
        var listing = Listing(realFolder: realFolder, root: realRoot, bounds: bounds, excluding: excluding.flatMap(realPath))
        if listing.refuses(realFolder) { return SiteFiles(refusedLinks: [""], hasLinks: true) }
        listing.walk(folder, real: realFolder, prefix: "", depth: 0, enter: enter)
        return SiteFiles(
            files: listing.files, folders: listing.folders, outsideLinks: listing.outside, refusedLinks: listing.refused,
            outputFolders: listing.outputs, hasLinks: listing.hasLinks || folderIsLink, isCut: listing.isCut)
    }

    /// What a walk of a site's folder found (`siteFiles(under:root:)`), its paths relative to the folder.
    package struct SiteFiles: Sendable {
        /// The regular files, links inside the site included.
        package var files: [String] = []
        /// The folders entered, the walked one as `""`, those reached through a link by the link's path.
        package var folders: [String] = []
        /// Links whose real location is outside the site, never read.
        package var outsideLinks: [String] = []
        /// Links inside the site that are not followed: to the site folder or one holding the
        /// walked folder, to a hidden folder, or to an output folder.
        package var refusedLinks: [String] = []
        /// Real folders that hold a build record: output folders, not entered.
        package var outputFolders: [String] = []
        /// Whether the walk met a symbolic link at all.
        package var hasLinks = false
        /// Whether the walk stopped at a bound, leaving names or folders unlisted.
        package var isCut = false

        /// Far more names than a site has (a 100,000-post site has about 40,000 sources and
        /// photos), and far fewer than would fill memory with paths.
        package static let maxNames = 1_000_000
        /// Folders below the walked one: far deeper than a site's sources go, and a bound on the
        /// recursion of the walk.
        package static let maxDepth = 64

        package struct Bounds: Sendable {
            /// Names listed, files and folders.
            package var names = SiteFiles.maxNames
            /// Folders below the walked one.
            package var depth = SiteFiles.maxDepth
            /// Folders entered: no bound for the build, which holds nothing per folder; the
            /// watcher holds a kernel watch per folder.
            package var folders = Int.max

            package init(names: Int = SiteFiles.maxNames, depth: Int = SiteFiles.maxDepth, folders: Int = .max) {
                self.names = names
                self.depth = depth
                self.folders = folders
            }
        }
    }

    /// Lists regular files with readdir: FileManager's enumerator with resource values costs about
    /// 0.2 ms a file, which on a 30,000-page site is most of a check. Names `SiteFileName.isPassedOver` are skipped.
    private struct Listing {
        /// The site folder's real location: links are followed while theirs stays inside it.
        let root: String
        let bounds: SiteFiles.Bounds
        /// The real location of a folder never entered (`siteFiles(excluding:)`).
        let excluding: String?
        var files: [String] = []
        var folders: [String] = []
        var outside: [String] = []
        /// Links inside `root` to folders that are not followed (`siteFiles(under:root:)`).
        var refused: [String] = []
        /// Real folders holding a build record, not entered.
        var outputs: [String] = []
        var hasLinks = false
        /// Whether a bound stopped the walk.
        var isCut = false
        private var names = 0
        private var seen = Set<FolderIdentity>()
        /// The walked folder's real location: links to a folder holding it are refused.
        private let realFolder: String

        init(realFolder: String, root: String, bounds: SiteFiles.Bounds, excluding: String?) {
            self.realFolder = realFolder
            self.root = root
            self.bounds = bounds
            self.excluding = excluding
        }

        /// Whether a link to the folder whose real location is `real` is refused: a folder that
        /// holds the walked one, one below the root that the walk would pass over by name
        /// (hidden, such as `.daybook-cache`), or an output folder.
        func refuses(_ real: String) -> Bool {
            if realFolder != real, FileInfo.contains(real, realFolder) { return true }
            if let excluding, FileInfo.contains(excluding, real) { return true }
            let below = real.dropFirst(root.count).split(separator: "/")
            if below.contains(where: SiteFileName.isPassedOver) { return true }
            var info = stat()
            return lstat(real + "/" + OutputWriter.manifestName, &info) == 0
        }

        private struct FolderIdentity: Hashable {
            var device: UInt64
            var inode: UInt64

            init(_ info: stat) {
                device = UInt64(info.st_dev)
                inode = UInt64(info.st_ino)
            }
        }

        /// Walks the folder at `path` (as named, links and all), whose real location is `real`.
        mutating func walk(_ path: String, real: String, prefix: String, depth: Int, enter: (String, String) -> Bool) {
            var info = stat()
            guard stat(path, &info) == 0, !seen.contains(FolderIdentity(info)) else { return }
            guard depth <= bounds.depth, seen.count < bounds.folders else {
                isCut = true
                return
            }
            seen.insert(FolderIdentity(info))
            let relative = prefix.isEmpty ? "" : String(prefix.dropLast())
            guard enter(real, relative), let stream = opendir(path) else { return }
            defer { closedir(stream) }
            folders.append(relative)
            while let entry = readdir(stream) {
                let name = FileInfo.entryName(entry)
                guard !SiteFileName.isPassedOver(name) else { continue }
                names += 1
                guard names <= bounds.names else {
                    isCut = true
                    return
                }
                let full = path + "/" + name
                var kind = entry.pointee.d_type
                if kind == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    guard lstat(full, &info) == 0 else { continue }
                    let format = info.st_mode & S_IFMT
                    kind = format == S_IFDIR ? UInt8(DT_DIR) : format == S_IFREG ? UInt8(DT_REG) : format == S_IFLNK ? UInt8(DT_LNK) : 0
                }
                var realChild = real + "/" + name
                if kind == UInt8(DT_LNK) {
                    hasLinks = true
                    var info = stat()
                    guard stat(full, &info) == 0 else { continue }  // a dangling link names nothing
                    let format = info.st_mode & S_IFMT
                    // Resolved once: whether it stays inside the site, and where it leads.
                    guard let resolved = FileInfo.realPath(full), FileInfo.contains(root, resolved) else {
                        outside.append(prefix + name)
                        continue
                    }
                    if format == S_IFDIR, refuses(resolved) {
                        refused.append(prefix + name)
                        continue
                    }
                    realChild = resolved
                    kind = format == S_IFDIR ? UInt8(DT_DIR) : format == S_IFREG ? UInt8(DT_REG) : 0
                }
                if kind == UInt8(DT_DIR) {
                    // A folder reached through a link was checked above (`refuses`).
                    var record = stat()
                    if entry.pointee.d_type != UInt8(DT_LNK), lstat(full + "/" + OutputWriter.manifestName, &record) == 0 {
                        outputs.append(prefix + name)
                        continue
                    }
                    if entry.pointee.d_type != UInt8(DT_LNK), let excluding, realChild == excluding { continue }
                    walk(full, real: realChild, prefix: prefix + name + "/", depth: depth + 1, enter: enter)
                } else if kind == UInt8(DT_REG) {
                    files.append(prefix + name)
                }
            }
        }
    }
}
