import DaybookModel
import DaybookParallel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The output folder on disk, reached only through folder descriptors.
///
/// Each folder below the root is opened with `openat(O_NOFOLLOW | O_DIRECTORY)` from its parent,
/// and each file is created with `O_NOFOLLOW | O_EXCL`, so a symbolic link anywhere below the
/// root is seen and never followed, whatever an earlier build's record or another program put
/// there. The root itself is the folder the user named, links and all.
///
/// All or nothing (CONTRACT §6): every file a build writes is staged whole in `.daybook-tmp/`
/// inside the root, and nothing else in the folder changes until `commit`. That moves the stale
/// files into `.daybook-tmp/` too, then renames each staged file to its path (one file system,
/// so each rename is atomic and a reader never sees half a page), first keeping a hard link to
/// the file it replaces. A top-level folder the root lacks is staged whole in
/// `.daybook-tmp/tree/` and renamed into the root as one. Every step is logged; when one fails,
/// the log is undone backwards: old files renamed back over new ones, new files and folders
/// removed, stale files and their folders brought back. Renames, links and removals need no data blocks, so a full disk fails
/// the staging, before anything changed, not the commit. Staging costs the changed files' bytes
/// a second time until the commit; kept copies are hard links, which cost none.
///
/// A build killed while staging leaves only `.daybook-tmp/`, which the next build clears; one
/// killed while committing leaves its intent, and the next build rewrites what it named.
package final class OutputFolder: OutputSink, @unchecked Sendable {
    package static let temporaryFolder = ".daybook-tmp"

    package let path: String
    package var rootBytes: Int { path.utf8.count }
    let faults: WriteFaults

    private let lock = NSLock()
    private var root: Int32 = -1
    /// The folders of the last path used, open: files come in plan order, so most paths share them.
    private var cursor: [(name: String, fd: Int32)] = []
    private var temporaries: Int32 = -1
    private var temporaryCount = 0
    /// Files staged for `commit`: their paths, their names in `.daybook-tmp/`, and whether a
    /// link or file in their way may be replaced.
    private var staged: [(path: String, name: String, replacing: Bool)] = []
    /// Files noted for `commit` to remove.
    private var removals: [String] = []
    /// Whether each top-level folder a file was staged below was absent from the root then. An
    /// absent one is staged whole in `.daybook-tmp/tree/` and put in place by one rename: one
    /// rename (and lookup) per file was a first build's 34,000 at the commit, on one core, a
    /// tenth of the build. A folder already in the root takes its files one by one.
    private var newFolders: [String: Bool] = [:]
    /// `.daybook-tmp/tree/`, and the folders of the last file staged in it, open.
    private var tree: Int32 = -1
    private var treeCursor: [(name: String, fd: Int32)] = []
    private static let treeFolder = "tree"
    /// The folders made to open the root for writing, the root first, until a commit puts the
    /// build in them: a failed first build takes them away again (`withdrawRoot`).
    private var madeRoot: [String] = []
    /// Whether the staged build was dropped: `clearTemporaries` then withdraws a root it made.
    private var discarded = false

    package init(directory: URL, faults: WriteFaults = .none) {
        let path = directory.standardizedFileURL.path
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.faults = faults
    }

    deinit {
        closeCursor(keeping: 0)
        if temporaries >= 0 { close(temporaries) }
        if root >= 0 { close(root) }
    }

    // MARK: - OutputSink

    package func entry(at path: String) -> OutputEntry {
        lock.withLock {
            guard openRoot(creating: false) else { return .absent }
            return Self.entry(at: path, from: root, cursor: &cursor)
        }
    }

    /// Many paths at once, on all cores: each core looks at its share of the paths (in plan order,
    /// so neighbours share folders) through an `OutputLookup` of its own. A rebuild asks this of
    /// every output path (34,000 on a 20,000-post site) before it writes anything. Opening each
    /// page's folder to look inside it, and closing it, was three system calls a page where this
    /// is two, and a third more time; reading the listing of a folder of many folders instead of
    /// looking at each cost as much on ext4 as the looks it saved.
    package func entries(at paths: [String]) -> [OutputEntry] {
        guard let root = lock.withLock({ openRoot(creating: false) ? self.root : nil }) else { return paths.map { _ in .absent } }
        return Parallel.mapRuns(paths) { run in
            var lookup = OutputLookup(root: root)
            var bytes: [UInt8] = []
            return run.map { path in
                bytes.removeAll(keepingCapacity: true)
                bytes += path.utf8
                return lookup.entry(at: &bytes)
            }
        }
    }

    /// What is at `path`, its folders reached through `cursor`.
    private static func entry(at path: String, from root: Int32, cursor: inout [(name: String, fd: Int32)]) -> OutputEntry {
        let names = Self.names(path)
        switch walk(to: names.dropLast(), from: root, cursor: &cursor, creating: false, replacing: false) {
        case .failure(let error):
            switch error.reason {
            case .symbolicLink: return .link(at: error.path)
            case .notAFolder: return .blocked(at: error.path)
            default: return .absent
            }
        case .success(let fd):
            return entry(in: fd, names.last ?? "", path: path)
        }
    }

    /// Bounded (`maxRecordBytes`), as everything read from the untrusted output folder: a file
    /// over the bound reads as empty, a record or intent no build wrote, which the writer
    /// refuses as damaged. A named pipe at the path neither blocks the open nor reads.
    package func contents(of path: String) -> [UInt8]? {
        lock.withLock {
            guard openRoot(creating: false) else { return nil }
            let (folder, leaf) = split(path)
            guard case .success(let parent) = walk(to: folder, creating: false, replacing: false) else { return nil }
            switch FileInfo.read(openat(parent, leaf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), maxBytes: Self.maxRecordBytes) {
            case .success(let read): return read.bytes
            case .failure(.tooLarge): return []
            case .failure(.unreadable): return nil
            }
        }
    }

    /// The largest build record or intent read: a 100,000-post site's record is about 17 MB.
    static let maxRecordBytes = 256 << 20

    package func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        try openRootForWriting()
        let name = try writeTemporary(bytes, for: path, point: .intent)
        let (folder, leaf) = split(path)
        let parent: Int32
        do throws(OutputError) { parent = try walk(to: folder, creating: true, replacing: replacing).get() } catch {
            unlinkat(temporaries, name, 0)
            throw error
        }
        if case .folder = Self.entry(in: parent, leaf, path: path) {
            unlinkat(temporaries, name, 0)
            throw OutputError(path: path, reason: .folderInTheWay)
        }
        // rename(2) replaces the name at `leaf`, a link included, and never follows it.
        guard renameat(temporaries, name, parent, leaf) == 0 else {
            let message = Self.lastError
            unlinkat(temporaries, name, 0)
            throw OutputError(path: path, reason: .system(action: "put the file in place", message: message))
        }
    }

    package func stage(_ bytes: [UInt8], at path: String, replacing: Bool) throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        try openRootForWriting()
        let names = Self.names(path)
        if names.count >= 2, isNewFolder(names[0]) {
            try stageInTree(bytes, names: names, path: path)
            return
        }
        let name = try writeTemporary(bytes, for: path, point: .stage(path))
        staged.append((path, name, replacing))
    }

    /// Whether the top-level folder `name` was absent from the root when a file was first staged below it.
    private func isNewFolder(_ name: String) -> Bool {
        if let known = newFolders[name] { return known }
        let new = name != Self.temporaryFolder && Self.entry(in: root, name, path: name) == .absent
        newFolders[name] = new
        return new
    }

    /// Writes a file of a new top-level folder at its path in `.daybook-tmp/tree/`, making the folders it needs.
    private func stageInTree(_ bytes: [UInt8], names: [String], path: String) throws(OutputError) {
        if tree < 0 {
            if mkdirat(temporaries, Self.treeFolder, 0o755) != 0 && errno != EEXIST {
                throw OutputError(path: path, reason: .system(action: "write", message: Self.lastError))
            }
            tree = openat(temporaries, Self.treeFolder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard tree >= 0 else { throw OutputError(path: path, reason: .system(action: "write", message: Self.lastError)) }
        }
        let parent = try Self.walk(to: names.dropLast(), from: tree, cursor: &treeCursor, creating: true, replacing: false).get()
        let leaf = names[names.count - 1]
        let fd = openat(parent, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(path: path, reason: .system(action: "write", message: Self.lastError)) }
        // An injected failure strikes after the file was made, as a full disk does.
        let failed = faults.failure(at: .stage(path)) ?? FileInfo.writeAll(bytes[...], to: fd)
        close(fd)
        if let failed {
            unlinkat(parent, leaf, 0)
            throw OutputError(path: path, reason: .system(action: "write", code: failed))
        }
    }

    /// A path whose file is already gone is noted all the same, when its folder is there: a
    /// build killed between removing a file and its folder leaves the empty folder to the next.
    package func stageRemoval(_ path: String) -> Bool {
        lock.withLock {
            guard openRoot(creating: false) else { return false }
            switch Self.entry(at: path, from: root, cursor: &cursor) {
            case .file:
                removals.append(path)
                return true
            case .absent where !cursor.isEmpty && cursor.count == Self.names(path).count - 1:
                removals.append(path)
                return false
            default:
                return false
            }
        }
    }

    package func discard() {
        lock.withLock {
            for file in staged where temporaries >= 0 { unlinkat(temporaries, file.name, 0) }
            (staged, removals) = ([], [])
            forgetTree()
            discarded = true
        }
    }

    package var hasStaged: Bool { lock.withLock { !staged.isEmpty || !removals.isEmpty || newFolders.values.contains(true) } }

    /// Lets go of the tree of new folders (what is left of it on disk goes with `.daybook-tmp/`).
    private func forgetTree() {
        while let last = treeCursor.popLast() { close(last.fd) }
        if tree >= 0 { close(tree) }
        tree = -1
        newFolders = [:]
    }

    package func room() -> (free: Int, block: Int)? {
        lock.withLock {
            guard openRoot(creating: false) else { return nil }
            var info = statvfs()
            guard fstatvfs(root, &info) == 0, info.f_frsize > 0 else { return nil }
            return (Int(info.f_bavail) * Int(info.f_frsize), Int(info.f_frsize))
        }
    }

    // MARK: - Commit

    /// A step of `commit`, as undone when a later one fails.
    private enum Step {
        /// A folder made for a staged file.
        case madeFolder(String)
        /// A staged file put at its path; `kept`, the name in `.daybook-tmp/` of the file it replaced.
        case placed(String, kept: String?)
        /// A stale file, or a link or file in a folder's way, moved to `kept` in `.daybook-tmp/`.
        case movedAside(String, kept: String)
        /// A folder removed once empty, with its permission bits.
        case removedFolder(String, mode: mode_t)
        /// A new top-level folder put in place whole from `.daybook-tmp/tree/`.
        case placedFolder(String)

        /// The path the step changed.
        var path: String {
            switch self {
            case .madeFolder(let path), .placed(let path, _), .movedAside(let path, _), .removedFolder(let path, _), .placedFolder(let path): path
            }
        }
    }

    package func commit() throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        defer { (staged, removals, newFolders) = ([], [], [:]) }
        let folders = newFolders.filter(\.value).keys.sorted()
        guard !staged.isEmpty || !removals.isEmpty || !folders.isEmpty else { return }
        while let last = treeCursor.popLast() { close(last.fd) }
        var log: [Step] = []
        do throws(OutputError) {
            try openRootForWriting()
            for path in removals { try removeAside(path, log: &log) }
            for folder in folders { try placeFolder(folder, log: &log) }
            for file in staged { try place(file, log: &log) }
        } catch {
            closeCursor(keeping: 0)
            var failed = error
            let unrestored = undo(log)
            failed.state = unrestored.isEmpty ? .unchanged : .mixed(unrestored)
            for file in staged { unlinkat(temporaries, file.name, 0) }
            throw failed
        }
        closeCursor(keeping: 0)
        madeRoot = []
    }

    /// Moves the stale file at `path` into `.daybook-tmp/`, then removes the folders that leaves empty.
    private func removeAside(_ path: String, log: inout [Step]) throws(OutputError) {
        let names = Self.names(path)
        guard case .success(let parent) = walk(to: names.dropLast(), creating: false, replacing: false) else { return }
        if case .file = Self.entry(in: parent, names.last ?? "", path: path) {
            let kept = nextTemporaryName()
            if let code = faults.failure(at: .remove(path)) { throw OutputError(path: path, reason: .system(action: "remove the file", code: code)) }
            guard renameat(parent, names.last ?? "", temporaries, kept) == 0 else {
                throw OutputError(path: path, reason: .system(action: "remove the file", message: Self.lastError))
            }
            log.append(.movedAside(path, kept: kept))
        }
        // Folders the removal left empty go too; AT_REMOVEDIR fails on one that is not.
        while let last = cursor.last {
            let above = cursor.count >= 2 ? cursor[cursor.count - 2].fd : root
            var info = stat()
            guard fstat(last.fd, &info) == 0, unlinkat(above, last.name, AT_REMOVEDIR) == 0 else { break }
            let folder = names[..<cursor.count].joined(separator: "/")
            log.append(.removedFolder(folder, mode: info.st_mode & 0o7777))
            closeCursor(keeping: cursor.count - 1)
            // Asked once the folder is gone, so that only a removal that happens can fail; the
            // log brings the folder back.
            if let code = faults.failure(at: .remove(folder)) {
                throw OutputError(path: folder, reason: .system(action: "remove the empty folder", code: code))
            }
        }
    }

    /// Puts a new top-level folder staged whole in `.daybook-tmp/tree/` in the root, by one
    /// rename; refused when something took its name since its first file was staged.
    private func placeFolder(_ name: String, log: inout [Step]) throws(OutputError) {
        if let code = faults.failure(at: .place(name)) { throw OutputError(path: name, reason: .system(action: "put the folder in place", code: code)) }
        guard Self.entry(in: root, name, path: name) == .absent else {
            throw OutputError(path: name, reason: .system(action: "put the folder in place", message: "another program made it during the build"))
        }
        guard renameat(tree, name, root, name) == 0 else {
            throw OutputError(path: name, reason: .system(action: "put the folder in place", message: Self.lastError))
        }
        log.append(.placedFolder(name))
    }

    /// Puts a staged file at its path, keeping the file it replaces.
    private func place(_ file: (path: String, name: String, replacing: Bool), log: inout [Step]) throws(OutputError) {
        let (folder, leaf) = split(file.path)
        let parent = try walk(to: folder, creating: true, replacing: file.replacing, log: &log).get()
        var kept: String?
        switch Self.entry(in: parent, leaf, path: file.path) {
        case .folder:
            throw OutputError(path: file.path, reason: .folderInTheWay)
        case .link, .blocked:
            guard file.replacing else { throw OutputError(path: file.path, reason: .symbolicLink) }
            // The link itself (or a FIFO put there) goes aside, its target untouched.
            let aside = nextTemporaryName()
            if let code = faults.failure(at: .keep(file.path)) { throw OutputError(path: file.path, reason: .system(action: "replace the file", code: code)) }
            guard renameat(parent, leaf, temporaries, aside) == 0 else {
                throw OutputError(path: file.path, reason: .system(action: "replace the file", message: Self.lastError))
            }
            log.append(.movedAside(file.path, kept: aside))
        case .file:
            let name = nextTemporaryName()
            if let code = faults.failure(at: .keep(file.path)) { throw OutputError(path: file.path, reason: .system(action: "keep the old file", code: code)) }
            if linkat(parent, leaf, temporaries, name, 0) == 0 {
                kept = name
            } else {
                // A file system without hard links: the old file is moved aside instead, and the
                // path is missing for the moment until the new one is renamed to it.
                guard renameat(parent, leaf, temporaries, name) == 0 else {
                    throw OutputError(path: file.path, reason: .system(action: "keep the old file", message: Self.lastError))
                }
                log.append(.movedAside(file.path, kept: name))
            }
        case .absent:
            break
        }
        if let code = faults.failure(at: .place(file.path)) {
            if let kept { unlinkat(temporaries, kept, 0) }
            throw OutputError(path: file.path, reason: .system(action: "put the file in place", code: code))
        }
        guard renameat(temporaries, file.name, parent, leaf) == 0 else {
            let message = Self.lastError
            if let kept { unlinkat(temporaries, kept, 0) }
            throw OutputError(path: file.path, reason: .system(action: "put the file in place", message: message))
        }
        log.append(.placed(file.path, kept: kept))
    }

    /// Undoes `log` backwards; returns the paths it could not put back.
    private func undo(_ log: [Step]) -> [String] {
        var unrestored: [String] = []
        for step in log.reversed() {
            closeCursor(keeping: 0)
            let (folder, leaf) = split(step.path)
            guard case .success(let parent) = walk(to: folder, creating: false, replacing: false), undo(step, in: parent, leaf) else {
                unrestored.append(step.path)
                continue
            }
        }
        closeCursor(keeping: 0)
        return unrestored
    }

    /// Undoes one step at `leaf` in the folder `parent`; `false` when that fails.
    private func undo(_ step: Step, in parent: Int32, _ leaf: String) -> Bool {
        switch step {
        case .placed(_, let kept):
            return kept.map { renameat(temporaries, $0, parent, leaf) == 0 } ?? (unlinkat(parent, leaf, 0) == 0)
        case .movedAside(_, let kept):
            return renameat(temporaries, kept, parent, leaf) == 0
        case .madeFolder:
            return unlinkat(parent, leaf, AT_REMOVEDIR) == 0
        case .placedFolder:
            return tree >= 0 && renameat(parent, leaf, tree, leaf) == 0
        case .removedFolder(_, let mode):
            guard mkdirat(parent, leaf, mode) == 0 else { return false }
            // mkdir applies the umask; the folder had exactly these bits.
            let fd = openat(parent, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd >= 0 {
                fchmod(fd, mode)
                close(fd)
            }
            return true
        }
    }

    package func remove(_ path: String) throws(OutputError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        do {
            guard openRoot(creating: false) else { return false }
            let (folder, leaf) = split(path)
            guard case .success(let parent) = walk(to: folder, creating: false, replacing: false) else { return false }
            var removed = false
            if case .file = Self.entry(in: parent, leaf, path: path) {
                if let code = faults.failure(at: .remove(path)) { throw OutputError(path: path, reason: .system(action: "remove the file", code: code)) }
                guard unlinkat(parent, leaf, 0) == 0 else {
                    throw OutputError(path: path, reason: .system(action: "remove the file", message: Self.lastError))
                }
                removed = true
            }
            // Folders the removal left empty go too; AT_REMOVEDIR fails on a folder that is not empty.
            // Also when the file is already gone: a build killed between removing a file and its
            // folder leaves the empty folder to the next one.
            while let last = cursor.last {
                let above = cursor.count >= 2 ? cursor[cursor.count - 2].fd : root
                guard unlinkat(above, last.name, AT_REMOVEDIR) == 0 else { break }
                closeCursor(keeping: cursor.count - 1)
            }
            return removed
        }
    }

    package func clearTemporaries() {
        lock.withLock {
            defer { discarded = false }
            guard openRoot(creating: false) else { return }
            if temporaries >= 0 {
                close(temporaries)
                temporaries = -1
            }
            forgetTree()
            let fd = openat(root, Self.temporaryFolder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd >= 0 { Self.empty(folder: fd, depth: 0) }
            if unlinkat(root, Self.temporaryFolder, AT_REMOVEDIR) != 0 && errno == ENOTDIR {
                unlinkat(root, Self.temporaryFolder, 0)  // a link or a file by that name: removed itself
            }
            if discarded { withdrawRoot() }
        }
    }

    /// Removes everything in the folder `fd` (and closes it): files and links as themselves, never
    /// followed, folders emptied first. `.daybook-tmp/tree/` holds folders as deep as the
    /// output's paths; past 64 levels (none this build makes) a folder is left.
    private static func empty(folder fd: Int32, depth: Int) {
        guard let stream = fdopendir(fd) else {
            close(fd)
            return
        }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = FileInfo.entryName(entry)
            if name != "." && name != ".." { names.append(name) }
        }
        for name in names where unlinkat(dirfd(stream), name, 0) != 0 {
            if depth < 64 {
                let inner = openat(dirfd(stream), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if inner >= 0 { empty(folder: inner, depth: depth + 1) }
            }
            unlinkat(dirfd(stream), name, AT_REMOVEDIR)
        }
        closedir(stream)
    }

    // MARK: - Descriptors

    private static var lastError: String { String(cString: strerror(errno)) }

    private func split(_ path: String) -> (folder: ArraySlice<String>, leaf: String) {
        let names = Self.names(path)
        return (names.dropLast(), names.last ?? "")
    }

    /// The names of a path, empty ones left out, as `split(separator: "/")` gives them: made
    /// straight into one array, where splitting made an array of substrings first (a tenth of
    /// looking at 34,000 outputs).
    static func names(_ path: String) -> [String] {
        var names: [String] = []
        names.reserveCapacity(4)
        let utf8 = path.utf8
        var start = utf8.startIndex
        for index in utf8.indices where utf8[index] == UInt8(ascii: "/") {
            if index > start { names.append(String(path[start..<index])) }
            start = utf8.index(after: index)
        }
        if start < utf8.endIndex { names.append(String(path[start...])) }
        return names
    }

    /// Opens the root, following links: it is the folder the user named. The folders `creating`
    /// makes (the root, and any missing folder above it) are noted in `madeRoot`.
    private func openRoot(creating: Bool) -> Bool {
        if root >= 0 { return true }
        if creating {
            var missing: [String] = []
            var folder = path
            while !folder.isEmpty && folder != "/" && access(folder, F_OK) != 0 && errno == ENOENT {
                missing.append(folder)
                folder = (folder as NSString).deletingLastPathComponent
            }
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            madeRoot = missing.filter { access($0, F_OK) == 0 }
        }
        root = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return root >= 0
    }

    /// After a failed build, removes the folders this build made to reach the root, innermost
    /// first, each only while it is empty: a first build that fails leaves no output folder
    /// where there was none (CONTRACT §6). A file put in one since stops it there.
    private func withdrawRoot() {
        guard !madeRoot.isEmpty else { return }
        closeCursor(keeping: 0)
        if root >= 0 {
            close(root)
            root = -1
        }
        for folder in madeRoot where rmdir(folder) != 0 { break }
        madeRoot = []
    }

    private func closeCursor(keeping count: Int) {
        while cursor.count > count { close(cursor.removeLast().fd) }
    }

    /// The descriptor of the folder `names` below the root, each step opened without following
    /// a link. `creating` makes missing folders; `replacing` removes a link or file in the way.
    private func walk(to names: ArraySlice<String>, creating: Bool, replacing: Bool) -> Result<Int32, OutputError> {
        var log: [Step] = []
        return walk(to: names, creating: creating, replacing: replacing, log: &log)
    }

    /// `walk` for a commit: each folder made and each link or file moved out of a folder's way
    /// goes into `log`, the moved one into `.daybook-tmp/` rather than gone.
    private func walk(to names: ArraySlice<String>, creating: Bool, replacing: Bool, log: inout [Step]) -> Result<Int32, OutputError> {
        Self.walk(to: names, from: root, cursor: &cursor, creating: creating, replacing: replacing) { event, path in
            switch event {
            case .make:
                if let code = self.faults.failure(at: .folder(path)) { return OutputError(path: path, reason: .system(action: "create the folder", code: code)) }
                return nil
            case .made:
                log.append(.madeFolder(path))
                return nil
            case .moveAside(let parent, let name):
                let kept = self.nextTemporaryName()
                if let code = self.faults.failure(at: .keep(path)) { return OutputError(path: path, reason: .system(action: "replace the file", code: code)) }
                guard self.temporaries >= 0, renameat(parent, name, self.temporaries, kept) == 0 else {
                    return OutputError(path: path, reason: .system(action: "replace the file", message: Self.lastError))
                }
                log.append(.movedAside(path, kept: kept))
                return nil
            }
        }
    }

    /// What `walk` tells its caller as it goes: a folder about to be made or just made, or a
    /// link or file in a folder's way to be moved aside. The caller's error stops the walk.
    enum WalkEvent {
        case make
        case made
        case moveAside(parent: Int32, name: String)
    }

    /// `walk` with the folders kept open in `cursor` (the instance's, or a task's own).
    private static func walk(
        to names: ArraySlice<String>, from root: Int32, cursor: inout [(name: String, fd: Int32)], creating: Bool, replacing: Bool,
        events: (WalkEvent, String) -> OutputError? = { _, _ in nil }
    ) -> Result<Int32, OutputError> {
        // `names` is a slice: its n-th name is at `first + n`, as `cursor`'s n-th folder.
        let first = names.startIndex
        var shared = 0
        while shared < min(names.count, cursor.count) && cursor[shared].name == names[first + shared] { shared += 1 }
        while cursor.count > shared { close(cursor.removeLast().fd) }
        while cursor.count < names.count {
            let name = names[first + cursor.count]
            let parent = cursor.last?.fd ?? root
            var fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd < 0 {
                // Only a folder that does not open is named: a path joined per folder opened was
                // a tenth of looking at a 32,000-page site's outputs.
                let shown = names[first...(first + cursor.count)].joined(separator: "/")
                switch Self.entry(in: parent, name, path: shown) {
                case .absent where creating:
                    if let error = events(.make, shown) { return .failure(error) }
                    guard mkdirat(parent, name, 0o755) == 0 else {
                        return .failure(OutputError(path: shown, reason: .system(action: "create the folder", message: Self.lastError)))
                    }
                    if let error = events(.made, shown) { return .failure(error) }
                case .absent:
                    return .failure(OutputError(path: shown, reason: .system(action: "open the folder", message: "it does not exist")))
                case .link(let at):
                    guard replacing else { return .failure(OutputError(path: at, reason: .symbolicLink)) }
                    if let error = events(.moveAside(parent: parent, name: name), shown) ?? events(.make, shown) { return .failure(error) }
                    guard mkdirat(parent, name, 0o755) == 0 else {
                        return .failure(OutputError(path: shown, reason: .system(action: "create the folder", message: Self.lastError)))
                    }
                    if let error = events(.made, shown) { return .failure(error) }
                case .file, .blocked:
                    guard replacing else { return .failure(OutputError(path: shown, reason: .notAFolder)) }
                    if let error = events(.moveAside(parent: parent, name: name), shown) ?? events(.make, shown) { return .failure(error) }
                    guard mkdirat(parent, name, 0o755) == 0 else {
                        return .failure(OutputError(path: shown, reason: .system(action: "create the folder", message: Self.lastError)))
                    }
                    if let error = events(.made, shown) { return .failure(error) }
                case .folder:
                    break
                }
                fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard fd >= 0 else {
                    return .failure(OutputError(path: shown, reason: .system(action: "open the folder", message: Self.lastError)))
                }
            }
            cursor.append((name, fd))
        }
        return .success(cursor.last?.fd ?? root)
    }

    /// What `name` in the folder `parent` is, by `fstatat` without following a link.
    private static func entry(in parent: Int32, _ name: String, path: String) -> OutputEntry {
        var info = stat()
        return fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? OutputEntry(info, path: path) : .absent
    }

    /// Opens the root, making it when missing, and `.daybook-tmp/` in it.
    private func openRootForWriting() throws(OutputError) {
        guard openRoot(creating: true) else {
            throw OutputError(path: "", reason: .system(action: "create the output folder \(self.path)", message: Self.lastError))
        }
        guard temporaries < 0 else { return }
        if mkdirat(root, Self.temporaryFolder, 0o755) != 0 && errno != EEXIST {
            throw OutputError(path: Self.temporaryFolder, reason: .system(action: "create the folder", message: Self.lastError))
        }
        temporaries = openat(root, Self.temporaryFolder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard temporaries >= 0 else {
            throw OutputError(path: Self.temporaryFolder, reason: .system(action: "open the folder", message: Self.lastError))
        }
    }

    /// A name in `.daybook-tmp/` that this build has not used.
    private func nextTemporaryName() -> String {
        temporaryCount += 1
        return String(temporaryCount)
    }

    /// Writes `bytes` to a new file in the temporary folder; returns its name there.
    /// No fsync: a crash may lose the newest bytes, never leave a half-written page in place.
    private func writeTemporary(_ bytes: [UInt8], for path: String, point: WriteFaults.Point) throws(OutputError) -> String {
        let name = nextTemporaryName()
        unlinkat(temporaries, name, 0)
        let fd = openat(temporaries, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(path: path, reason: .system(action: "write", message: Self.lastError)) }
        // An injected failure strikes after the file was made, as a full disk does.
        let failed = faults.failure(at: point) ?? FileInfo.writeAll(bytes[...], to: fd)
        close(fd)
        if let failed {
            unlinkat(temporaries, name, 0)
            throw OutputError(path: path, reason: .system(action: "write", code: failed))
        }
        return name
    }
}
