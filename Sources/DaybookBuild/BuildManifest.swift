import DaybookFeed
import DaybookModel

/// What a build wrote and showed: every output file with its hash and size, and every list's
/// ids with item versions. The next build compares against it.
public struct BuildManifest: Sendable, Hashable {
    /// The bytes a finished build left in a file.
    public struct FileEntry: Sendable, Hashable {
        /// `StableHash` of the bytes.
        public var hash: UInt64
        public var size: Int

        public init(hash: UInt64, size: Int) {
            self.hash = hash
            self.size = size
        }
    }

    /// What the record knows of one file the build owns.
    public enum FileRecord: Sendable, Hashable {
        /// Written by a build that finished: these bytes, unless someone changed the file since.
        case written(FileEntry)
        /// Named by a build before it wrote anything, so that the next build owns the path even if
        /// this one was killed; its bytes are not known, so the next build writes it again.
        case intended

        public var entry: FileEntry? {
            if case .written(let entry) = self { entry } else { nil }
        }
    }

    public var files: [String: FileRecord] = [:]
    public var lists: [String: ListSnapshot] = [:]
    /// Each page's key (theme and view model): equal keys mean the page need not be rendered again.
    public var pageKeys: [String: UInt64] = [:]

    public init(files: [String: FileRecord] = [:], lists: [String: ListSnapshot] = [:], pageKeys: [String: UInt64] = [:]) {
        self.files = files
        self.lists = lists
        self.pageKeys = pageKeys
    }
}

extension BuildManifest {
    static let header = "daybook-manifest 1"

    /// A line format: `f <hash> <size> <path>`, `p <key> <path>`, `l <list>`, `i <id> <version>`, with `%`, space and
    /// line breaks percent-encoded. Sorted, so the file is as deterministic as the site.
    public var text: String {
        var lines = [Self.header]
        for path in files.keys.sorted(by: { $0.scalarsPrecede($1) }) {
            // An intended file keeps the format's "hash 0, size -1", which earlier versions also read.
            let entry = files[path]!.entry ?? FileEntry(hash: 0, size: -1)
            lines.append("f \(StableHash.hex(entry.hash)) \(entry.size) \(Self.encode(path))")
        }
        for path in pageKeys.keys.sorted(by: { $0.scalarsPrecede($1) }) {
            lines.append("p \(StableHash.hex(pageKeys[path]!)) \(Self.encode(path))")
        }
        for name in lists.keys.sorted() {
            let list = lists[name]!
            lines.append("l \(Self.encode(name))")
            for id in list.ids { lines.append("i \(Self.encode(id)) \(StableHash.hex(list.versions[id] ?? 0))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads `text`; an unreadable or foreign manifest gives `nil`, and the build treats the folder as new.
    public init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard lines.first == Substring(Self.header) else { return nil }
        lines = lines.dropFirst()
        var currentList: String?
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            switch parts.first {
            case "f":
                guard parts.count == 4, let hash = UInt64(parts[1], radix: 16), let size = Int(parts[2]) else { return nil }
                files[Self.decode(parts[3])] = size < 0 ? .intended : .written(FileEntry(hash: hash, size: size))
            case "p":
                let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count == 3, let key = UInt64(fields[1], radix: 16) else { return nil }
                pageKeys[Self.decode(fields[2])] = key
            case "l":
                guard parts.count == 2 else { return nil }
                let name = Self.decode(parts[1])
                lists[name] = ListSnapshot()
                currentList = name
            case "i":
                guard parts.count == 3, let list = currentList, let version = UInt64(parts[2], radix: 16) else { return nil }
                let id = Self.decode(parts[1])
                lists[list]?.ids.append(id)
                lists[list]?.versions[id] = version
            default:
                return nil
            }
        }
    }

    /// The first path in the record that is not a plain path inside the output folder
    /// (`OutputPath.isPlain`), or that names the build's own bookkeeping; `nil` when all are safe.
    /// The record comes from disk, where anyone could have edited it, so it is checked before use.
    public var unsafePath: String? {
        let reserved = [OutputWriter.manifestName, OutputFolder.temporaryFolder]
        for path in Set(files.keys).union(pageKeys.keys).sorted(by: { $0.scalarsPrecede($1) }) {
            let first = path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? path
            if !OutputPath.isPlain(path) || reserved.contains(first) { return path }
        }
        return nil
    }

    static func encode(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x25 || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }) else { return text }
        return text.replacing("%", with: "%25").replacing(" ", with: "%20").replacing("\n", with: "%0A").replacing("\r", with: "%0D")
    }

    static func decode(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        return String(text).replacing("%20", with: " ").replacing("%0A", with: "\n").replacing("%0D", with: "\r").replacing("%25", with: "%")
    }
}
