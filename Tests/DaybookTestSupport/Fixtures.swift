import DaybookModel
import Foundation

/// Builders for literal test inputs, so each test states only what it is about.
package enum Fixed {
    /// An instant from RFC 3339 text; traps on a typo, which is a bug in the test.
    package static func at(_ text: String) -> Instant {
        guard let instant = Instant(rfc3339: text) else { preconditionFailure("bad test date-time \(text)") }
        return instant
    }

    package static func day(_ text: String) -> CalendarDay {
        guard let day = CalendarDay(text) else { preconditionFailure("bad test date \(text)") }
        return day
    }

    package static func zone(_ identifier: String) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else { preconditionFailure("unknown zone \(identifier)") }
        return zone
    }
}

/// A site written to a fresh temporary folder from `-- path --` sections (the txtar form Hugo's
/// tests use), so a whole site reads as one string in the test that uses it.
///
/// Every fixture of a test process lives under one folder (`root`), removed when the process
/// exits; a run killed before that leaves it, and the next run removes the folders of processes
/// that are gone. A fixture is not removed when it goes out of scope: a test may hand its folder
/// to a server or a second build that outlives the value.
package struct SiteFixture: Sendable {
    package let directory: URL

    /// `daybook-tests-<pid>` in the temporary folder.
    static let root: URL = {
        let temporary = FileManager.default.temporaryDirectory
        let prefix = "daybook-tests-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix) {
            // Another run's, if its process is gone.
            if let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appending(path: name))
            }
        }
        let root = temporary.appending(path: prefix + String(getpid()))
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: SiteFixture.root) }
        return root
    }()

    /// A new empty folder under `root`, for a test's output or cache: removed with the fixtures.
    package static func temporaryFolder(_ label: String) -> URL {
        let folder = root.appending(path: "\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    package init(_ archive: String) throws {
        directory = Self.root.appending(path: UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (path, text) in Self.parse(archive) { try write(path, text) }
    }

    package func write(_ path: String, _ text: String) throws { try write(path, bytes: Array(text.utf8)) }

    /// Bytes that are not text (a photo), at `path`, its folders made as needed.
    package func write(_ path: String, bytes: some Sequence<UInt8>) throws {
        let url = directory.appending(path: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    package func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: directory.appending(path: path).path).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// The inode of the file at `path`, to tell a file rewritten in place from one renamed over it.
    package func inode(_ path: String) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: directory.appending(path: path).path))?[.systemFileNumber] as? UInt64
    }

    /// Every file below `folder` with its bytes, for byte-for-byte comparisons.
    package func tree(_ folder: String) -> [String: Data] {
        let base = directory.appending(path: folder)
        var result: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return result }
        for case let path as String in enumerator {
            var isFolder: ObjCBool = false
            let full = base.appending(path: path).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                result[path] = FileManager.default.contents(atPath: full)
            }
        }
        return result
    }

    package static func parse(_ archive: String) -> [(String, String)] {
        var files: [(String, String)] = []
        var current: String?
        var lines: [Substring] = []
        func flush() {
            if let current { files.append((current, lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n"))) }
        }
        for line in archive.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-- "), line.hasSuffix(" --") {
                flush()
                current = String(line.dropFirst(3).dropLast(3))
                lines = []
            } else if current != nil {
                lines.append(line)
            }
        }
        flush()
        return files.map { ($0.0, $0.1.hasSuffix("\n\n") ? String($0.1.dropLast()) : $0.1) }
    }
}
