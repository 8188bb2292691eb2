import DaybookModel
import Foundation

/// A file in `<site>/.daybook-cache/`: the build's memo (`memo`) and the check's container
/// (`check`), both `MemoContainer`s (`MemoFile`).
///
/// A cache only ever saves work: a file that cannot be read is no cache. One that cannot be
/// written (a full disk, a folder without write permission) is an error all the same, as every
/// failed write of a build is (CONTRACT §6), so that a build never reports success over a
/// disk it could not write. Neither the folder nor the file is followed if it is a symbolic
/// link, so nothing outside the cache folder is read or written through one: a cache folder
/// that is a link is passed over, without an error.
///
/// Each file starts with a line naming the `daybook` executable that wrote it (its size, times
/// and inode): another build of Daybook may decode content or read pages differently, so its
/// cache is not used. `MemoFile.open` reads them by these rules.
package enum CacheFile {
    /// The first line of every cache file this executable writes.
    static let identity: [UInt8] = {
        Array("daybook-cache \(FileStatus.executableFields)\n".utf8)
    }()

    /// Replaces `name` with what `produce` hands its writer, piece by piece, through a temporary
    /// file, so a reader never sees half of one. Returns the error when the file could not be
    /// written (the old one, if any, is then left as it was).
    @discardableResult
    package static func save(
        site: URL, name: String, faults: WriteFaults = .none, _ produce: ((ArraySlice<UInt8>) -> Void) -> Void
    ) -> Diagnostic? {
        let folder = folder(site)
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST else { return failure(name, "create the folder", errno) }
        guard isRealFolder(folder) else { return nil }
        let file = folder + "/" + name
        // Unique per save: two builds of one site may save the same cache at once (in one
        // process, the tests do).
        let temporary = file + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        removeTemporaries(of: name, in: folder)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return failure(name, "write", errno) }
        // An injected failure strikes after the file was made, as a full disk does.
        var writes = GatheredWrites(descriptor: fd, failed: faults.failure(at: .cache(name)))
        writes.put(identity[...])
        produce { writes.put($0) }
        writes.flush()
        close(fd)
        var failed = writes.failed
        if failed == nil && rename(temporary, file) != 0 {
            // ENOENT: a build saving the same cache at this moment cleared the temporary (see
            // `removeTemporaries`); its save stands, and this one is skipped, as a cache may be.
            if errno == ENOENT { return nil }
            failed = errno
        }
        guard let failed else { return nil }
        unlink(temporary)
        return failure(name, "write", failed)
    }

    /// The error of a cache file that could not be saved, at the file, with what to do.
    static func failure(_ name: String, _ action: String, _ code: Int32) -> Diagnostic {
        .error(
            "cannot \(action) the cache: \(String(cString: strerror(code))); free some space and run again (the cache only saves work: deleting .daybook-cache is safe)",
            at: SourceLocation(path: ".daybook-cache/" + name))
    }

    /// Removes the temporaries of `name` that killed builds left (`name.tmp-PID`, up to 1 GB
    /// each, which no later build would otherwise remove). One of a build saving the same cache
    /// at this moment goes too; its rename then fails, and it skips its save, as a cache may.
    /// - Parameter sparing: the name of a temporary to leave, the caller's own.
    static func removeTemporaries(of name: String, in folder: String, sparing: String? = nil) {
        // Opened without following a link, so a folder swapped for one since it was checked is
        // not the one emptied.
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folderFD >= 0 else { return }
        guard let stream = fdopendir(folderFD) else {
            close(folderFD)
            return
        }
        defer { closedir(stream) }
        let prefix = name + ".tmp-"
        let fd = dirfd(stream)
        while let entry = readdir(stream) {
            let entryName = FileInfo.entryName(entry)
            // Removed by name within the folder, never followed: a link there goes, not its target.
            if entryName.hasPrefix(prefix) && entryName != sparing { unlinkat(fd, entryName, 0) }
        }
    }

    static func folder(_ site: URL) -> String { site.appending(path: ".daybook-cache").path }

    static func isRealFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
