import DaybookBuild
import Foundation

/// Every file and folder below a folder, hidden ones included, with the files' bytes, for
/// byte-for-byte comparisons of output folders.
package struct FolderState: Equatable, Sendable, CustomStringConvertible {
    package var entries: [String: Data?] = [:]
    /// Whether the folder itself was there: a failed first build leaves none (CONTRACT §6).
    package var isPresent = false

    package init(_ folder: URL) {
        var isFolder: ObjCBool = false
        isPresent = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue
        guard let walk = FileManager.default.enumerator(atPath: folder.path) else { return }
        for case let path as String in walk {
            var isFolder: ObjCBool = false
            let full = folder.appending(path: path).path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                entries[path] = .some(nil)
            } else {
                entries[path] = FileManager.default.contents(atPath: full)
            }
        }
    }

    package var paths: [String] { entries.keys.sorted() }

    /// The same, with the build's record read for the files it records: an incremental build
    /// lists them in the order of the record before it, a fresh one in its own.
    package var recordByContent: FolderState {
        var copy = self
        if case .some(.some(let data)) = entries[OutputWriter.manifestName],
            let manifest = BuildManifest(text: String(decoding: data, as: UTF8.self))
        {
            copy.entries[OutputWriter.manifestName] = Data(String(describing: manifest.files.sorted { $0.key < $1.key }).utf8)
        }
        return copy
    }

    package func without(_ path: String) -> FolderState {
        var copy = self
        copy.entries[path] = nil
        return copy
    }

    /// What differs, for a failure's message.
    package func differences(from other: FolderState) -> [String] {
        Set(entries.keys).union(other.entries.keys).sorted().filter { entries[$0] != other.entries[$0] }
    }

    package var description: String { "\(entries.count) entries" }
}

extension SiteFixture {
    /// A copy of the whole site folder in a fresh temporary folder, less `leaving`.
    package func copy(leaving: [String] = []) throws -> SiteFixture {
        let copy = try SiteFixture("")
        try FileManager.default.removeItem(at: copy.directory)
        try FileManager.default.copyItem(at: directory, to: copy.directory)
        for name in leaving { try? FileManager.default.removeItem(at: copy.directory.appending(path: name)) }
        return copy
    }
}
