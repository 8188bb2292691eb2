import DaybookModel

/// The content key of each file a check read, with the file's status at the time: the next check
/// takes the key from a file's status alone when it has not changed, and reads only the files that
/// did (after a one-post edit, a few pages of 32,000; reading and hashing them all was a quarter
/// of the check). A link is still resolved, and a page still checked, against its facts as cached
/// by that key. The folders' entries are kept beside the keys (`FolderListings`), so an unchanged
/// folder is not read either. Both follow `StatusMemo`'s rule for files changed just before a check.
///
/// Kept as a value in a container in the site's `.daybook-cache` (`CheckContainer`, and the
/// build's memo for its sources), which is untrusted: an archive that does not read whole is
/// empty, and a key is used only for the path it was stored with and the very same status.
package struct FileKeys: Sendable, Equatable {
    /// Each file's key, by path relative to the output folder (`daybook build` keeps its sources'
    /// content keys the same way, by path relative to the site folder: `SourceKeysStep`).
    package private(set) var keys: StatusMemo<UInt64>
    /// The output's folders as this check listed them.
    package var folders = FolderListings()

    /// - Parameter checkedAt: when the statuses were taken (nanoseconds since 1970).
    package init(checkedAt: Int64 = 0) { keys = StatusMemo(takenAt: checkedAt) }

    package var checkedAt: Int64 { keys.takenAt }

    /// The key of `path`'s bytes when its status is the stored one and was settled when stored.
    package func key(_ path: String, status: FileStatus) -> UInt64? { keys.value(path, status: status) }

    package mutating func set(_ path: String, status: FileStatus, key: UInt64) { keys.set(path, status: status, value: key) }

    /// How many entries `new` holds otherwise than `old` (changed, come or gone), or holds as
    /// `old` does but too recently to have been trusted: what a check that took `old` instead of
    /// `new` looks at again.
    static func changes<Value: Equatable>(from old: StatusMemo<Value>, to new: StatusMemo<Value>) -> Int {
        var count = old.entries.keys.count { new.entries[$0] == nil }
        for (path, entry) in new.entries where old.entries[path] != entry || !entry.status.isSettled(before: old.takenAt) { count += 1 }
        return count
    }

    /// Room for `count` files' keys, set one by one after.
    mutating func reserveCapacity(_ count: Int) { keys.entries.reserveCapacity(count) }

    /// Whether the next check could trust every entry: none was written within the racy window.
    package var allSettled: Bool { keys.allSettled && folders.allSettled }

    // MARK: - Archive

    package init(archive: ArraySlice<UInt8>) {
        self.init()
        guard let keys = Self.keys(archive: archive), let folders = Self.folders(archive: archive) else { return }
        (self.keys, self.folders) = (keys, folders)
    }

    /// The files' keys alone, `nil` when they do not read whole: `check` reads them beside the
    /// page facts while it lists the output, which needs the folders alone.
    package static func keys(archive: ArraySlice<UInt8>) -> StatusMemo<UInt64>? {
        var reader = ByteReader(archive, at: archive.startIndex)
        guard let checkedAt = reader.int(), let count = reader.listCount(minimumBytes: 8 * 7) else { return nil }
        var keys = StatusMemo<UInt64>(takenAt: Int64(checkedAt))
        keys.entries.reserveCapacity(count)
        for _ in 0..<count {
            guard let path = reader.string(), let status = reader.status(), let key = reader.uint64() else { return nil }
            keys.set(path, status: status, value: key)
        }
        return keys
    }

    /// The folders' entries alone, read past the keys without keeping them; `nil` when the
    /// archive does not read whole. A folder's entries are taken only while its status is the
    /// one stored, so a listing may take them before the keys are read.
    package static func folders(archive: ArraySlice<UInt8>) -> FolderListings? {
        var reader = ByteReader(archive, at: archive.startIndex)
        guard reader.int() != nil, let count = reader.listCount(minimumBytes: 8 * 7) else { return nil }
        // Each key: a path, five numbers for the status, and the key.
        for _ in 0..<count {
            guard let length = reader.count(), reader.bytes(length) != nil, reader.bytes(8 * 6) != nil else { return nil }
        }
        // Each folder is at least a length, five numbers and two counts.
        guard let listedAt = reader.int(), let folderCount = reader.listCount(minimumBytes: 8 * 8) else { return nil }
        var folders = FolderListings(takenAt: Int64(listedAt))
        folders.entries.reserveCapacity(folderCount)
        for _ in 0..<folderCount {
            guard let path = reader.string(), let status = reader.status(), let files = reader.strings(), let subfolders = reader.strings()
            else { return nil }
            folders.set(path, status: status, value: FolderEntries(files: files, folders: subfolders))
        }
        return reader.atEnd ? folders : nil
    }

    /// Keys and folders read apart (`keys(archive:)`, `folders(archive:)`).
    package init(keys: StatusMemo<UInt64>, folders: FolderListings) { (self.keys, self.folders) = (keys, folders) }

    package var archive: [UInt8] {
        var writer = ByteWriter()
        writer.int(Int(keys.takenAt))
        writer.uint32(UInt32(keys.entries.count))
        // Sorted as pairs: each path is then not looked up again (68,000 of them on medium).
        for (path, entry) in keys.entries.sorted(by: { $0.key < $1.key }) {
            writer.string(path)
            writer.status(entry.status)
            writer.uint64(entry.value)
        }
        writer.int(Int(folders.takenAt))
        writer.uint32(UInt32(folders.entries.count))
        for (path, entry) in folders.entries.sorted(by: { $0.key < $1.key }) {
            writer.string(path)
            writer.status(entry.status)
            writer.strings(entry.value.files)
            writer.strings(entry.value.folders)
        }
        return writer.bytes
    }
}

extension ByteWriter {
    fileprivate mutating func status(_ status: FileStatus) {
        int(Int(status.size))
        int(Int(status.modified))
        int(Int(status.changed))
        uint64(status.inode)
        uint64(status.device)
    }
}

extension ByteReader {
    fileprivate mutating func status() -> FileStatus? {
        guard let size = int(), let modified = int(), let changed = int(), let inode = uint64(), let device = uint64() else { return nil }
        return FileStatus(size: Int64(size), modified: Int64(modified), changed: Int64(changed), inode: inode, device: device)
    }
}
