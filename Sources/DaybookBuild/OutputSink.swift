import DaybookModel
import Foundation

/// What is at a path below the output folder, found without following any link.
package enum OutputEntry: Sendable, Hashable {
    case absent
    case file(size: Int)
    case folder
    /// A symbolic link at `at`: the path itself, or a folder on its way.
    case link(at: String)
    /// At `at`, a folder on the way, something that is not a folder; or, at the path itself,
    /// something that is neither file, folder nor link.
    case blocked(at: String)
}

/// Where a build's files go: the output folder on disk (`OutputFolder`), or memory
/// (`MemoryOutput`) for `build --check` and for tests. `OutputWriter` holds the policy (what the
/// build owns, what it may replace); a sink only carries out single, safe operations.
///
/// A build's files are staged first and put in place together by `commit`, all or nothing:
/// until then the folder is as it was, and a failure after leaves it so again (CONTRACT §6).
///
/// Every path is relative to the output folder and obeys `OutputPath.isPlain`. No operation
/// follows a symbolic link below the output folder.
package protocol OutputSink: AnyObject, Sendable {
    /// Bytes in the output folder's absolute path, for `OutputPath.problem`.
    var rootBytes: Int { get }

    func entry(at path: String) -> OutputEntry

    /// `entry(at:)` of each path, in order; a sink may look them up at once.
    func entries(at paths: [String]) -> [OutputEntry]

    /// The bytes of the regular file at `path`; `nil` when there is none or a link is on the way.
    func contents(of path: String) -> [UInt8]?

    /// Puts `bytes` at `path` now, whole or not at all, making missing folders: for the build's
    /// intent, which must be on disk before the first staged file is put in place. A link or a
    /// non-folder on the way, or a link at `path`, is an error, unless `replacing`: then that
    /// link or file itself is removed first (a link's target is never touched).
    func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(OutputError)

    /// Writes `bytes` for `path` where `commit` will find them, changing nothing in the folder.
    /// `replacing` as for `write`, when the file is put in place.
    func stage(_ bytes: [UInt8], at path: String, replacing: Bool) throws(OutputError)

    /// Notes the regular file at `path` for `commit` to remove; `false`, noting nothing, when
    /// there is no such file or a link or non-folder is on the way.
    func stageRemoval(_ path: String) -> Bool

    /// Removes what `stageRemoval` noted (and the folders that leaves empty), then puts every
    /// staged file in place, in the order staged. If a step fails, every step before it is
    /// undone and the error's `state` is `.unchanged`; should undoing fail too, `.mixed`.
    func commit() throws(OutputError)

    /// Drops everything staged and noted, leaving the folder as it was.
    func discard()

    /// Whether anything is staged or noted for `commit`.
    var hasStaged: Bool { get }

    /// Bytes free for the staged files where the file system says, and its block size; `nil`
    /// where it does not (memory).
    func room() -> (free: Int, block: Int)?

    /// Removes the regular file at `path` now, then the folders that leaves empty. `false` when
    /// there is no such file, or a link or non-folder is on the way (nothing is removed then);
    /// throws when the file is there and cannot be removed.
    func remove(_ path: String) throws(OutputError) -> Bool

    /// Removes every temporary file an earlier, killed build left behind.
    func clearTemporaries()
}

extension OutputSink {
    package func entries(at paths: [String]) -> [OutputEntry] { paths.map { entry(at: $0) } }
}

/// An output folder in memory: a tree of files, folders and links (links only as tests place them).
package final class MemoryOutput: OutputSink, @unchecked Sendable {
    package enum Node: Sendable, Hashable {
        case file([UInt8])
        case folder
        case link(String)
    }

    private let lock = NSLock()
    private var nodes: [String: Node]
    private var writes = 0
    private var staged: [(path: String, bytes: [UInt8], replacing: Bool)] = []
    private var removals: [String] = []
    private let faults: WriteFaults
    package let rootBytes: Int

    /// How many files were written so far, for tests that a build changed nothing.
    package var writeCount: Int { lock.withLock { writes } }

    package init(_ nodes: [String: Node] = [:], rootBytes: Int = "/output".utf8.count, faults: WriteFaults = .none) {
        self.nodes = nodes
        self.faults = faults
        self.rootBytes = rootBytes
        for path in nodes.keys {
            for folder in OutputPath.folders(of: path) where self.nodes[folder] == nil { self.nodes[folder] = .folder }
        }
    }

    /// Every node, by path.
    package var tree: [String: Node] { lock.withLock { nodes } }

    /// The regular files and their bytes, by path.
    package var files: [String: [UInt8]] {
        lock.withLock {
            nodes.compactMapValues { node -> [UInt8]? in
                guard case .file(let bytes) = node else { return nil }
                return bytes
            }
        }
    }

    package func entry(at path: String) -> OutputEntry {
        lock.withLock { unlockedEntry(at: path) }
    }

    private func unlockedEntry(at path: String) -> OutputEntry {
        for folder in OutputPath.folders(of: path) {
            switch nodes[folder] {
            case nil: return .absent
            case .folder: continue
            case .link: return .link(at: folder)
            case .file: return .blocked(at: folder)
            }
        }
        switch nodes[path] {
        case nil: return .absent
        case .folder: return .folder
        case .link: return .link(at: path)
        case .file(let bytes): return .file(size: bytes.count)
        }
    }

    package func contents(of path: String) -> [UInt8]? {
        lock.withLock {
            guard case .file = unlockedEntry(at: path), case .file(let bytes) = nodes[path] else { return nil }
            return bytes
        }
    }

    package func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        try place(bytes, at: path, replacing: replacing)
    }

    private func place(_ bytes: [UInt8], at path: String, replacing: Bool) throws(OutputError) {
        for folder in OutputPath.folders(of: path) {
            switch nodes[folder] {
            case .folder: continue
            case nil: nodes[folder] = .folder
            case .link:
                guard replacing else { throw OutputError(path: folder, reason: .symbolicLink) }
                nodes[folder] = .folder
            case .file:
                guard replacing else { throw OutputError(path: folder, reason: .notAFolder) }
                nodes[folder] = .folder
            }
        }
        switch nodes[path] {
        case .folder: throw OutputError(path: path, reason: .folderInTheWay)
        case .link where !replacing: throw OutputError(path: path, reason: .symbolicLink)
        default:
            nodes[path] = .file(bytes)
            writes += 1
        }
    }

    package func stage(_ bytes: [UInt8], at path: String, replacing: Bool) throws(OutputError) {
        if let code = faults.failure(at: .stage(path)) { throw OutputError(path: path, reason: .system(action: "write", code: code)) }
        lock.withLock { staged.append((path, bytes, replacing)) }
    }

    package func stageRemoval(_ path: String) -> Bool {
        lock.withLock {
            guard case .file = unlockedEntry(at: path) else { return false }
            removals.append(path)
            return true
        }
    }

    /// All or nothing as on disk: the tree is put back as it was when a step fails.
    package func commit() throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        let before = (nodes, writes)
        defer { (staged, removals) = ([], []) }
        do throws(OutputError) {
            for path in removals {
                if let code = faults.failure(at: .remove(path)) { throw OutputError(path: path, reason: .system(action: "remove the file", code: code)) }
                unlockedRemove(path)
            }
            for file in staged {
                if let code = faults.failure(at: .place(file.path)) {
                    throw OutputError(path: file.path, reason: .system(action: "put the file in place", code: code))
                }
                try place(file.bytes, at: file.path, replacing: file.replacing)
            }
        } catch {
            (nodes, writes) = before
            throw error
        }
    }

    package func discard() { lock.withLock { (staged, removals) = ([], []) } }

    package var hasStaged: Bool { lock.withLock { !staged.isEmpty || !removals.isEmpty } }

    package func room() -> (free: Int, block: Int)? { nil }

    package func remove(_ path: String) throws(OutputError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard case .file = unlockedEntry(at: path) else { return false }
        if let code = faults.failure(at: .remove(path)) { throw OutputError(path: path, reason: .system(action: "remove the file", code: code)) }
        unlockedRemove(path)
        return true
    }

    private func unlockedRemove(_ path: String) {
        nodes[path] = nil
        for folder in OutputPath.folders(of: path).reversed() {
            guard !nodes.keys.contains(where: { $0.hasPrefix(folder + "/") }) else { break }
            nodes[folder] = nil
        }
    }

    package func clearTemporaries() {}
}
