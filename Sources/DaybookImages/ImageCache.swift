import DaybookModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder `<site>/.daybook-cache/images/`, holding one entry per source and settings.
///
/// An entry is a folder named by its key, holding the copies and `manifest.json`. It is written
/// in a fresh temporary folder and renamed into place, so a reader sees all of an entry or none of
/// it, even if a build is killed halfway. Nothing here follows a symbolic link: the cache folder
/// and its parent must be real folders, files are created with `O_EXCL | O_NOFOLLOW` inside a
/// folder this process just made, and names are hex digits and fixed words, so no write can land
/// outside the cache folder.
package struct ImageCache: Sendable {
    package let folder: URL
    let folderPath: String
    /// Asked before each file of an entry and the index is written (`WriteFaults`).
    let faults: WriteFaults

    /// Creates the folder (and its parent) when missing; fails when either is a symbolic link or a file.
    package init(folder: URL, faults: WriteFaults = .none) throws(ImageError) {
        self.faults = faults
        self.folder = folder.standardizedFileURL
        self.folderPath = self.folder.path.hasSuffix("/") ? String(self.folder.path.dropLast()) : self.folder.path
        let parent = self.folder.deletingLastPathComponent()
        for url in [parent, self.folder] {
            if mkdir(url.path, 0o755) != 0, errno != EEXIST {
                throw Self.error("cannot create \(url.path): \(String(cString: strerror(errno)))")
            }
            guard Self.isRealFolder(url.path) else {
                throw Self.error("\(url.path) is not a folder (a symbolic link or a file?)")
            }
        }
    }

    /// What an entry's `manifest.json` holds: the files it names, each checked when the entry is read.
    protocol EntryManifest: Codable {
        var files: [Manifest.File] { get }
        /// `false` for an entry an older build made that this one must make again.
        var isCurrent: Bool { get }
    }

    struct Manifest: EntryManifest, Codable, Hashable, Sendable {
        struct File: Codable, Hashable, Sendable {
            var name: String
            var width: Int
            var height: Int
            var byteCount: Int
            /// `StableHash.of` the bytes, the hash the output writer records: with it, a build whose
            /// output already holds this copy neither reads nor hashes it again. `nil` in entries
            /// made before it was kept; those are read and hashed.
            var contentHash: UInt64? = nil
        }
        var uprightWidth: Int
        var uprightHeight: Int
        var orientation: Int
        var dominantColor: String
        var copies: [File]
        var thumbnail: File
        var original: File?
        /// The link preview's copy (`ImageSettings.linkPreviewWidth` wide), made only when the
        /// photo is that wide and no `srcset` candidate is: it is no candidate, since the contract
        /// fixes those by `images.widths` alone.
        var share: File? = nil

        /// Every file the entry holds.
        var files: [File] { copies + [thumbnail] + [original, share].compactMap { $0 } }

        /// An entry made before link previews had their copy, for a photo that needs one: made
        /// again, rather than giving every cache entry of every site a new key.
        var lacksShareCopy: Bool {
            share == nil && uprightWidth >= ImageSettings.linkPreviewWidth
                && !copies.contains { $0.width >= ImageSettings.linkPreviewWidth }
        }

        var isCurrent: Bool { !lacksShareCopy }
    }

    /// An entry's manifest names a handful of files: a few hundred bytes.
    static let maxManifestBytes = 1 << 20

    func entryFolder(_ key: String) -> URL { folder.appendingPathComponent(key, isDirectory: true) }

    /// The same folder as a path, for the per-photo work of every build.
    func entryPath(_ key: String) -> String { folderPath + "/" + key }

    /// The entry for `key` when it is complete: its manifest reads and every file it names is
    /// there with its size. Anything else is a miss, and the entry is made again.
    func entry<M: EntryManifest>(_ key: String, as kind: M.Type = Manifest.self) -> M? {
        let entry = entryFolder(key)
        guard Self.isRealFolder(entry.path),
            let data = Self.readFile(entry.appendingPathComponent("manifest.json").path, maxBytes: Self.maxManifestBytes),
            let manifest = try? JSONDecoder().decode(M.self, from: Data(data)), manifest.isCurrent
        else { return nil }
        for file in manifest.files {
            guard Self.isSafeName(file.name), Self.regularFileSize(entry.appendingPathComponent(file.name).path) == file.byteCount else {
                return nil
            }
        }
        return manifest
    }

    /// Writes the files and then the manifest into a temporary folder, and renames it to the key.
    /// When another build stored the same key first, its entry is kept and this one dropped.
    func store<M: EntryManifest>(_ key: String, files: [(name: String, bytes: [UInt8])], manifest: M) throws(ImageError) {
        let temporary = folder.appendingPathComponent(".tmp-\(key)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        guard mkdir(temporary, 0o755) == 0 else {
            throw Self.error("cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        var renamed = false
        defer { if !renamed { Self.removeFolder(temporary) } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(manifest) else { throw Self.error("cannot encode the manifest") }
        for file in files + [(name: "manifest.json", bytes: Array(json))] {
            precondition(Self.isSafeName(file.name))
            if let code = faults.failure(at: .cache("images/\(key)/\(file.name)")) {
                throw Self.error("cannot write \(temporary)/\(file.name): \(String(cString: strerror(code)))")
            }
            try Self.writeNew(temporary + "/" + file.name, file.bytes)
        }
        let final = entryFolder(key).path
        if rename(temporary, final) == 0 {
            renamed = true
        } else if errno == EEXIST || errno == ENOTEMPTY, entry(key, as: M.self) != nil {
            return  // a concurrent build got there first; the defer removes ours
        } else {
            // A damaged entry is in the way: move it aside, then retry once.
            let stale = final + ".stale-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            if rename(final, stale) == 0 { Self.removeFolder(stale) }
            guard rename(temporary, final) == 0 else {
                throw Self.error("cannot rename \(temporary) to \(final): \(String(cString: strerror(errno)))")
            }
            renamed = true
        }
    }

    // MARK: - Files, without following links

    /// The bytes of a copy in the cache, for the build to publish; `nil` when it is not a
    /// regular file of `byteCount` bytes (what its entry records).
    package static func contents(atPath path: String, byteCount: Int) -> [UInt8]? { readFile(path, byteCount: byteCount) }

    /// The size of a regular file in the cache; `nil` when it is missing or not a regular file.
    package static func size(of url: URL) -> Int? { regularFileSize(url.path) }

    static func error(_ detail: String) -> ImageError { ImageError(path: ".daybook-cache", reason: .cache(detail: detail)) }

    static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }

    static func isRealFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The largest file the cache reads: a copy of a photo is a few MB, a stripped original
    /// rarely over 50.
    static let maxFileBytes = 512 << 20

    /// The bytes of a regular file, not through a link at its name, checked by the open file's
    /// status before anything is read: of `byteCount` bytes when given, and at most `maxBytes`.
    /// `O_NONBLOCK` keeps a named pipe put there from blocking the open.
    static func readFile(_ path: String, byteCount: Int? = nil, maxBytes: Int = maxFileBytes) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maxBytes,
            byteCount.map({ $0 == Int(info.st_size) }) ?? true
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }

    static func writeNew(_ path: String, _ bytes: [UInt8]) throws(ImageError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw error("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            guard n > 0 else { throw error("cannot write \(path): \(String(cString: strerror(errno)))") }
            done += n
        }
    }

    /// Removes a folder this process made (files only one level deep), without following links.
    static func removeFolder(_ path: String) {
        guard isRealFolder(path), let dir = opendir(path) else { return }
        while let item = readdir(dir) {
            // Read where it lies: `item.pointee` would copy the whole `dirent`, past the end of a
            // short last entry (`FileInfo.entryName`, which this target does not see).
            let name = String(cString: (UnsafeRawPointer(item) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(to: CChar.self))
            if name != ".", name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
        rmdir(path)
    }
}
