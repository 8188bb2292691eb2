import DaybookBuild
import DaybookModel
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reports changes to a site's sources: `content/`, `Templates/` and `site.yml`.
///
/// inotify on Linux (one watch per folder, added as folders appear); where inotify is not
/// available, a poll of modification times and sizes. Both see the folders the build reads, by a
/// bounded walk, the build's own (`walk`). The output folder is never watched, so a build cannot trigger
/// itself. Editor droppings (`.swp`, `~`, dot files) are ignored.
package final class SiteWatcher: Sendable {
    package let siteDirectory: URL
    package let outputDirectory: URL
    private let pollInterval: Duration

    /// - Parameter outputDirectory: `<site>/output` when not given, as the command line's default.
    package init(siteDirectory: URL, outputDirectory: URL? = nil, pollInterval: Duration = .milliseconds(500)) {
        self.siteDirectory = siteDirectory.standardizedFileURL
        self.outputDirectory = (outputDirectory ?? siteDirectory.appending(path: "output")).standardizedFileURL
        self.pollInterval = pollInterval
    }

    static let watchedRoots = ["content", "Templates"]

    /// Whether a changed path calls for a rebuild: not one the build's walk passes over, such as
    /// an editor's backup or swap file (`SiteFileName.isPassedOver`), which the watcher names too.
    static func matters(_ path: String) -> Bool {
        !SiteFileName.isPassedOver(path.split(separator: "/").last ?? Substring(path))
    }

    /// Hidden names, which the build skips as a folder walk does.
    static func isHidden(_ name: String) -> Bool { name.hasPrefix(".") }

    /// The build's bounds, and a bound on folders: each costs the watcher a kernel watch, which
    /// holds memory the user cannot swap out. 65,536 is far more than a site's sources have.
    static let bounds = FileInfo.SiteFiles.Bounds(folders: 65_536)

    /// The build's walk (`FileInfo.siteFiles`) of the folder at `relative` (site-relative, in one
    /// of the roots), so that the watcher sees exactly the folders the build reads, and none it
    /// refuses (the site folder, a hidden folder, an output folder: a watch there would see the
    /// build's own writes, and rebuild for ever). Its paths are site-relative; `isCut` says that
    /// a bound left folders unlisted, so the watcher can fall back on rebuilding the whole site.
    /// - Parameter enter: given each folder's real path and site-relative path before it is
    ///   listed, so a watch is in place before its files are seen; it is listed only when true.
    static func walk(
        _ relative: String, site: String, output: String?, bounds: FileInfo.SiteFiles.Bounds = bounds,
        enter: (_ real: String, _ relative: String) -> Bool = { _, _ in true }
    ) -> (folders: [String], files: [String], isCut: Bool) {
        // The build bounds depth below its root (`content`); this walk may start deeper.
        var bounds = bounds
        bounds.depth -= relative.split(separator: "/").count - 1
        func named(_ path: String) -> String { path.isEmpty ? relative : relative + "/" + path }
        let walk = FileInfo.siteFiles(under: site + "/" + relative, root: site, bounds: bounds, excluding: output) { real, path in
            enter(real, named(path))
        }
        return (walk.folders.map(named), walk.files.map(named), walk.isCut)
    }

    /// Site-relative paths that changed, in bursts as the file system reports them. Ends when the
    /// iterating task is cancelled. Armed when it returns: a change made after it is reported.
    package func changes() -> AsyncStream<[String]> { watch().changes }

    /// `changes()`, and whether they name every path that changes (inotify), rather than the files
    /// whose time or size a poll saw change: only then may a rebuild read just those.
    package func watch() -> (changes: AsyncStream<[String]>, namesEveryChange: Bool) {
        #if os(Linux)
        if let stream = inotifyChanges() { return (stream, true) }
        #endif
        return (pollingChanges(), false)
    }

    // MARK: Polling

    /// Every watched file with its modification time and size.
    func snapshot() -> [String: String] {
        var files: [String: String] = [:]
        let fm = FileManager.default
        if let attributes = try? fm.attributesOfItem(atPath: siteDirectory.appending(path: "site.yml").path) {
            files["site.yml"] = "\(attributes[.modificationDate] ?? "") \(attributes[.size] ?? "")"
        }
        for root in Self.watchedRoots {
            let walk = Self.walk(root, site: siteDirectory.path, output: outputDirectory.path)
            for path in walk.files where Self.matters(path) {
                // Of the file a link names, as the build reads it, not of the link.
                if let real = FileInfo.realPath(siteDirectory.path + "/" + path), let attributes = try? fm.attributesOfItem(atPath: real) {
                    files[path] = "\(attributes[.modificationDate] ?? "") \(attributes[.size] ?? "")"
                }
            }
        }
        return files
    }

    func pollingChanges() -> AsyncStream<[String]> {
        // The first look is taken before the stream is handed out, so a change made right after
        // is one a poll sees, as it is for inotify's watches (added before they return).
        let first = snapshot()
        return AsyncStream { continuation in
            let task = Task {
                var last = first
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollInterval)
                    let now = snapshot()
                    let changed = Set(now.keys).union(last.keys).filter { now[$0] != last[$0] }
                    if !changed.isEmpty { continuation.yield(changed.sorted()) }
                    last = now
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    // MARK: inotify

    #if os(Linux)
    func inotifyChanges() -> AsyncStream<[String]>? {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let state = InotifyState(fd: fd, site: siteDirectory.path, output: outputDirectory.path)
        state.watchSite()
        return AsyncStream { continuation in
            // A plain thread: reading inotify blocks in poll(2), which must not hold a Swift concurrency thread.
            let thread = Thread {
                while !state.stopped {
                    let changed = state.read(timeoutMilliseconds: 200)
                    if !changed.isEmpty { continuation.yield(changed) }
                }
                close(fd)
                continuation.finish()
            }
            thread.start()
            continuation.onTermination = { _ in state.stop() }
        }
    }
    #endif
}

#if os(Linux)
/// The inotify descriptor and its watches, owned by the reading thread once started.
final class InotifyState: @unchecked Sendable {
    let fd: Int32
    let site: String
    let output: String?
    let bounds: FileInfo.SiteFiles.Bounds
    private let lock = NSLock()
    private var folders: [Int32: String] = [:]
    private var _stopped = false
    /// Whether a folder could not be watched (the kernel's limit on watches, a folder it may not
    /// read): its changes then go unnamed, so every batch from then on also names the roots, and
    /// each rebuild reads the site whole rather than only the paths named.
    private var missedFolder = false

    init(fd: Int32, site: String, output: String? = nil, bounds: FileInfo.SiteFiles.Bounds = SiteWatcher.bounds) {
        self.fd = fd
        self.site = site
        self.output = output
        self.bounds = bounds
    }

    var stopped: Bool { lock.withLock { _stopped } }
    func stop() { lock.withLock { _stopped = true } }

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB)

    /// Site-relative paths of the folders watched (the site folder as `""`), sorted.
    var watched: [String] { lock.withLock { folders.values.map { String($0.dropFirst(site.count + 1)) }.sorted() } }

    /// Watches the site folder, for `site.yml` and the roots, and the folders below the roots.
    func watchSite() {
        addSiteWatch()
        for root in SiteWatcher.watchedRoots { addTree(site + "/" + root) }
    }

    func addSiteWatch() {
        let wd = inotify_add_watch(fd, site, Self.mask)
        if wd >= 0 { lock.withLock { folders[wd] = site } } else { missedWatch() }
    }

    /// Notes a watch that could not be added; a folder that is gone (`ENOENT`) needs none.
    func missedWatch(errorNumber: Int32 = errno) {
        guard errorNumber != ENOENT else { return }
        lock.withLock { missedFolder = true }
    }

    /// Watches `folder` (a path below `site`) and the folders below it that the build reads, and
    /// returns the site-relative paths of those folders and of the files in them.
    @discardableResult
    func addTree(_ folder: String) -> [String] {
        let walk = SiteWatcher.walk(String(folder.dropFirst(site.count + 1)), site: site, output: output, bounds: bounds) { real, relative in
            addWatch(real, named: site + "/" + relative)
        }
        // A folder left out is as one the kernel would not watch.
        if walk.isCut { missedWatch(errorNumber: ENOSPC) }
        return walk.folders + walk.files
    }

    /// Watches the folder at `real`, its events named from `name` (a link's path, for a folder
    /// reached through one); whether it is watched.
    private func addWatch(_ real: String, named name: String) -> Bool {
        guard lock.withLock({ folders.count }) < bounds.folders else {
            missedWatch(errorNumber: ENOSPC)
            return false
        }
        // Not through a link put in the folder's place since the walk looked.
        let wd = inotify_add_watch(fd, real, Self.mask | UInt32(IN_ONLYDIR | IN_DONT_FOLLOW))
        guard wd >= 0 else {
            missedWatch()
            return false
        }
        // A folder watched already (the kernel gives its watch again) keeps its first name.
        lock.withLock { folders[wd] = folders[wd] ?? name }
        return true
    }

    /// Waits up to `timeoutMilliseconds` for events and returns the site-relative paths that matter.
    func read(timeoutMilliseconds: Int32) -> [String] {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMilliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        return changes(in: buffer[..<count])
    }

    /// The site-relative paths the events in `buffer` name, as `read` got them: every one but a
    /// hidden name, an editor's backup file too (`PendingChanges` decides what calls for a rebuild).
    func changes(in buffer: ArraySlice<UInt8>) -> [String] {
        let buffer = Array(buffer)
        let count = buffer.count
        var changed = Set<String>()
        var offset = 0
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= count {
            let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
            let nameStart = offset + headerSize
            let nameBytes = buffer[nameStart..<min(count, nameStart + Int(event.len))].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            offset = nameStart + Int(event.len)
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                // The kernel's queue filled up and events were lost: a folder made meanwhile may
                // have no watch yet, and whatever changed must still be rebuilt. Every source is
                // read again by the rebuild, so naming the roots is enough.
                for root in SiteWatcher.watchedRoots {
                    addTree(site + "/" + root)
                    changed.insert(root)
                }
                continue
            }
            if event.mask & UInt32(IN_IGNORED) != 0 {
                // The folder is gone (or its watch removed): it no longer counts against the bound.
                lock.withLock { folders[event.wd] = nil }
                continue
            }
            guard let folder = lock.withLock({ folders[event.wd] }), !SiteWatcher.isHidden(name), !name.isEmpty else { continue }
            let full = folder + "/" + name
            let relative = String(full.dropFirst(site.count + 1))
            if folder == site {
                // In the site folder itself only site.yml and the watched roots matter.
                if name == "site.yml" {
                    changed.insert(relative)
                } else if SiteWatcher.watchedRoots.contains(name) {
                    if event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { addTree(full) }
                    changed.insert(relative)
                }
                continue
            }
            if event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, event.mask & UInt32(IN_ISDIR) != 0 || Self.isLink(full) {
                // A new folder, or a link the build may follow to one. Files written into it
                // before its watch existed would go unseen: report them now.
                changed.formUnion(addTree(full))
            }
            changed.insert(relative)
        }
        if !changed.isEmpty && lock.withLock({ missedFolder }) {
            for root in SiteWatcher.watchedRoots { changed.insert(root) }
        }
        return changed.sorted()
    }

    private static func isLink(_ path: String) -> Bool { FileInfo.kind(of: path) == .link }
}
#endif
