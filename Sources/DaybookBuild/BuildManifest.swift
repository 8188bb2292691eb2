import DaybookFeed
import DaybookModel

/// What a build wrote and showed: every output file with its hash and size, and every list's
/// ids with item versions. The next build compares against it.
package struct BuildManifest: Sendable, Hashable {
    /// The bytes a finished build left in a file.
    package struct FileEntry: Sendable, Hashable {
        /// `StableHash` of the bytes.
        package var hash: UInt64
        package var size: Int

        package init(hash: UInt64, size: Int) {
            self.hash = hash
            self.size = size
        }
    }

    /// What the record knows of one file the build owns.
    package enum FileRecord: Sendable, Hashable {
        /// Written by a build that finished: these bytes, unless someone changed the file since.
        case written(FileEntry)
        /// Named by a build before it wrote anything, so that the next build owns the path even if
        /// this one was killed; its bytes are not known, so the next build writes it again.
        case intended

        package var entry: FileEntry? {
            if case .written(let entry) = self { entry } else { nil }
        }
    }

    package var files: [String: FileRecord] = [:]
    package var lists: [String: ListSnapshot] = [:]
    /// Each page's key (theme and view model): equal keys mean the page need not be rendered again.
    package var pageKeys: [String: UInt64] = [:]

    package init(files: [String: FileRecord] = [:], lists: [String: ListSnapshot] = [:], pageKeys: [String: UInt64] = [:]) {
        self.files = files
        self.lists = lists
        self.pageKeys = pageKeys
    }
}

extension BuildManifest {
    static let header = "daybook-manifest 1"

    /// A line format: `f <hash> <size> <path>`, `p <key> <path>`, `l <list>`, `i <id> <version>`, with `%`, space and
    /// line breaks percent-encoded. Sorted, so the file is as deterministic as the site.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// `text` as UTF-8, built on bytes: the record is written after every build.
    package var bytes: [UInt8] { encoded(pathOrder: nil).bytes }

    /// `bytes`, with the files' paths in their written order when the caller knows it: the
    /// previous record's (`Parsed.pathOrder`, sorted as `bytes` sorts) when this build has the
    /// same files, which after an edit it nearly always does. Sorting 34,000 paths was a third of
    /// saving the record. When files came or went (a post added or deleted), the order's paths
    /// still here keep their places and the new ones are merged in (`ordered(_:from:)`).
    /// Also gives the order written, and where its lines lie (`Lines`; `nil` when some key's
    /// path is no file's), for the next build to hand back.
    package func encoded(pathOrder: [String]?) -> Encoded {
        // Written straight into bytes (a 30,000-page site's record is 3 MB, written after every
        // build that changed something): no string per field.
        var out: [UInt8] = []
        out.reserveCapacity(100 * (files.count + pageKeys.count))
        // The page keys' lines, written beside the files' in the same pass: pages are files too,
        // and one order serves both sections. Looking each path up once per table, not twice,
        // was a tenth of saving the record.
        var keyLines: [UInt8] = []
        var keysWritten = 0
        // Where each file's line, and the key lines from each file on, start.
        var (fileStarts, keyStarts): ([Int], [Int]) = ([], [])
        /// The files' and keys' lines in `paths`' order; `false`, having written part, when a
        /// path is not a file.
        func write(_ paths: [String]) -> Bool {
            out.removeAll(keepingCapacity: true)
            out += Self.header.utf8
            out.append(0x0A)
            keyLines.removeAll(keepingCapacity: true)
            keysWritten = 0
            (fileStarts, keyStarts) = ([], [])
            fileStarts.reserveCapacity(paths.count + 1)
            keyStarts.reserveCapacity(paths.count + 1)
            for path in paths {
                guard let file = files[path] else { return false }
                fileStarts.append(out.count)
                keyStarts.append(keyLines.count)
                Self.fileLine(path, file, into: &out)
                if let key = pageKeys[path] {
                    Self.keyLine(path, key, into: &keyLines)
                    keysWritten += 1
                }
            }
            fileStarts.append(out.count)
            keyStarts.append(keyLines.count)
            return true
        }
        // A given order of as many paths as there are files, each of them a file, is the files'
        // keys (its paths are distinct).
        let paths: [String]
        if let pathOrder, pathOrder.count == files.count, write(pathOrder) {
            paths = pathOrder
        } else {
            paths = pathOrder.map { Self.ordered(files, from: $0) } ?? files.keys.sorted { $0.scalarsPrecede($1) }
            _ = write(paths)
        }
        var lines: Lines?
        if keysWritten == pageKeys.count {
            let keysStart = out.count
            out += keyLines
            lines = Lines(files: fileStarts, keys: keyStarts.map { keysStart + $0 }, keyCount: keysWritten)
        } else {
            // Keys of paths that are no file's: all of them sorted on their own.
            for path in pageKeys.keys.sorted(by: { $0.scalarsPrecede($1) }) { Self.keyLine(path, pageKeys[path]!, into: &out) }
        }
        appendLists(to: &out)
        return Encoded(bytes: out, pathOrder: paths, lines: lines)
    }

    /// What `encoded` gives: the record's bytes, its files' order and where its lines lie.
    package struct Encoded: Sendable {
        package var bytes: [UInt8]
        package var pathOrder: [String]
        package var lines: Lines?
    }

    /// A file's line: `f <hash> <size> <path>`. An intended file keeps the format's "hash 0,
    /// size -1", which earlier versions also read.
    static func fileLine(_ path: String, _ file: FileRecord, into out: inout [UInt8]) {
        let entry = file.entry ?? FileEntry(hash: 0, size: -1)
        out.append(UInt8(ascii: "f"))
        appendHex(entry.hash, to: &out)
        out.append(0x20)
        if entry.size < 0 { out.append(UInt8(ascii: "-")) }
        appendDecimal(entry.size.magnitude, to: &out)
        out.append(0x20)
        out += encode(path).utf8
        out.append(0x0A)
    }

    /// A page key's line: `p <key> <path>`.
    static func keyLine(_ path: String, _ key: UInt64, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "p"))
        appendHex(key, to: &out)
        out.append(0x20)
        out += encode(path).utf8
        out.append(0x0A)
    }

    /// The lists' lines, by the lists' names: `l <list>`, then `i <id> <version>` for each id.
    func appendLists(to out: inout [UInt8]) {
        for name in lists.keys.sorted() {
            let list = lists[name]!
            out.append(UInt8(ascii: "l"))
            out.append(0x20)
            out += Self.encode(name).utf8
            out.append(0x0A)
            for id in list.ids {
                out.append(UInt8(ascii: "i"))
                out.append(0x20)
                out += Self.encode(id).utf8
                Self.appendHex(list.versions[id] ?? 0, to: &out)
                out.append(0x0A)
            }
        }
    }

    /// A space and sixteen lowercase hex digits.
    private static func appendHex(_ value: UInt64, to out: inout [UInt8]) {
        out.append(0x20)
        for shift in stride(from: 60, through: 0, by: -4) {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0xF
            out.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }

    /// `value` in decimal digits.
    private static func appendDecimal(_ value: UInt, to out: inout [UInt8]) {
        guard value >= 10 else { return out.append(UInt8(ascii: "0") + UInt8(value)) }
        appendDecimal(value / 10, to: &out)
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// The paths of `files`, sorted, from `order`, the sorted paths of an earlier record: those
    /// still among `files` in their places, and the rest sorted and merged in. Sorting only the
    /// few new ones saved most of the record's time after a deleted post (which also keeps no
    /// path, a case the caller's exact match misses). An `order` out of sort is sorted whole.
    static func ordered(_ files: [String: FileRecord], from order: [String]) -> [String] {
        let kept = order.filter { files[$0] != nil }
        guard zip(kept, kept.dropFirst()).allSatisfy({ $0.scalarsPrecede($1) }) else { return files.keys.sorted { $0.scalarsPrecede($1) } }
        // The order's paths are distinct (sorted strictly), so the count says whether any is new.
        guard kept.count < files.count else { return kept }
        let known = Set(kept)
        let added = files.keys.filter { !known.contains($0) }.sorted { $0.scalarsPrecede($1) }
        var merged: [String] = []
        merged.reserveCapacity(files.count)
        var (old, new) = (kept.startIndex, added.startIndex)
        while old < kept.endIndex || new < added.endIndex {
            if new == added.endIndex || (old < kept.endIndex && kept[old].scalarsPrecede(added[new])) {
                merged.append(kept[old])
                old += 1
            } else {
                merged.append(added[new])
                new += 1
            }
        }
        return merged
    }

    /// Reads `text`; an unreadable or foreign manifest gives `nil`, and the build treats the folder as new.
    ///
    /// Parsed on UTF-8 bytes: a 32,000-page site's record is 3 MB, read before every build.
    package init?(text: String) {
        guard let parsed = Parsed(text: text) else { return nil }
        self = parsed.manifest
    }

    /// A record read back, with the order its files came in.
    package struct Parsed: Sendable {
        package var manifest: BuildManifest
        /// The files' paths as the record lists them, when that is their written order (each
        /// path after the one before, as `bytes` sorts them); `nil` when the record is not so.
        package var pathOrder: [String]?
        /// Whether every page key's path is a file's: then checking the files' paths checks them all.
        var keysAreFiles = false

        /// Where its lines lie, when it is laid out as `encoded` writes it, in `pathOrder`.
        package var lines: Lines?

        init(manifest: BuildManifest, pathOrder: [String]?, keysAreFiles: Bool = false, lines: Lines? = nil) {
            (self.manifest, self.pathOrder, self.keysAreFiles, self.lines) = (manifest, pathOrder, keysAreFiles, lines)
        }

        package init?(text: String) {
            var text = text
            guard let parsed = text.withUTF8({ BuildManifest.parse($0) }) else { return nil }
            self = parsed
        }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Parsed? {
        var manifest = BuildManifest()
        // Room for every file and key first: grown line by line, the tables hashed their 34,000
        // paths again at each doubling (a quarter of reading the record). Counted by the lines'
        // first bytes, which costs a tenth of that.
        var (files, keys) = (0, 0)
        var lineStart = true
        for byte in bytes {
            if lineStart {
                if byte == UInt8(ascii: "f") { files += 1 } else if byte == UInt8(ascii: "p") { keys += 1 }
            }
            lineStart = byte == 0x0A
        }
        manifest.files.reserveCapacity(files)
        manifest.pageKeys.reserveCapacity(keys)
        // Every file's path in record order, and whether that is the written order.
        var filePaths: [String] = []
        filePaths.reserveCapacity(files)
        var inOrder = true
        // Where the next key's path is looked for among the files' (`KeyPaths`).
        var keyPaths = KeyPaths()
        var currentList: String?
        // Where the lines lie, while the record is laid out as `encoded` writes it (`Lines`).
        var layout: RecordLayout? = RecordLayout()
        var start = 0
        var first = true
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let lineStart = start
            start = end + 1
            if line.isEmpty { continue }
            if first {
                guard line.elementsEqual(header.utf8) else { return nil }
                first = false
                continue
            }
            // Fields after the kind, split at single spaces; the last takes the rest of the line.
            guard line.count >= 2, line[1] == 0x20 else { return nil }
            var fields = LineFields(line: line, from: 2)
            switch line[0] {
            case UInt8(ascii: "f"):
                guard let hash = fields.next().flatMap(hex), let size = fields.next().flatMap(decimal) else { return nil }
                let path = decode(fields.rest)
                manifest.files[path] = size < 0 ? .intended : .written(FileEntry(hash: hash, size: size))
                if inOrder, let last = filePaths.last, !last.scalarsPrecede(path) { inOrder = false }
                filePaths.append(path)
                if layout?.file(at: lineStart) == false { layout = nil }
            case UInt8(ascii: "p"):
                guard let key = fields.next().flatMap(hex) else { return nil }
                manifest.pageKeys[keyPaths.path(fields.rest, among: filePaths)] = key
                if !keyPaths.allFound || layout?.key(of: keyPaths.cursor - 1, at: lineStart) == false { layout = nil }
            case UInt8(ascii: "l"):
                layout?.end(at: lineStart, files: filePaths.count)
                guard !fields.rest.contains(0x20) else { return nil }
                let name = decode(fields.rest)
                manifest.lists[name] = ListSnapshot()
                currentList = name
            case UInt8(ascii: "i"):
                guard let list = currentList, let idBytes = fields.next(), let version = hex(fields.rest) else { return nil }
                let id = decode(idBytes)
                manifest.lists[list]?.ids.append(id)
                manifest.lists[list]?.versions[id] = version
            default:
                return nil
            }
        }
        layout?.end(at: bytes.count, files: filePaths.count)
        return first
            ? nil
            : Parsed(
                manifest: manifest, pathOrder: inOrder ? filePaths : nil, keysAreFiles: keyPaths.allFound,
                lines: inOrder && keyPaths.allFound ? layout?.lines : nil)
    }

    /// `Lines` as a record is read: every file's line, then every key's, in the files'
    /// order, then the lists. Its calls say `false` for a line out of that layout.
    private struct RecordLayout {
        var files: [Int] = []
        var keys: [Int] = []
        var keyCount = 0
        var keysBegan = false
        var ended = false

        /// A file's line at `offset`: `false` after a key's or a list's.
        mutating func file(at offset: Int) -> Bool {
            guard !keysBegan && !ended else { return false }
            files.append(offset)
            return true
        }

        /// The key line of the file at `place` (after the last key's), at `offset`: `false` after a list's.
        mutating func key(of place: Int, at offset: Int) -> Bool {
            guard !ended else { return false }
            if !keysBegan {
                keysBegan = true
                files.append(offset)
            }
            // The files before `place` without a key line have theirs (none) start here too.
            while keys.count <= place { keys.append(offset) }
            keyCount += 1
            return true
        }

        /// The end of the files' and the keys' lines, at a list's line or the record's end.
        mutating func end(at offset: Int, files count: Int) {
            guard !ended else { return }
            ended = true
            if !keysBegan { files.append(offset) }
            while keys.count <= count { keys.append(offset) }
        }

        var lines: Lines? { ended ? Lines(files: files, keys: keys, keyCount: keyCount) : nil }
    }

    /// The fields of a record line after its kind, split at single spaces.
    private struct LineFields {
        let line: UnsafeBufferPointer<UInt8>
        var from: Int
        init(line: UnsafeBufferPointer<UInt8>, from: Int) { (self.line, self.from) = (line, from) }

        /// The next field up to a space; `nil` when no space follows.
        mutating func next() -> UnsafeBufferPointer<UInt8>? {
            guard let space = line[from...].firstIndex(of: 0x20) else { return nil }
            defer { from = space + 1 }
            return UnsafeBufferPointer(rebasing: line[from..<space])
        }
        /// The rest of the line.
        var rest: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: line[from...]) }
    }

    /// A record lists a page's key after its file, in the files' order: each key's path is
    /// found among the files' paths from where the last one was, and that very string taken,
    /// rather than a second string made per page. A path not found a short way on is made anew.
    private struct KeyPaths {
        var cursor = 0
        /// Whether every key's path was a file's.
        var allFound = true

        mutating func path(_ bytes: UnsafeBufferPointer<UInt8>, among files: [String]) -> String {
            if !bytes.contains(0x25) {
                var index = cursor
                // Between two pages' files a record lists the other files (images, feeds): a few
                // hundred at most on the bench site.
                while index < files.count && index < cursor + 4096 {
                    if files[index].utf8.elementsEqual(bytes) {
                        cursor = index + 1
                        return files[index]
                    }
                    index += 1
                }
            }
            allFound = false
            return BuildManifest.decode(bytes)
        }
    }

    /// A decimal integer, with a `-` for a negative one, as `Int(_:)` reads it (no `+`).
    private static func decimal(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        let negative = digits.first == UInt8(ascii: "-")
        let body = negative ? UnsafeBufferPointer(rebasing: digits.dropFirst()) : digits
        guard !body.isEmpty, body.count <= 18 else { return nil }
        var value = 0
        for digit in body {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return negative ? -value : value
    }

    /// Up to sixteen hex digits, as `UInt64(_:radix: 16)` reads them.
    private static func hex(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        return value
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return bytes.contains(0x25) ? decode(Substring(text)) : text
    }

    /// The first path in the record that is not a plain path inside the output folder
    /// (`OutputPath.isPlain`), or that names the build's own bookkeeping; `nil` when all are safe.
    /// The record comes from disk, where anyone could have edited it, so it is checked before use.
    package var unsafePath: String? { unsafePath(keysAreFiles: false) }

    /// `unsafePath`; with `keysAreFiles` (the record said so, `Parsed.keysAreFiles`), the keys'
    /// paths are not looked at again.
    func unsafePath(keysAreFiles: Bool) -> String? {
        let reserved = [OutputWriter.manifestName, OutputWriter.intentName, OutputFolder.temporaryFolder]
        func unsafe(_ path: String) -> Bool {
            guard OutputPath.isPlain(path) else { return true }
            // The first name is cut out (a string made) only of a path that starts like a reserved one.
            guard reserved.contains(where: { path.utf8.starts(with: $0.utf8) }) else { return false }
            let first = path.utf8.firstIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? path
            return reserved.contains(first)
        }
        // Sorted only among the unsafe ones (almost always none). The record holds every page
        // twice, as a file and as a key: a key's path that is a file's was looked at already.
        let keys = keysAreFiles ? [] : pageKeys.keys.filter { files[$0] == nil && unsafe($0) }
        return (files.keys.filter(unsafe) + keys).min { $0.scalarsPrecede($1) }
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

