import DaybookModel
import DaybookRender
import Foundation

/// What a write changed in the output folder.
public struct WriteReport: Sendable, Hashable {
    public var written: Int = 0
    public var unchanged: Int = 0
    public var removed: Int = 0

    public init(written: Int = 0, unchanged: Int = 0, removed: Int = 0) {
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
    }
}

/// A problem writing the output folder, with what to do about it.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): error: \(reason)" }
}

/// Brings the output folder to exactly the rendered files.
///
/// It is called only after the whole site rendered without error, so a failed build never
/// touches the folder. Each file is written beside its place and renamed over it, so no reader
/// sees half a page; a file whose bytes are unchanged is not touched at all. Files an earlier
/// build wrote (listed in the manifest) and this one does not produce are removed; files the
/// build never wrote are left alone.
public struct OutputWriter: Sendable {
    public static let manifestName = ".daybook-manifest"
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public func write(_ files: [RenderedFile]) throws(OutputError) -> WriteReport {
        var report = WriteReport()
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw OutputError(path: directory.path, reason: "cannot create the output folder: \(error.localizedDescription)")
        }
        let previous = readManifest()
        for file in files {
            let url = directory.appending(path: file.path)
            if let existing = fm.contents(atPath: url.path), existing.elementsEqual(file.bytes) {
                report.unchanged += 1
                continue
            }
            do {
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: url, options: .atomic)
            } catch {
                throw OutputError(path: file.path, reason: "cannot write: \(error.localizedDescription)")
            }
            report.written += 1
        }
        let produced = Set(files.map(\.path))
        for stale in previous.subtracting(produced).sorted() {
            let url = directory.appending(path: stale)
            if (try? fm.removeItem(at: url)) != nil {
                report.removed += 1
                pruneEmptyFolders(above: url)
            }
        }
        let manifest = files.map(\.path).sorted { $0.scalarsPrecede($1) }.joined(separator: "\n") + "\n"
        do {
            try Data(manifest.utf8).write(to: directory.appending(path: Self.manifestName), options: .atomic)
        } catch {
            throw OutputError(path: Self.manifestName, reason: "cannot write the manifest: \(error.localizedDescription)")
        }
        return report
    }

    /// The paths the previous build wrote; empty for a folder Daybook has not written before.
    func readManifest() -> Set<String> {
        guard let data = FileManager.default.contents(atPath: directory.appending(path: Self.manifestName).path),
            let text = String(data: data, encoding: .utf8)
        else { return [] }
        return Set(text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.contains("..") })
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
