import DaybookModel
import DaybookRender
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a write changed in the output folder.
public struct WriteReport: Sendable, Hashable {
    public var written: Int = 0
    public var unchanged: Int = 0
    public var removed: Int = 0
    /// Paths written and removed, for `--verbose`.
    public var writtenPaths: [String] = []
    public var removedPaths: [String] = []

    public init(written: Int = 0, unchanged: Int = 0, removed: Int = 0) {
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
    }

    public static func == (a: WriteReport, b: WriteReport) -> Bool {
        (a.written, a.unchanged, a.removed) == (b.written, b.unchanged, b.removed)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine([written, unchanged, removed]) }
}

/// A problem writing the output folder, with what to do about it.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): error: \(reason)" }
}

/// Brings the output folder to exactly the files of a build, touching as little as it can.
///
/// Protocol: `begin` (check, before anything is written, that no page would overwrite a file
/// the build did not write; record every path it is about to write), `write` batches, then
/// `finish` (remove what the previous build wrote and this one did not; save the manifest).
///
/// - Each file is written beside its place and renamed over it, so a reader never sees half a
///   page, and a build killed mid-way leaves every file old or new. The manifest saved by
///   `begin` already names the new paths, so the next build still owns and cleans them up.
/// - A file is not touched when its hash and size match the manifest and the file on disk has
///   that size: modification times stay, and sync tools see nothing to do.
/// - A file the build did not write is never removed or replaced (unless `force`).
///
/// The whole folder is not swapped in one rename: that would mean re-linking every unchanged
/// file into a staged tree on every build, and replacing the folder under tools (and `serve`)
/// that hold it open. Per-file atomic replacement keeps both of those working.
public struct OutputWriter: Sendable {
    public static let manifestName = ".daybook-manifest"
    public let directory: URL
    public let force: Bool

    public init(directory: URL, force: Bool = false) {
        self.directory = directory
        self.force = force
    }

    /// The manifest of the previous build into this folder; empty when there is none.
    public func previousManifest() -> BuildManifest {
        guard let data = FileManager.default.contents(atPath: directory.appending(path: Self.manifestName).path),
            let text = String(data: data, encoding: .utf8)
        else { return BuildManifest() }
        return BuildManifest(text: text) ?? BuildManifest()
    }

    /// Checks every path before the first write, and records them as the build's own.
    public func begin(paths: [String], previous: BuildManifest) throws(OutputError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw OutputError(path: directory.path, reason: "cannot create the output folder: \(error.localizedDescription)")
        }
        var conflicts: [String] = []
        for path in paths where previous.files[path] == nil {
            if FileManager.default.fileExists(atPath: directory.appending(path: path).path) { conflicts.append(path) }
        }
        if !conflicts.isEmpty && !force {
            let shown = conflicts.sorted().prefix(5).joined(separator: ", ")
            let more = conflicts.count > 5 ? " and \(conflicts.count - 5) more" : ""
            throw OutputError(
                path: conflicts.sorted()[0],
                reason: "the build would replace \(shown)\(more), which it did not write; move them away, or pass --force to let the build own them")
        }
        var intent = previous
        for path in paths where intent.files[path] == nil { intent.files[path] = .init(hash: 0, size: -1) }
        try saveManifest(intent)
    }

    /// Writes the files whose bytes differ from what the previous build wrote. Returns their entries.
    public func write(_ files: [RenderedFile], previous: BuildManifest, report: inout WriteReport) throws(OutputError) -> [String: BuildManifest.FileEntry] {
        var entries: [String: BuildManifest.FileEntry] = [:]
        var madeFolders = Set<String>()
        for file in files {
            let entry = BuildManifest.FileEntry(hash: StableHash.of(file.bytes), size: file.bytes.count)
            entries[file.path] = entry
            let url = directory.appending(path: file.path)
            if let old = previous.files[file.path], old == entry, Self.size(of: url.path) == entry.size {
                report.unchanged += 1
                continue
            }
            let folder = url.deletingLastPathComponent().path
            // A stat is far cheaper than FileManager's createDirectory on a folder that exists.
            if !madeFolders.contains(folder) && !Self.isFolder(folder) {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    throw OutputError(path: file.path, reason: "cannot create its folder: \(error.localizedDescription)")
                }
                madeFolders.insert(folder)
            }
            try Self.replace(url.path, with: file.bytes, displayPath: file.path)
            report.written += 1
            report.writtenPaths.append(file.path)
        }
        return entries
    }

    /// Keeps a file the previous build wrote, unrendered and untouched; `nil` when there is none.
    public func keep(_ path: String, previous: BuildManifest, report: inout WriteReport) -> BuildManifest.FileEntry? {
        guard let entry = previous.files[path] else { return nil }
        report.unchanged += 1
        return entry
    }

    /// Whether the file the previous build wrote at `path` is still in place, so it can be kept.
    public func canKeep(_ path: String, previous: BuildManifest) -> Bool {
        guard let entry = previous.files[path], entry.hash != 0 else { return false }
        return Self.size(of: directory.appending(path: path).path) == entry.size
    }

    /// Removes what the previous build wrote and this one did not, then saves the new manifest.
    public func finish(_ manifest: BuildManifest, previous: BuildManifest, report: inout WriteReport) throws(OutputError) {
        for stale in previous.files.keys.filter({ manifest.files[$0] == nil }).sorted() {
            let url = directory.appending(path: stale)
            if (try? FileManager.default.removeItem(at: url)) != nil {
                report.removed += 1
                report.removedPaths.append(stale)
                pruneEmptyFolders(above: url)
            }
        }
        try saveManifest(manifest)
    }

    private func saveManifest(_ manifest: BuildManifest) throws(OutputError) {
        try Self.replace(
            directory.appending(path: Self.manifestName).path, with: Array(manifest.text.utf8), displayPath: Self.manifestName)
    }

    static func isFolder(_ path: String) -> Bool { FileInfo.isFolder(path) }

    static func size(of path: String) -> Int? { FileInfo.regularFile(path)?.size }

    /// Writes `bytes` to a temporary file beside `path` and renames it over `path`.
    /// No fsync: a crash may lose the newest bytes, never leave a half-written page in place.
    static func replace(_ path: String, with bytes: [UInt8], displayPath: String) throws(OutputError) {
        let temporary = path + ".daybook-tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(path: displayPath, reason: "cannot write: \(String(cString: strerror(errno)))") }
        var offset = 0
        let failed: Int32? = bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let n = posixWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        close(fd)
        if let failed {
            unlink(temporary)
            throw OutputError(path: displayPath, reason: "cannot write: \(String(cString: strerror(failed)))")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw OutputError(path: displayPath, reason: "cannot replace: \(reason)")
        }
    }

    private func pruneEmptyFolders(above file: URL) {
        var folder = file.deletingLastPathComponent()
        let root = directory.standardizedFileURL.path
        while folder.standardizedFileURL.path.count > root.count,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path), entries.isEmpty
        {
            try? FileManager.default.removeItem(at: folder)
            folder = folder.deletingLastPathComponent()
        }
    }
}

/// `write(2)`, named apart from `OutputWriter.write` so the call inside the type resolves to the system call.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
