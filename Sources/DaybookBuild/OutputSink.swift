import Foundation

/// What is at a path below the output folder, found without following any link.
public enum OutputEntry: Sendable, Hashable {
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
/// Every path is relative to the output folder and obeys `OutputPath.isPlain`. No operation
/// follows a symbolic link below the output folder.
public protocol OutputSink: AnyObject, Sendable {
    /// Bytes in the output folder's absolute path, for `OutputPath.problem`.
    var rootBytes: Int { get }

    func entry(at path: String) -> OutputEntry

    /// `entry(at:)` of each path, in order; a sink may look them up at once.
    func entries(at paths: [String]) -> [OutputEntry]

    /// The bytes of the regular file at `path`; `nil` when there is none or a link is on the way.
    func contents(of path: String) -> [UInt8]?

    /// Puts `bytes` at `path`, whole or not at all, making missing folders. A link or a
    /// non-folder on the way, or a link at `path`, is an error, unless `replacing`: then that
    /// link or file itself is removed first (a link's target is never touched).
    func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(OutputError)

    /// Removes the regular file at `path`, then the folders that leaves empty. `false` when
    /// there is no such file, or a link or non-folder is on the way (nothing is removed then).
    func remove(_ path: String) -> Bool

    /// Removes every temporary file an earlier, killed build left behind.
    func clearTemporaries()
}

extension OutputSink {
    public func entries(at paths: [String]) -> [OutputEntry] { paths.map { entry(at: $0) } }
}

/// An output folder in memory: a tree of files, folders and links (links only as tests place them).
public final class MemoryOutput: OutputSink, @unchecked Sendable {
    public enum Node: Sendable, Hashable {
        case file([UInt8])
        case folder
        case link(String)
    }

    private let lock = NSLock()
    private var nodes: [String: Node]
    private var writes = 0
    public let rootBytes: Int

    /// How many files were written so far, for tests that a build changed nothing.
    public var writeCount: Int { lock.withLock { writes } }

    public init(_ nodes: [String: Node] = [:], rootBytes: Int = "/output".utf8.count) {
        self.nodes = nodes
        self.rootBytes = rootBytes
        for path in nodes.keys {
            for folder in OutputPath.folders(of: path) where self.nodes[folder] == nil { self.nodes[folder] = .folder }
        }
    }

    /// Every node, by path.
    public var tree: [String: Node] { lock.withLock { nodes } }

    /// The regular files and their bytes, by path.
    public var files: [String: [UInt8]] {
        lock.withLock {
            nodes.compactMapValues { node -> [UInt8]? in
                guard case .file(let bytes) = node else { return nil }
                return bytes
            }
        }
    }

    public func entry(at path: String) -> OutputEntry {
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

    public func contents(of path: String) -> [UInt8]? {
        lock.withLock {
            guard case .file = unlockedEntry(at: path), case .file(let bytes) = nodes[path] else { return nil }
            return bytes
        }
    }

    public func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
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

    public func remove(_ path: String) -> Bool {
        lock.withLock {
            guard case .file = unlockedEntry(at: path) else { return false }
            nodes[path] = nil
            for folder in OutputPath.folders(of: path).reversed() {
                guard !nodes.keys.contains(where: { $0.hasPrefix(folder + "/") }) else { break }
                nodes[folder] = nil
            }
            return true
        }
    }

    public func clearTemporaries() {}
}
