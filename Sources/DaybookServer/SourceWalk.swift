import DaybookBuild
import Foundation

/// A walk of a folder of the site's sources for the watcher, which must see the folders the
/// build reads (`FileInfo.siteFiles`): hidden names skipped, a symbolic link followed only while
/// its real location is inside the site, and each real folder entered once (by device and
/// inode), so `content/a -> .` ends at once and a link to `/` is never entered.
///
/// Unlike the build's walk it is bounded, since each folder costs the watcher a kernel watch. Like
/// it, it enters no folder the build refuses a link to (the site folder, a hidden folder, an output
/// folder): a watch there would also see the build's own writes, and rebuild for ever. What it
/// leaves out past its bounds, it says (`leftOut`), so the watcher can fall back on rebuilding
/// from the whole site.
struct SourceWalk {
    struct Bounds: Sendable {
        /// Folders below the site folder: far deeper than a site's sources go, and a bound on
        /// what a chain of links inside the site can reach.
        var depth = 64
        /// Folders entered in one walk, and the watcher's watches in all: far more than a site's
        /// sources have, and each watch holds some kernel memory the user cannot swap out.
        var folders = 65_536
    }

    /// The site folder as the paths below it are named (links and all).
    let site: String
    private let realSite: String
    private let realOutput: String?
    let bounds: Bounds
    /// Site-relative paths of the folders entered, the first one included.
    private(set) var folders: [String] = []
    /// Site-relative paths of the regular files, and of links inside the site to regular files.
    private(set) var files: [String] = []
    /// Whether a folder the build may read was not entered: past a bound, or the site or output
    /// folder reached through a link.
    private(set) var leftOut = false

    /// - Parameter output: the output folder, looked up for each walk: it may not exist yet when
    ///   the watcher starts.
    init(site: String, output: String?, bounds: Bounds = Bounds()) {
        self.site = site
        realSite = FileInfo.realPath(site) ?? site
        realOutput = output.flatMap(FileInfo.realPath)
        self.bounds = bounds
    }

    /// Walks the folder at `relative` (site-relative). `enter` is given each folder's real path
    /// and site-relative path before it is listed, so that a watch is in place before the files
    /// are seen; the folder is listed only when it returns true.
    mutating func walk(_ relative: String, enter: (_ real: String, _ relative: String) -> Bool) {
        guard let start = FileInfo.realPath(site + "/" + relative) else { return }
        // Folders entered, by device and inode.
        var seen = Set<FileInfo.Kind>()
        var pending = [(real: start, relative: relative)]
        while let next = pending.popLast() {
            guard let folder = FileInfo.kind(of: next.real), case .folder = folder, isInSite(next.real), seen.insert(folder).inserted else {
                continue
            }
            guard next.relative.split(separator: "/").count <= bounds.depth, seen.count <= bounds.folders else {
                leftOut = true
                continue
            }
            guard enter(next.real, next.relative) else { continue }
            folders.append(next.relative)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: next.real)) ?? [] where !SiteWatcher.isHidden(name) {
                let real = next.real + "/" + name
                let relative = next.relative + "/" + name
                switch FileInfo.kind(of: real) {
                case .folder:
                    pending.append((real, relative))
                case .file:
                    files.append(relative)
                case .link:
                    // What the link names, by its real location; a dangling link names nothing.
                    guard let target = FileInfo.realPath(real) else { continue }
                    switch FileInfo.kind(of: target) {
                    case .folder: pending.append((target, relative))
                    case .file where target.hasPrefix(realSite + "/"): files.append(relative)
                    default: continue
                    }
                default:
                    continue
                }
            }
        }
    }

    /// Whether a folder's real path is one to enter: below the site folder, and none that the
    /// build's walk refuses a link to (`FileInfo.siteFiles`): the site folder, a hidden folder,
    /// the output folder or any folder that holds a build record. The build reads none of them, so
    /// leaving them out leaves nothing unseen.
    private func isInSite(_ real: String) -> Bool {
        guard real.hasPrefix(realSite + "/") else { return false }
        let isOutput = realOutput.map { real == $0 || real.hasPrefix($0 + "/") } ?? false
        let isHidden = real.dropFirst(realSite.count).split(separator: "/").contains { $0.hasPrefix(".") }
        return !isOutput && !isHidden && FileInfo.kind(of: real + "/" + OutputWriter.manifestName) == nil
    }
}
