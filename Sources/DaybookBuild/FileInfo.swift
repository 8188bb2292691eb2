import DaybookModel
import DaybookParallel
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What `stat(2)` says of a path: cheaper than FileManager's attribute dictionaries, which matters
/// when the writer and the preview server ask about thousands of files.
package enum FileInfo {
    /// Why `read` gave no bytes.
    package enum ReadFailure: Error, Sendable {
        case tooLarge(size: Int, limit: Int)
        /// Missing, not a regular file, or a read error: what the system said.
        case unreadable(String)
    }

    /// The regular file at `relative` below the folder `root`, with its status as opened (taken
    /// before the bytes, so that a write during the read leaves a status the next look finds
    /// changed), following no symbolic link below `root` (`ConfinedFolder`), so a link put in
    /// place after a check is not followed either. `root` itself may be a link, as the output
    /// folder the user named; it is opened for this read alone, as a long-lived process may see
    /// it replaced.
    package static func read(_ relative: String, below root: String, maxBytes: Int) -> Result<(bytes: [UInt8], status: FileStatus), ReadFailure> {
        ConfinedFolder(path: root, followsLinks: false).read(relative, maxBytes: maxBytes)
    }

    /// Opens the file at `relative` below the folder open at `folder` for reading, each folder on
    /// the way from its parent with `O_NOFOLLOW`, so no link is followed; -1 with `errno` set
    /// (EXDEV for a `.` or `..` step, which could lead out).
    static func openWithoutLinks(_ relative: String, from folder: Int32) -> Int32 {
        var names = relative.split(separator: "/").map(String.init)
        guard !names.contains(where: { $0 == ".." || $0 == "." }) else {
            errno = EXDEV
            return -1
        }
        guard let leaf = names.popLast() else {
            errno = ENOENT
            return -1
        }
        var current = folder
        for name in names {
            let next = openat(current, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let error = errno
            if current != folder { close(current) }
            guard next >= 0 else {
                errno = error
                return -1
            }
            current = next
        }
        let fd = openat(current, leaf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        let error = errno
        if current != folder { close(current) }
        errno = error
        return fd
    }

    /// Reads the regular file open at `fd` straight into an array, and closes it. Every open
    /// for it passes `O_NONBLOCK`: a named pipe put where a file was expected would otherwise
    /// block the open, and the build with it, before `fstat` could refuse it. On a regular file
    /// the flag changes nothing.
    static func read(_ fd: Int32, maxBytes: Int) -> Result<(bytes: [UInt8], status: FileStatus), ReadFailure> {
        guard fd >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.unreadable("not a regular file")) }
        guard Int(info.st_size) <= maxBytes else { return .failure(.tooLarge(size: Int(info.st_size), limit: maxBytes)) }
        let status = FileStatus(info)
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .failure(.unreadable(count == 0 ? "the file shrank while it was read" : String(cString: strerror(errno)))) }
            done += count
        }
        return .success((bytes, status))
    }

    /// The name of an entry `readdir` returned, read where it lies up to its end. The kernel packs
    /// entries to their names' lengths, so `entry.pointee` (the whole `dirent`, with a 256-byte
    /// name field) read past the last entry of glibc's buffer: a cold `check` of `large` crashed
    /// in 3 runs of 4 when that buffer ended a heap mapping.
    static func entryName(_ entry: UnsafePointer<dirent>) -> String {
        String(cString: (UnsafeRawPointer(entry) + Self.nameOffset).assumingMemoryBound(to: CChar.self))
    }

    /// Where `d_name` starts in a `dirent`.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The `count` bytes at `offset`, retrying after a signal and a short read; `nil` when they
    /// are not all there or could not be read.
    static func read(_ fd: Int32, at offset: Int, count: Int) -> ArraySlice<UInt8>? {
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                done += n
            }
            complete = done == count
            initialized = done
        }
        return complete ? bytes[...] : nil
    }

    /// Writes every byte, retrying after a signal; the `errno` of a failure, `nil` on success.
    static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
    }

    /// What stands at a path, for walks in other targets: there `stat`'s struct is not always
    /// visible (MemberImportVisibility), and a walk must not follow a link unawares. A folder
    /// comes with its device and inode, by which a walk enters each folder once.
    package enum Kind: Hashable, Sendable {
        case folder(device: UInt64, inode: UInt64)
        case file
        case link
        case other
    }

    /// The kind of what stands at `path`, by `lstat`: a link is a link; `nil` when nothing is there.
    package static func kind(of path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        case S_IFREG: return .file
        case S_IFLNK: return .link
        default: return .other
        }
    }

    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The wall clock in nanoseconds since 1970, the scale of file times: read where a command
    /// starts listing files, to judge which of them are too recent to trust (`FileStatus`).
    package static func realtimeNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Paths, relative to `folder`, of the regular files below it; hidden entries are skipped.
    /// Empty when the folder does not exist. Symbolic links to folders are not followed, so a link
    /// loop or a link to `/` costs nothing.
    package static func regularFiles(under folder: String) -> [String] { regularFiles(under: folder, reusing: FolderListings(), at: 0).files }

    /// The regular files below `folder`, as above, reusing the entries of each folder whose status
    /// is the one `known` holds, and each folder's entries as listed now, for the next listing
    /// (taken from `instant`, nanoseconds since 1970); and how many folders `listings` holds
    /// otherwise than `known` (`FileKeys.changes(from:to:)`), counted on the way: comparing the two
    /// afterwards looked 66,000 paths up, a tenth of a check after an edit.
    ///
    /// `check` lists the whole output this way (34,000 files in 33,000 folders on a 20,000-post
    /// site): no link to a folder is followed, so none can loop, and the folders two levels down
    /// are walked on all cores.
    package static func regularFiles(under folder: String, reusing known: FolderListings, at instant: Int64)
        -> (files: [String], listings: FolderListings, changes: Int)
    {
        var listings = FolderListings(takenAt: instant)
        var count = Count()
        var (files, folders) = listFolder(folder, "", known: known, into: &listings, counting: &count)
        var below: [String] = []
        for relative in folders {
            let (more, inner) = listFolder(folder, relative, known: known, into: &listings, counting: &count)
            files += more
            below += inner
        }
        // One listing per run of subtrees, not per subtree: 20,000 post folders were 20,000
        // dictionaries to merge.
        let subtrees = Parallel.mapBlocking(Parallel.runs(of: below)) { run in
            var files: [String] = []
            var listed = FolderListings(takenAt: instant)
            var count = Count()
            for top in run {
                var stack = [top]
                while let next = stack.popLast() {
                    let (more, inner) = listFolder(folder, next, known: known, into: &listed, counting: &count)
                    files += more
                    stack += inner
                }
            }
            return (files, listed.entries, count)
        }
        for (more, listed, counted) in subtrees {
            files += more
            listings.entries.merge(listed) { first, _ in first }
            count.changed += counted.changed
            count.known += counted.known
        }
        // Each folder listed anew or unlisted now, and each one `known` held that is gone.
        return (files, listings, count.changed + known.entries.count - count.known)
    }

    /// Folders recorded otherwise than `known` holds them, and folders recorded that it holds.
    private struct Count {
        var changed = 0
        var known = 0
    }

    /// One folder's files and subfolders as paths relative to `root`: from `known` when the
    /// folder's status is the one stored, else read; recorded in `listings` unless it holds a link.
    private static func listFolder(
        _ root: String, _ relative: String, known: FolderListings, into listings: inout FolderListings, counting count: inout Count
    ) -> (files: [String], folders: [String]) {
        // Only `root` itself may be reached through a link.
        guard let status = FileStatus(folderAt: relative.isEmpty ? root : root + "/" + relative, followingLinks: relative.isEmpty)
        else { return ([], []) }
        let prefix = relative.isEmpty ? "" : relative + "/"
        let entries: FolderEntries
        let stored = known.entries[relative]
        if let stored, let cached = known.value(of: stored, status: status) {
            entries = cached
        } else {
            guard let (read, hasLinks) = readFolder(root, relative) else { return ([], []) }
            entries = read
            if hasLinks { return (read.files.map { prefix + $0 }, read.folders.map { prefix + $0 }) }
            count.changed += 1
        }
        if stored != nil { count.known += 1 }
        listings.set(relative, status: status, value: entries)
        return (entries.files.map { prefix + $0 }, entries.folders.map { prefix + $0 })
    }

    /// The names of one folder's regular files (links to regular files included) and subfolders,
    /// hidden entries skipped, and whether it holds a link; `nil` when it cannot be opened. Only
    /// `root` itself may be reached through a link.
    private static func readFolder(_ root: String, _ relative: String) -> (names: FolderEntries, hasLinks: Bool)? {
        let fd = relative.isEmpty ? open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            : open(root + "/" + relative, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard let stream = fdopendir(fd) else {
            close(fd)
            return nil
        }
        defer { closedir(stream) }
        var files: [String] = []
        var folders: [String] = []
        var hasLinks = false
        while let entry = readdir(stream) {
            let name = entryName(entry)
            guard !name.hasPrefix(".") else { continue }
            var kind = entry.pointee.d_type
            if kind == UInt8(DT_UNKNOWN) {
                // A file system that does not say: ask, without following a link.
                var info = stat()
                guard fstatat(dirfd(stream), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                let format = info.st_mode & S_IFMT
                kind = format == S_IFDIR ? UInt8(DT_DIR) : format == S_IFREG ? UInt8(DT_REG) : format == S_IFLNK ? UInt8(DT_LNK) : 0
            }
            if kind == UInt8(DT_LNK) {
                // A link counts as the regular file it names; a link to a folder is not followed.
                hasLinks = true
                var info = stat()
                guard fstatat(dirfd(stream), name, &info, 0) == 0 else { continue }
                kind = info.st_mode & S_IFMT == S_IFREG ? UInt8(DT_REG) : 0
            }
            if kind == UInt8(DT_DIR) {
                folders.append(name)
            } else if kind == UInt8(DT_REG) {
                files.append(name)
            }
        }
        return (FolderEntries(files: files, folders: folders), hasLinks)
    }

    /// Whether the real location of `path` (all links resolved) is inside `root`'s.
    package static func isInside(_ path: String, root: String) -> Bool {
        guard let real = realPath(path), let realRoot = realPath(root) else { return false }
        return contains(realRoot, real)
    }

    /// Whether the real path `real` is `realRoot` or below it.
    static func contains(_ realRoot: String, _ real: String) -> Bool {
        real == realRoot || path(of: real, below: realRoot) != nil
    }

    /// The path of the real path `real` relative to `realRoot`, when it is below it.
    static func path(of real: String, below realRoot: String) -> String? {
        let prefix = realRoot.hasSuffix("/") ? realRoot : realRoot + "/"
        return real.hasPrefix(prefix) ? String(real.dropFirst(prefix.count)) : nil
    }

    /// `path` with every link resolved; `nil` when it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

}

extension FileStatus {
    /// The status of the folder at `path` (of the folder a link names, when `followingLinks`);
    /// `nil` for anything else.
    init?(folderAt path: String, followingLinks: Bool) { self.init(path, followingLinks: followingLinks, kind: S_IFDIR) }

    /// The status of the regular file at `path` (of the file a link names, unless
    /// `followingLinks` is false); `nil` for anything else.
    init?(path: String, followingLinks: Bool = true) { self.init(path, followingLinks: followingLinks, kind: S_IFREG) }

    /// The status of what stands at `path` when it is of `kind` (`S_IFREG`, `S_IFDIR`).
    private init?(_ path: String, followingLinks: Bool, kind: mode_t) {
        var info = stat()
        let found = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard found == 0, (info.st_mode & S_IFMT) == kind else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        self.init(
            size: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec), inode: UInt64(info.st_ino),
            device: UInt64(info.st_dev))
    }
}
