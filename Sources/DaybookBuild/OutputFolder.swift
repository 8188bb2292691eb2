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
/// Files are written whole into `.daybook-tmp/` inside the root and renamed into place (one
/// file system, so the rename is atomic): a reader never sees half a page, and a build killed
/// mid-write leaves its temporaries in that one folder, which the next build clears.
///
/// With `rewritesInPlace` (the preview's own folder), a file already there is rewritten instead,
/// keeping its inode. Each rename allocates an inode and frees one, and on an ext4 without a
/// journal, allocation skips every inode freed in the last minutes: after a new post moved a
/// thousand timeline pages, that search was half of a `serve` rebuild. A reader may then see
/// half a page while it is written; the preview reloads open pages once the build is done. The
/// build's record stays whole-file, so a kill is repaired by the next build as ever.
public final class OutputFolder: OutputSink, @unchecked Sendable {
    public static let temporaryFolder = ".daybook-tmp"

    public let path: String
    public var rootBytes: Int { path.utf8.count }
    /// Whether a file already at a path is rewritten rather than replaced by a rename.
    public let rewritesInPlace: Bool

    private let lock = NSLock()
    private var root: Int32 = -1
    /// The folders of the last path used, open: files come in plan order, so most paths share them.
    private var cursor: [(name: String, fd: Int32)] = []
    private var temporaries: Int32 = -1
    private var temporaryCount = 0

    public init(directory: URL, rewritesInPlace: Bool = false) {
        let path = directory.standardizedFileURL.path
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.rewritesInPlace = rewritesInPlace
    }

    deinit {
        closeCursor(keeping: 0)
        if temporaries >= 0 { close(temporaries) }
        if root >= 0 { close(root) }
    }

    // MARK: - OutputSink

    public func entry(at path: String) -> OutputEntry {
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
    public func entries(at paths: [String]) -> [OutputEntry] {
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
    public func contents(of path: String) -> [UInt8]? {
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

    public func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        guard openRoot(creating: true) else {
            throw OutputError(path: "", reason: .system(action: "create the output folder \(self.path)", message: Self.lastError))
        }
        let (folder, leaf) = split(path)
        let parent = try walk(to: folder, creating: true, replacing: replacing).get()
        // Most files of a build into a new folder, or of a first build, have no old file: created
        // at once (O_EXCL fails on anything at the name, a link included), with no look first.
        // A look per file was 2% of a full build.
        if !rewritesInPlace || path.hasPrefix("."), try writeNew(bytes, in: parent, leaf, path: path) { return }
        switch Self.entry(in: parent, leaf, path: path) {
        case .folder: throw OutputError(path: path, reason: .folderInTheWay)
        case .link where !replacing: throw OutputError(path: path, reason: .symbolicLink)
        case .absent:
            // No old file for a reader to see: write in place, without a temporary and a rename
            // (a first build of a large site writes tens of thousands of files). The record of
            // intent already names the path, so if a kill leaves the file cut short, the next
            // build writes it again.
            if try writeNew(bytes, in: parent, leaf, path: path) { return }
        case .file where rewritesInPlace && !replacing && !path.hasPrefix("."):
            // The build's record and intent (`.daybook-manifest`, `.daybook-intent`) are always
            // replaced whole: a kill must never leave the record cut short.
            if try rewrite(bytes, in: parent, leaf, path: path) { return }
        default: break
        }
        let temporary = try writeTemporary(bytes, for: path)
        // rename(2) replaces the name at `leaf`, a link included, and never follows it.
        guard renameat(temporaries, temporary, parent, leaf) == 0 else {
            let message = Self.lastError
            unlinkat(temporaries, temporary, 0)
            throw OutputError(path: path, reason: .system(action: "put the file in place", message: message))
        }
    }

    public func remove(_ path: String) -> Bool {
        lock.withLock {
            guard openRoot(creating: false) else { return false }
            let (folder, leaf) = split(path)
            guard case .success(let parent) = walk(to: folder, creating: false, replacing: false) else { return false }
            var removed = false
            if case .file = Self.entry(in: parent, leaf, path: path) { removed = unlinkat(parent, leaf, 0) == 0 }
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

    public func clearTemporaries() {
        lock.withLock {
            guard openRoot(creating: false) else { return }
            if temporaries >= 0 {
                close(temporaries)
                temporaries = -1
            }
            let fd = openat(root, Self.temporaryFolder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd >= 0, let stream = fdopendir(fd) {
                var names: [String] = []
                while let entry = readdir(stream) {
                    let name = FileInfo.entryName(entry)
                    if name != "." && name != ".." { names.append(name) }
                }
                // Only this build's own names are made there; anything else is removed as itself, never followed.
                for name in names where unlinkat(dirfd(stream), name, 0) != 0 { unlinkat(dirfd(stream), name, AT_REMOVEDIR) }
                closedir(stream)
            } else if fd >= 0 {
                close(fd)
            }
            if unlinkat(root, Self.temporaryFolder, AT_REMOVEDIR) != 0 && errno == ENOTDIR {
                unlinkat(root, Self.temporaryFolder, 0)  // a link or a file by that name: removed itself
            }
        }
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

    /// Opens the root, following links: it is the folder the user named.
    private func openRoot(creating: Bool) -> Bool {
        if root >= 0 { return true }
        if creating { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        root = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return root >= 0
    }

    private func closeCursor(keeping count: Int) {
        while cursor.count > count { close(cursor.removeLast().fd) }
    }

    /// The descriptor of the folder `names` below the root, each step opened without following
    /// a link. `creating` makes missing folders; `replacing` removes a link or file in the way.
    private func walk(to names: ArraySlice<String>, creating: Bool, replacing: Bool) -> Result<Int32, OutputError> {
        Self.walk(to: names, from: root, cursor: &cursor, creating: creating, replacing: replacing)
    }

    /// `walk` with the folders kept open in `cursor` (the instance's, or a task's own).
    private static func walk(
        to names: ArraySlice<String>, from root: Int32, cursor: inout [(name: String, fd: Int32)], creating: Bool, replacing: Bool
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
                    guard mkdirat(parent, name, 0o755) == 0 || errno == EEXIST else {
                        return .failure(OutputError(path: shown, reason: .system(action: "create the folder", message: Self.lastError)))
                    }
                case .absent:
                    return .failure(OutputError(path: shown, reason: .system(action: "open the folder", message: "it does not exist")))
                case .link(let at):
                    guard replacing else { return .failure(OutputError(path: at, reason: .symbolicLink)) }
                    unlinkat(parent, name, 0)
                    mkdirat(parent, name, 0o755)
                case .file, .blocked:
                    guard replacing else { return .failure(OutputError(path: shown, reason: .notAFolder)) }
                    unlinkat(parent, name, 0)
                    mkdirat(parent, name, 0o755)
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

    /// Creates `leaf` in `parent` with `bytes`; `false` when something appeared there meanwhile
    /// (then the caller replaces it through a temporary file).
    private func writeNew(_ bytes: [UInt8], in parent: Int32, _ leaf: String, path: String) throws(OutputError) -> Bool {
        let fd = openat(parent, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            if errno == EEXIST { return false }
            throw OutputError(path: path, reason: .system(action: "write", message: Self.lastError))
        }
        if let failed = FileInfo.writeAll(bytes[...], to: fd) {
            close(fd)
            unlinkat(parent, leaf, 0)
            throw OutputError(path: path, reason: .system(action: "write", message: String(cString: strerror(failed))))
        }
        close(fd)
        return true
    }

    /// Rewrites `leaf` in `parent` with `bytes`, keeping its inode; `false` when it is not a
    /// regular file with this one name that this process may write (a link or a file put there
    /// meanwhile, a hard link whose other name may be outside the output folder, a read-only
    /// file): the caller then replaces it through a temporary file. `O_NONBLOCK` keeps a FIFO
    /// put there meanwhile from blocking the open.
    private func rewrite(_ bytes: [UInt8], in parent: Int32, _ leaf: String, path: String) throws(OutputError) -> Bool {
        let fd = openat(parent, leaf, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1, ftruncate(fd, 0) == 0 else {
            close(fd)
            return false
        }
        if let failed = FileInfo.writeAll(bytes[...], to: fd) {
            close(fd)
            throw OutputError(path: path, reason: .system(action: "write", message: String(cString: strerror(failed))))
        }
        close(fd)
        return true
    }

    /// Writes `bytes` to a new file in the temporary folder; returns its name there.
    /// No fsync: a crash may lose the newest bytes, never leave a half-written page in place.
    private func writeTemporary(_ bytes: [UInt8], for path: String) throws(OutputError) -> String {
        if temporaries < 0 {
            if mkdirat(root, Self.temporaryFolder, 0o755) != 0 && errno != EEXIST {
                throw OutputError(path: Self.temporaryFolder, reason: .system(action: "create the folder", message: Self.lastError))
            }
            temporaries = openat(root, Self.temporaryFolder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard temporaries >= 0 else {
                throw OutputError(path: Self.temporaryFolder, reason: .system(action: "open the folder", message: Self.lastError))
            }
        }
        temporaryCount += 1
        let name = String(temporaryCount)
        unlinkat(temporaries, name, 0)
        let fd = openat(temporaries, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(path: path, reason: .system(action: "write", message: Self.lastError)) }
        let failed = FileInfo.writeAll(bytes[...], to: fd)
        close(fd)
        if let failed {
            unlinkat(temporaries, name, 0)
            throw OutputError(path: path, reason: .system(action: "write", message: String(cString: strerror(failed))))
        }
        return name
    }
}
