import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reports changes to a site's sources: `content/`, `Templates/` and `site.yml`.
///
/// inotify on Linux (one watch per folder, added as folders appear); where inotify is not
/// available, a poll of modification times and sizes. The output folder is never watched, so
/// a build cannot trigger itself. Editor droppings (`.swp`, `~`, dot files) are ignored.
public final class SiteWatcher: Sendable {
    public let siteDirectory: URL
    private let pollInterval: Duration

    public init(siteDirectory: URL, pollInterval: Duration = .milliseconds(500)) {
        self.siteDirectory = siteDirectory.standardizedFileURL
        self.pollInterval = pollInterval
    }

    static let watchedRoots = ["content", "Templates"]

    /// Whether a changed path calls for a rebuild: not an editor's backup or swap file. The
    /// watcher names those too, since the build reads every file that is not hidden.
    static func matters(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return !(isHidden(name) || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx") || name == "4913")
    }

    /// Hidden names, which the build skips as a folder walk does.
    static func isHidden(_ name: String) -> Bool { name.hasPrefix(".") }

    /// Site-relative paths that changed, in bursts as the file system reports them. Ends when the
    /// iterating task is cancelled.
    public func changes() -> AsyncStream<[String]> { watch().changes }

    /// `changes()`, and whether they name every path that changes (inotify), rather than the files
    /// whose time or size a poll saw change: only then may a rebuild read just those.
    public func watch() -> (changes: AsyncStream<[String]>, namesEveryChange: Bool) {
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
            guard let paths = try? fm.subpathsOfDirectory(atPath: siteDirectory.appending(path: root).path) else { continue }
            for path in paths where Self.matters((path as NSString).lastPathComponent) {
                let full = siteDirectory.appending(path: root).appending(path: path).path
                if let attributes = try? fm.attributesOfItem(atPath: full), attributes[.type] as? FileAttributeType == .typeRegular {
                    files[root + "/" + path] = "\(attributes[.modificationDate] ?? "") \(attributes[.size] ?? "")"
                }
            }
        }
        return files
    }

    func pollingChanges() -> AsyncStream<[String]> {
        AsyncStream { continuation in
            let task = Task {
                var last = snapshot()
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
        let site = siteDirectory.path
        let state = InotifyState(fd: fd, site: site)
        state.addSiteWatch()
        for root in Self.watchedRoots { state.addTree(site + "/" + root) }
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
    private let lock = NSLock()
    private var folders: [Int32: String] = [:]
    private var _stopped = false
    /// Whether a folder could not be watched (the kernel's limit on watches, a folder it may not
    /// read): its changes then go unnamed, so every batch from then on also names the roots, and
    /// each rebuild reads the site whole rather than only the paths named.
    private var missedFolder = false

    init(fd: Int32, site: String) {
        self.fd = fd
        self.site = site
    }

    var stopped: Bool { lock.withLock { _stopped } }
    func stop() { lock.withLock { _stopped = true } }

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB)

    func addSiteWatch() {
        let wd = inotify_add_watch(fd, site, Self.mask)
        if wd >= 0 { lock.withLock { folders[wd] = site } } else { missedWatch() }
    }

    /// Notes a watch that could not be added; a folder that is gone (`ENOENT`) needs none.
    func missedWatch(errorNumber: Int32 = errno) {
        guard errorNumber != ENOENT else { return }
        lock.withLock { missedFolder = true }
    }

    /// Watches `folder` and every folder below it.
    func addTree(_ folder: String) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { return }
        let wd = inotify_add_watch(fd, folder, Self.mask)
        if wd >= 0 { lock.withLock { folders[wd] = folder } } else { missedWatch() }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".") {
            addTree(folder + "/" + name)
        }
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
            if event.mask & UInt32(IN_ISDIR) != 0, event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                addTree(full)
                // Files written into a new folder before its watch existed would go unseen: report them now.
                for inner in (try? FileManager.default.subpathsOfDirectory(atPath: full)) ?? [] {
                    if !inner.split(separator: "/").contains(where: { SiteWatcher.isHidden(String($0)) }) { changed.insert(relative + "/" + inner) }
                }
            }
            changed.insert(relative)
        }
        if !changed.isEmpty && lock.withLock({ missedFolder }) {
            for root in SiteWatcher.watchedRoots { changed.insert(root) }
        }
        return changed.sorted()
    }
}
#endif
