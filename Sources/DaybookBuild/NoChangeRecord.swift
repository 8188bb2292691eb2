import DaybookFeed
import DaybookIncremental
import DaybookModel
import DaybookParallel
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a successful build leaves in its memo (under `build.record`) so that the next build can
/// prove, from file status alone, that it would change nothing, and stop there.
///
/// A rebuild with nothing edited is the most common build of all (`serve`, CI caches, a second
/// `build` out of habit), and on a site of 30,000 pages reading and ordering the content alone
/// costs seconds. The proof, each part of which must hold:
/// - the same `daybook` executable (its file status) and the same options;
/// - the same input files: every file under `content/` and `Templates/` and `site.yml`, listed
///   the way the reader lists them, each with the same size, times, inode and device;
/// - "now" still inside the window where the output cannot change: not before the last build's
///   now, before the next midnight in the site's time zone and before the first hidden item
///   (a future post, comment, response or sent prompt) comes due; exactly the last build's now
///   when an empty feed is dated by it;
/// - the output record unchanged on disk, no build's intent beside it (a killed build), and every
///   file it lists still a regular file of its size, with no link on the way (what a full build
///   checks before keeping a page).
///
/// Then the build reports what the last one reported (its warnings, its counts) and writes
/// nothing. Any doubt, including a record that does not parse, means a full build.
package struct NoChangeRecord: Equatable {
    /// Where the memo keeps the record: one value, under no version, since replaying checks every
    /// part of it against the site as it is.
    static let step = MemoStep("build.record")

    /// The options and executable the output depends on, as one line.
    var identity: String
    var now: Double
    /// `nil` when the output depends on the exact "now" (an empty feed is dated by it).
    var validUntil: Double?
    var inputs: [(path: String, status: FileStatus?)]
    var manifest: FileStatus
    var outputs: [(path: String, size: Int)]
    var pageCount: Int
    var imagesReused: Int
    var baseURL: String
    var timeZone: String
    var diagnostics: [Diagnostic]

    package static func == (a: NoChangeRecord, b: NoChangeRecord) -> Bool { a.text == b.text }

    // MARK: - Deciding

    /// The input files as listed before a build reads them, and when the listing started (the
    /// record trusts only statuses settled before then).
    /// The inputs with their statuses, when they were taken, and what the walk of `content/`
    /// found, which the build's read takes rather than walk and look at every file again.
    typealias Listing = (inputs: [(path: String, status: FileStatus?)], at: Int64, content: SiteReader.Listed)

    /// The result of a build that would change nothing, or `nil` when that cannot be proven;
    /// with the inputs when it listed them, so that the build does not list them again.
    /// - Returns: also the site's memo as opened to read the record, for the build to take rather
    ///   than open again (`MemoPlace.load(opened:)`).
    static func replay(_ options: BuildOptions, started: ContinuousClock.Instant) -> (result: BuildResult?, listing: Listing?, memo: MemoTable?) {
        let now = options.now.secondsSince1970
        var listing: Listing?
        // Everything but the outputs is compared as soon as it is read: after an edit, the
        // record's 34,000 output lines (on a 32,000-page site) are not even parsed.
        func mayHold(_ record: NoChangeRecord) -> Bool {
            guard record.identity == identity(options) else { return false }
            if let until = record.validUntil {
                guard now >= record.now, now < until else { return false }
            } else {
                guard now == record.now else { return false }
            }
            // An intent on disk means a build was killed while writing: its files must be written again.
            guard record.manifest == FileStatus(path: options.outputDirectory.appending(path: OutputWriter.manifestName).path, followingLinks: false),
                access(options.outputDirectory.appending(path: OutputWriter.intentName).path, F_OK) != 0
            else { return false }
            let current = listed(options.siteDirectory)
            listing = current
            return current.inputs.elementsEqual(record.inputs, by: { $0.path == $1.path && $0.status == $1.status })
        }
        // Read from the memo as every value is: its index alone, then the record by position,
        // bounded and verified, never through a link.
        let memo = MemoFile.table(site: options.siteDirectory, maxBytes: MemoPlace.maxBytes)
        guard let data = memo.value(step, 0, version: 0),
            // Parsed from the file's bytes as read: no string of the whole 2 MB made first.
            // The outputs are counted as they are checked, not kept in the record.
            case let (record, outputCount)? = data.withUnsafeBufferPointer({ bytes -> (NoChangeRecord, Int)? in
                guard let read = parse(bytes, proceed: mayHold, stoppingAtOutputs: true) else { return nil }
                let outputs = read.outputsAt.map { UnsafeBufferPointer(rebasing: bytes[$0...]) } ?? UnsafeBufferPointer(start: nil, count: 0)
                return outputsInPlace(lines: outputs, in: options.outputDirectory.path).map { (read.record, $0) }
            })
        else { return (nil, listing, memo) }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var result = BuildResult(
            diagnostics: record.diagnostics, report: WriteReport(unchanged: outputCount), pageCount: record.pageCount,
            seconds: seconds)
        result.baseURL = record.baseURL
        result.timeZone = TimeZone(identifier: record.timeZone) ?? .gmt
        result.phases = [("read", seconds)]
        result.imagesReused = record.imagesReused
        result.listChanges = SiteLists.reportOrder.map { ($0, ListDiff()) }
        return (result, listing, memo)
    }

    /// The options that change the output or the result, and the executable's own status, so a
    /// new `daybook` never replays an old one's build.
    static func identity(_ options: BuildOptions) -> String {
        let executable = FileStatus.executableFields
        let output = FileInfo.realPath(options.outputDirectory.path) ?? options.outputDirectory.path
        let flags = [options.includeFuture, options.includeDrafts, options.strict, options.force, options.check].map { $0 ? "1" : "0" }
        return BuildManifest.encode([executable, output, flags.joined()].joined(separator: "|"))
    }

    /// Every file the reader would read, in its order, with its status (links followed, as the
    /// reader follows them), and the links that lead out of the site, with no status; with the
    /// moment the listing started and what it found under `content/`.
    static func listed(_ site: URL) -> Listing {
        let at = FileInfo.realtimeNanoseconds()
        let reader = SiteReader(siteDirectory: site)
        // Paths joined as strings, not a URL made per file: this runs before every build.
        let root = site.path
        var inputs: [(String, FileStatus?)] = [("site.yml", FileStatus(path: root + "/site.yml"))]
        var content = SiteReader.Listed(walk: FileInfo.SiteFiles(), statuses: [:])
        for folder in ["content", "Templates"] {
            let walk = reader.siteFiles(under: folder)
            // Stat'ed on all cores: 7,500 files one after the other were a sixth of a no-change rebuild.
            let statuses = Parallel.mapBlocking(walk.files) { ($0, FileStatus(path: root + "/" + $0)) }
            inputs += statuses
            inputs += walk.outsideLinks.map { ("link-out:" + $0, nil) }
            inputs += walk.refusedLinks.map { ("link-refused:" + $0, nil) }
            inputs += walk.outputFolders.map { ("output-folder:" + $0, nil) }
            if walk.isCut { inputs.append(("cut:" + folder, nil)) }
            if folder == "content" {
                content = SiteReader.Listed(walk: walk, statuses: [:], takenAt: at)
                content.statuses.reserveCapacity(statuses.count)
                for case let (path, status?) in statuses { content.statuses[path] = status }
            }
        }
        return (inputs, at, content)
    }

    /// Whether each output line names a regular file of its size, with only real folders on the
    /// way; `false` too for a line out of shape or a path that is not plain (the record is as
    /// untrusted as the rest of the site folder: only plain paths are stat'ed).
    ///
    /// Read and checked straight from the record's bytes, in runs on all cores, each path looked
    /// at through a buffer (`OutputLookup`): a string per path, and reading all 34,000 lines on
    /// one core before the first look, were a third of a no-change rebuild. The record lists
    /// paths in order, so a folder is looked at once, when the path before was not in it.
    /// The root is opened following links: it is the folder the user named.
    /// - Returns: how many outputs the lines name, `nil` when one is not in place.
    static func outputsInPlace(lines bytes: UnsafeBufferPointer<UInt8>, in root: String) -> Int? {
        let rootFD = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootFD >= 0 else { return nil }
        defer { close(rootFD) }
        // Runs that end at line ends, a few per core.
        var runs: [Range<Int>] = []
        let target = max(1, bytes.count / (4 * ProcessInfo.processInfo.activeProcessorCount))
        var start = 0
        while start < bytes.count {
            var end = min(bytes.count, start + target)
            while end < bytes.count && bytes[end - 1] != 0x0A { end += 1 }
            runs.append(start..<end)
            start = end
        }
        let whole = OutputLines(base: bytes)
        let counts = Parallel.mapBlocking(runs) { run in whole.inPlace(run, rootFD: rootFD) }
        return counts.contains(nil) ? nil : counts.reduce(0) { $0 + $1! }
    }

    /// The instant from which this build's output may differ, or `nil` when it depends on the exact "now".
    static func validUntil(content: SiteContent, feeds: SiteFeeds, moment: BuildMoment) -> Double? {
        let users = feeds.indexes.users.map(\.id)
        // CONTRACT §5: a feed with no entries is dated by the build's now.
        if feeds.journal.isEmpty || feeds.timeline.isEmpty || users.contains(where: { (feeds.commentsOnPostsBy[$0] ?? []).isEmpty }) {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = moment.timeZone
        let now = moment.now.date
        var until = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now))?.timeIntervalSince1970 ?? now.timeIntervalSince1970
        if !moment.includeFuture {
            let dates = content.posts.map(\.createdAt) + content.comments.map(\.createdAt) + content.responses.map(\.createdAt)
                + content.sentPrompts.map(\.sentAt)
            for date in dates where date > moment.now { until = min(until, date.secondsSince1970) }
        }
        return until
    }

    // MARK: - Saving

    /// The record of a successful build into the output folder on disk, for the memo to keep in
    /// place of the last one (`MemoPlace.save(_:filing:)`); `nil` when the build cannot be
    /// replayed, and the memo then keeps none, so a record never outlives the build it describes.
    static func filed(
        _ result: BuildResult, site: SiteBuilder.SiteModel, options: BuildOptions, started: [(path: String, status: FileStatus?)],
        listedAt: Int64, racyWindow: Int64 = FileStatus.racyWindow, written: BuildManifest
    ) -> MemoPlace.Filed {
        MemoPlace.Filed(
            step: step,
            value: make(result, site: site, options: options, started: started, listedAt: listedAt, racyWindow: racyWindow, written: written)
                .map { Array($0.text.utf8) })
    }

    private static func make(
        _ result: BuildResult, site: SiteBuilder.SiteModel, options: BuildOptions, started: [(path: String, status: FileStatus?)],
        listedAt: Int64, racyWindow: Int64, written: BuildManifest
    ) -> NoChangeRecord? {
        // The record holds the statuses the build started from, taken before it read a byte: a file
        // edited (or made, or removed) while the build ran has moved on from them, and the next
        // build, which compares them with what it finds, builds again. (Listing the site a second
        // time here to find such a file was 20-35 ms at the end of every build of `medium`.) A
        // file edited within the file system's timestamp granularity before the listing could be
        // edited again with no change of status ("racy" files, as git calls them): no record.
        guard !started.contains(where: { !($0.status?.isSettled(before: listedAt, window: racyWindow) ?? true) }),
            let manifest = FileStatus(path: options.outputDirectory.appending(path: OutputWriter.manifestName).path, followingLinks: false)
        else { return nil }
        let outputs = written.files.compactMap { path, record in record.entry.map { (path, $0.size) } }.sorted { $0.0 < $1.0 }
        let record = NoChangeRecord(
            identity: identity(options), now: options.now.secondsSince1970,
            validUntil: site.validUntil, inputs: started, manifest: manifest,
            outputs: outputs, pageCount: result.pageCount, imagesReused: result.imagesEncoded + result.imagesReused,
            baseURL: result.baseURL, timeZone: result.timeZone.identifier, diagnostics: result.diagnostics)
        return record
    }

    // MARK: - Text

    var text: String {
        var lines = ["identity \(identity)", "now \(now) \(validUntil.map { String($0) } ?? "exact")"]
        lines.append("summary \(pageCount) \(imagesReused) \(BuildManifest.encode(baseURL)) \(BuildManifest.encode(timeZone))")
        lines.append("manifest \(manifest.fields)")
        for diagnostic in diagnostics {
            let place = diagnostic.location
            lines.append(
                "d \(diagnostic.severity.rawValue) \(place.line ?? -1) \(place.column ?? -1) \(BuildManifest.encode(place.path)) \(BuildManifest.encode(diagnostic.message))")
        }
        for input in inputs {
            lines.append("in \(input.status?.fields ?? "- - - - -") \(BuildManifest.encode(input.path))")
        }
        for output in outputs { lines.append("out \(output.size) \(BuildManifest.encode(output.path))") }
        return lines.joined(separator: "\n") + "\n"
    }

    init(
        identity: String, now: Double, validUntil: Double?, inputs: [(path: String, status: FileStatus?)], manifest: FileStatus,
        outputs: [(path: String, size: Int)], pageCount: Int, imagesReused: Int, baseURL: String, timeZone: String, diagnostics: [Diagnostic]
    ) {
        self.identity = identity
        self.now = now
        self.validUntil = validUntil
        self.inputs = inputs
        self.manifest = manifest
        self.outputs = outputs
        self.pageCount = pageCount
        self.imagesReused = imagesReused
        self.baseURL = baseURL
        self.timeZone = timeZone
        self.diagnostics = diagnostics
    }

    /// Reads a record; anything unexpected gives `nil` (and a full build). With `proceed`, the
    /// record read up to its outputs is handed to it first, and `false` stops there with `nil`.
    init?(text: String, readingOutputsIf proceed: ((NoChangeRecord) -> Bool)? = nil) {
        var text = text
        guard let record = text.withUTF8({ Self.parse($0, proceed: proceed) }) else { return nil }
        self = record
    }

    /// Whether `bytes` read as a record that writes back as itself (`nil` when they do not read as
    /// one): for the fuzz target, which feeds it arbitrary values from an untrusted memo.
    package static func readsBack(_ bytes: [UInt8]) -> Bool? {
        guard let record = bytes.withUnsafeBufferPointer({ parse($0, proceed: nil) }) else { return nil }
        let again = Array(record.text.utf8).withUnsafeBufferPointer { parse($0, proceed: nil) }
        return again == record
    }

    /// The record of a 32,000-page site is 2 MB of 41,000 lines, read before every build: its
    /// input and output lines (all but a handful) are read on bytes, with no string per line and
    /// none per field but the path. A string and a split per line were a third of a no-change
    /// rebuild.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, proceed: ((NoChangeRecord) -> Bool)?) -> NoChangeRecord? {
        parse(bytes, proceed: proceed, stoppingAtOutputs: false)?.record
    }

    /// - Parameter stoppingAtOutputs: hand back the offset of the first output line rather than
    ///   read the outputs (`outputsInPlace(lines:in:)` reads and checks them on all cores).
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, proceed: ((NoChangeRecord) -> Bool)?, stoppingAtOutputs: Bool)
        -> (record: NoChangeRecord, outputsAt: Int?)?
    {
        var lines = RecordLines(bytes)
        func text(_ line: RecordLines.Line) -> Substring { Substring(String(decoding: line, as: UTF8.self)) }
        func fields(_ tag: String, _ count: Int) -> [Substring]? {
            guard let line = lines.next().map(text) else { return nil }
            let parts = line.split(separator: " ", maxSplits: count, omittingEmptySubsequences: false)
            return parts.count == count + 1 && parts[0] == tag ? Array(parts.dropFirst()) : nil
        }
        guard let identity = fields("identity", 1), let now = fields("now", 2), let nowValue = Double(now[0]),
            let summary = fields("summary", 4), let pages = Int(summary[0]), let reused = Int(summary[1]),
            let manifestStatus = lines.next().flatMap(RecordFields.manifestStatus)
        else { return nil }
        let validUntil: Double?
        if now[1] == "exact" {
            validUntil = nil
        } else {
            guard let until = Double(now[1]) else { return nil }
            validUntil = until
        }
        var record = NoChangeRecord(
            identity: String(identity[0]), now: nowValue, validUntil: validUntil, inputs: [], manifest: manifestStatus, outputs: [],
            pageCount: pages, imagesReused: reused, baseURL: BuildManifest.decode(summary[2]), timeZone: BuildManifest.decode(summary[3]),
            diagnostics: [])
        var proceeded = proceed == nil
        while let line = lines.next() {
            guard !line.isEmpty else { continue }
            var fields = RecordFields(line)
            guard let tag = fields.next() else { return nil }
            if !proceeded && tag.elementsEqual("out".utf8) {
                // The outputs come last: everything else is read.
                guard proceed?(record) == true else { return nil }
                proceeded = true
            }
            if stoppingAtOutputs && tag.elementsEqual("out".utf8) { return (record, line.startIndex) }
            if tag.elementsEqual("out".utf8) {
                guard let size = fields.next().flatMap(RecordFields.integer) else { return nil }
                let path = RecordFields.path(fields.rest)
                // The record is as untrusted as the rest of the site folder: only plain paths are stat'ed.
                guard OutputPath.isPlain(path) else { return nil }
                record.outputs.append((path, Int(size)))
            } else if tag.elementsEqual("in".utf8) {
                guard let size = fields.next(), let modified = fields.next(), let changed = fields.next(), let inode = fields.next(),
                    let device = fields.next()
                else { return nil }
                let path = RecordFields.path(fields.rest)
                if size.elementsEqual("-".utf8) {
                    record.inputs.append((path, nil))
                } else {
                    guard let status = RecordFields.status([size, modified, changed, inode, device]) else { return nil }
                    record.inputs.append((path, status))
                }
            } else if tag.elementsEqual("d".utf8) {
                let parts = text(line).split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
                guard parts.count == 6, let severity = Severity(rawValue: String(parts[1])), let row = Int(parts[2]), let column = Int(parts[3])
                else { return nil }
                let place = SourceLocation(path: BuildManifest.decode(parts[4]), line: row < 0 ? nil : row, column: column < 0 ? nil : column)
                record.diagnostics.append(Diagnostic(severity, BuildManifest.decode(parts[5]), at: place))
            } else {
                return nil
            }
        }
        if !proceeded && proceed?(record) != true { return nil }
        return (record, nil)
    }
}

/// A record's output lines (`out <size> <path>`), checked in runs on several threads at once.
/// Holds the record's bytes unowned: `replay` keeps them alive until every run is done.
private struct OutputLines: @unchecked Sendable {
    let base: UnsafeBufferPointer<UInt8>

    /// How many outputs `run` names, when each is a regular file of its size with only real
    /// folders on the way; `nil` when one is not, or a line is out of shape.
    func inPlace(_ run: Range<Int>, rootFD: Int32) -> Int? {
        var lookup = OutputLookup(root: rootFD)
        var path: [UInt8] = []
        var count = 0
        var lines = RecordLines(UnsafeBufferPointer(rebasing: base[run]))
        while let line = lines.next() {
            guard !line.isEmpty else { continue }
            var fields = RecordFields(line)
            guard let tag = fields.next(), tag.elementsEqual("out".utf8), let size = fields.next().flatMap(RecordFields.integer)
            else { return nil }
            path.removeAll(keepingCapacity: true)
            if fields.rest.contains(0x25) { path += RecordFields.path(fields.rest).utf8 } else { path += fields.rest }
            guard OutputPath.longestName(bytes: path) != nil, case .file(let found) = lookup.entry(at: &path), Int64(found) == size
            else { return nil }
            count += 1
        }
        return count
    }
}

/// The lines of a record's bytes, split at each line feed, empty ones included.
private struct RecordLines {
    typealias Line = Slice<UnsafeBufferPointer<UInt8>>
    let bytes: UnsafeBufferPointer<UInt8>
    var start = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func next() -> Line? {
        guard start <= bytes.count else { return nil }
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        defer { start = end + 1 }
        return bytes[start..<end]
    }
}

/// The space-separated fields of one line: `next` gives a field followed by a space (`nil` when
/// no space is left), `rest` what follows the last one, as `split(maxSplits:)` would.
private struct RecordFields {
    var rest: RecordLines.Line

    init(_ line: RecordLines.Line) { rest = line }

    mutating func next() -> RecordLines.Line? {
        guard let space = rest.firstIndex(of: 0x20) else { return nil }
        defer { rest = rest[(space + 1)...] }
        return rest[..<space]
    }

    /// Decimal digits, an optional leading `-`; `nil` for anything else or an overflow.
    static func integer(_ field: RecordLines.Line) -> Int64? {
        guard field.first == UInt8(ascii: "-") else { return unsigned(field).flatMap { Int64(exactly: $0) } }
        return unsigned(field.dropFirst()).flatMap { $0 == UInt64(Int64.max) + 1 ? Int64.min : Int64(exactly: $0).map { -$0 } }
    }

    static func unsigned(_ field: RecordLines.Line) -> UInt64? {
        guard !field.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in field {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflowed && !carried else { return nil }
            value = sum
        }
        return value
    }

    /// A status from its five fields, as `FileStatus.fields` writes them.
    static func status(_ values: [RecordLines.Line]) -> FileStatus? {
        guard values.count == 5, let size = integer(values[0]), let modified = integer(values[1]), let changed = integer(values[2]),
            let inode = unsigned(values[3]), let device = unsigned(values[4])
        else { return nil }
        return FileStatus(size: size, modified: modified, changed: changed, inode: inode, device: device)
    }

    /// The status on the `manifest` line: the tag, then the five fields, the last ending the line.
    static func manifestStatus(_ line: RecordLines.Line) -> FileStatus? {
        var fields = RecordFields(line)
        guard fields.next()?.elementsEqual("manifest".utf8) == true else { return nil }
        var values: [RecordLines.Line] = []
        for _ in 0..<4 {
            guard let value = fields.next() else { return nil }
            values.append(value)
        }
        return status(values + [fields.rest])
    }

    /// A path as the record encodes it (`BuildManifest.encode`).
    static func path(_ field: RecordLines.Line) -> String {
        let text = String(decoding: field, as: UTF8.self)
        return field.contains(0x25) ? BuildManifest.decode(Substring(text)) : text
    }
}

/// The status as the record keeps it, as text.
extension FileStatus {
    var fields: String { "\(size) \(modified) \(changed) \(inode) \(device)" }

    /// The running `daybook` executable's status as text: what the record and every cache file
    /// name, so that another build of the program trusts neither.
    static var executableFields: String { Bundle.main.executablePath.flatMap { FileStatus(path: $0) }?.fields ?? "unknown" }
}
