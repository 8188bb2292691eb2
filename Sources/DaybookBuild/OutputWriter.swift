import DaybookFeed
import DaybookModel
import DaybookRender
import Foundation

/// What a write changed in the output folder.
package struct WriteReport: Sendable, Hashable {
    package var written: Int = 0
    package var unchanged: Int = 0
    package var removed: Int = 0
    /// Paths written and removed, for `--verbose`.
    package var writtenPaths: [String] = []
    package var removedPaths: [String] = []

    package init(written: Int = 0, unchanged: Int = 0, removed: Int = 0) {
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
    }

    package static func == (a: WriteReport, b: WriteReport) -> Bool {
        (a.written, a.unchanged, a.removed) == (b.written, b.unchanged, b.removed)
    }

    package func hash(into hasher: inout Hasher) { hasher.combine([written, unchanged, removed]) }
}

/// Brings the output folder to exactly the files of a build, touching as little as it can.
///
/// Protocol: `check` (before anything is written: every path is short and plain enough, no page
/// would replace a file the build did not write, and no link or file stands where a page or its
/// folder goes), `begin`, `write` batches (staged: the folder does not change yet), then `finish`
/// (note what the previous build wrote and this one did not, stage the record, and commit it
/// all at once), or `discard` when the build fails before that.
///
/// - The record of the previous build is read back as untrusted input: one path that is not plain
///   (`OutputPath.isPlain`) and the whole record is ignored, with a warning. The build then owns
///   nothing, so every file in the folder is foreign.
/// - All or nothing (CONTRACT §6): files are staged by the sink and put in place by one commit,
///   which the sink undoes when any step of it fails, so a failed build leaves the folder as it
///   was, byte for byte. Just before the commit, the build saves its intent (`.daybook-intent`):
///   the paths it is about to write that the record does not hold yet. While that file exists,
///   every path of the record and of the intent is owned with bytes unknown, so a build killed
///   during the commit is repaired by the next, which writes them all again. The record is the
///   commit's last file; the intent is removed after it. (The intent was once the whole record
///   rewritten with every file unknown: a second 3 MB record per build on a 30,000-page site.)
/// - Each file is renamed into place whole by the sink, so a reader never sees half a page.
/// - A file is not touched when its hash and size match the record and the file on disk has that
///   size: modification times stay, and sync tools see nothing to do. A build with nothing to
///   change writes nothing at all, its record included.
/// - A file the build did not write is never removed or replaced, and a link is never written
///   through (unless `force`, which replaces the file or the link itself).
///
/// The whole folder is not swapped in one rename: that would mean re-linking every unchanged
/// file into a staged tree on every build, and replacing the folder under tools (and `serve`)
/// that hold it open. Per-file atomic replacement keeps both of those working.
package final class OutputWriter {
    package static let manifestName = ".daybook-manifest"
    /// The paths a running build is about to write (`saveIntent`); left behind only by a kill.
    package static let intentName = ".daybook-intent"

    package let sink: any OutputSink
    package let force: Bool
    /// The output folder as diagnostics name it.
    package let label: String
    /// The record of the previous build into this folder; empty when there is none or it was refused.
    package let previous: BuildManifest
    /// Why the previous build's record was refused, as a warning; `nil` when it was used or absent.
    package let recordProblem: Diagnostic?

    /// The record's bytes on disk now, so an unchanged record is not written again.
    private var recordOnDisk: [UInt8]?
    /// What `check` found at each planned path it looked up (with its own record, the paths the
    /// record does not hold: `entry(at:)`), and what the look-ahead found at the previous build's
    /// files, planned or not.
    private var onDisk: [String: OutputEntry] = [:]
    /// What `lookAhead` found at each of the previous build's files, for `check` to take.
    private var lookedAhead: [String: OutputEntry] = [:]
    private var planned: [String] = []
    /// Whether an intent is on disk now: one a killed build left, or this build's.
    private var intentOnDisk = false
    /// The bytes of the intent a killed build left, put back should this build's commit be undone.
    private var inheritedIntentBytes: [UInt8]?
    /// The paths a killed build's intent named: this build's intent names them again, so that a
    /// second kill still leaves them owned.
    private var inheritedIntent: [String] = []
    /// The manifest `finish` saved.
    private var finished: BuildManifest?
    /// The order of the previous record's files, when it listed them in written order
    /// (`BuildManifest.Parsed`): the new record is written in it when it has the same files.
    private var previousPathOrder: [String]?
    /// Where the previous record's lines lie in `recordOnDisk`, by their place in `previousPathOrder`.
    private var previousLines: BuildManifest.Lines?
    /// Whether the saved record was the previous one with the changed paths' lines replaced.
    package private(set) var recordPatched = false
    /// The order the saved record's files were written in, and where its lines lie.
    private var finishedLayout: (pathOrder: [String], lines: BuildManifest.Lines?)?
    /// Whether `check` found every file of the previous build's record among the planned paths,
    /// from a record that a build sealed (no intent): see `startingRecord`.
    private(set) var plansEveryRecordedFile = false
    /// Whether the previous record is one this process saved, still on disk byte for byte
    /// (`known`): every file it records is then taken to be in place as written.
    package let recordIsOwn: Bool

    package convenience init(directory: URL, force: Bool = false) {
        self.init(sink: OutputFolder(directory: directory), force: force)
    }

    /// - Parameter known: the record this process saved last, with its bytes (`serve`). When the
    ///   record on disk still has exactly those bytes, it is taken unparsed, and `check` takes the
    ///   files it lists to be in place as written, without looking: a preview owns its output
    ///   folder while it runs, and 34,000 lookups were a fifth of a rebuild. Whatever `check` does
    ///   look up, and every write (`OutputSink`), still refuses links.
    /// - Parameter label: the output folder as diagnostics name it (`BuildOptions.outputLabel`).
    package init(sink: any OutputSink, force: Bool = false, known: SavedRecord? = nil, label: String = "output") {
        self.sink = sink
        self.force = force
        self.label = label
        let bytes = sink.contents(of: Self.manifestName)
        recordOnDisk = bytes
        let intent = sink.contents(of: Self.intentName)
        let record = Self.record(bytes, known: intent == nil ? known : nil, label: label)
        recordProblem = record.problem
        recordIsOwn = record.isOwn
        guard let intent else {
            previous = record.manifest
            previousPathOrder = record.pathOrder
            previousLines = record.lines
            return
        }
        // A build was killed after saving its intent: everything the record and the intent name
        // is owned, bytes unknown. An intent that does not read adds no path (what it named is
        // then foreign, and refused without --force).
        var owned = record.manifest
        owned.pageKeys = [:]
        owned.files = owned.files.mapValues { _ in .intended }
        if let text = String(validating: intent, as: UTF8.self), let named = BuildManifest(text: text), named.unsafePath == nil {
            for path in named.files.keys { owned.files[path] = .intended }
            inheritedIntent = Array(named.files.keys)
        }
        previous = owned
        intentOnDisk = true
        inheritedIntentBytes = intent
    }

    /// The previous build's record from its bytes on disk (`nil`: none), or `known` when it has
    /// those very bytes; an empty record, with a warning, when it does not read or is unsafe.
    private static func record(
        _ bytes: [UInt8]?, known: SavedRecord?, label: String
    ) -> (manifest: BuildManifest, pathOrder: [String]?, lines: BuildManifest.Lines?, problem: Diagnostic?, isOwn: Bool) {
        guard let bytes else { return (BuildManifest(), nil, nil, nil, false) }
        if let known, known.bytes == bytes { return (known.manifest, known.pathOrder, known.lines, nil, true) }
        let location = SourceLocation(path: label + "/" + manifestName)
        guard let text = String(validating: bytes, as: UTF8.self), let parsed = BuildManifest.Parsed(text: text) else {
            return (
                BuildManifest(), nil, nil,
                .warning(
                    "cannot read the record of an earlier build, so it is ignored and the build owns no file in the output folder; pass --force once to let the build own them again",
                    at: location), false)
        }
        let manifest = parsed.manifest
        if let unsafe = manifest.unsafePath(keysAreFiles: parsed.keysAreFiles) {
            return (
                BuildManifest(), nil, nil,
                .warning(
                    "the record of an earlier build names '\(unsafe.replacing("\0", with: "\\0"))', which is not a path inside the output folder, so the record is ignored and the build owns no file in the output folder; pass --force once to let the build own them again",
                    at: location), false)
        }
        return (manifest, parsed.pathOrder, parsed.lines, nil, false)
    }

    /// The manifest of the previous build into this folder; empty when there is none or it was refused.
    package func previousManifest() -> BuildManifest { previous }

    /// Looks up what is at each of the previous build's files now, on all cores, for `check` to
    /// take: `SiteBuilder` calls it while the content loads, which leaves a core idle, where the
    /// 34,000 lookups of a rebuild were most of its plan. It reads only; what changes on disk
    /// after this look is what could change after `check`'s own, and every write refuses links.
    package func lookAhead() {
        guard !recordIsOwn else { return }
        // In order, so that neighbours share folders: the record's own when it has one.
        let paths = previousPathOrder ?? previous.files.keys.sorted()
        lookedAhead = Dictionary(uniqueKeysWithValues: zip(paths, sink.entries(at: paths)))
    }

    /// Every problem that stops the build from writing `paths`, found before anything is
    /// written. Remembers what is on disk at each path for `write` and `keepRule`.
    package func check(_ paths: [String]) -> [OutputError] {
        planned = paths
        var errors: [OutputError] = []
        var foreign: [String] = []
        var reported = Set<String>()
        let all = paths + [Self.manifestName, Self.intentName]
        var plain: [String] = []
        plain.reserveCapacity(all.count)
        for path in all {
            if let reason = OutputPath.problem(path, rootBytes: sink.rootBytes) {
                errors.append(OutputError(path: path, reason: reason))
            } else {
                plain.append(path)
            }
        }
        var unknown = plain
        var recorded = 0
        if recordIsOwn {
            // Taken to be as recorded (`entry(at:)`), without an entry of their own in `onDisk`.
            unknown.removeAll { path in
                guard case .written = previous.files[path] else { return false }
                recorded += 1
                return true
            }
        }
        let unseen = unknown.filter { lookedAhead[$0] == nil }
        // What is on disk at every path looked at, planned or not: the look-ahead's table, taken
        // as it is rather than copied path by path (34,000 insertions). Only planned paths are
        // ever asked of it.
        onDisk = lookedAhead
        lookedAhead = [:]
        for (path, entry) in zip(unseen, sink.entries(at: unseen)) { onDisk[path] = entry }
        for path in unknown {
            let entry = onDisk[path] ?? .absent
            switch entry {
            case .absent:
                break
            case .file:
                if previous.files[path] != nil {
                    recorded += 1
                } else if path != Self.manifestName && path != Self.intentName {
                    foreign.append(path)
                }
            case .folder:
                errors.append(OutputError(path: path, reason: .folderInTheWay))
            case .link(let at):
                if !force && reported.insert(at).inserted { errors.append(OutputError(path: at, reason: .symbolicLink)) }
            case .blocked(let at):
                if at == path {
                    if previous.files[path] == nil { foreign.append(path) }
                } else if !force && reported.insert(at).inserted {
                    errors.append(OutputError(path: at, reason: .notAFolder))
                }
            }
        }
        // Planned paths are distinct (the plan refuses two outputs at one path), so the count says
        // whether every recorded file is planned again.
        plansEveryRecordedFile = !intentOnDisk && recorded == previous.files.count
        if !foreign.isEmpty && !force {
            let sorted = foreign.sorted { $0.scalarsPrecede($1) }
            errors.append(OutputError(path: sorted[0], reason: .foreignFiles(sorted)))
        }
        return errors.sorted { $0.path.scalarsPrecede($1.path) }
    }

    /// Starts writing: clears the temporaries a killed build may have left.
    package func begin() {
        sink.clearTemporaries()
    }

    /// Whether a page need not be rendered: its key is the previous build's, and the file the
    /// previous build wrote is still there with its size. Safe to call from every core.
    package var keepRule: @Sendable (String, UInt64) -> Bool {
        let keys = previous.pageKeys
        let files = previous.files
        let disk = onDisk
        let ownRecord = recordIsOwn
        return { path, key in
            guard keys[path] == key, let entry = files[path]?.entry else { return false }
            // With its own record, `check` most often looked up nothing at all.
            if ownRecord && disk.isEmpty { return true }
            return Self.entry(found: disk[path], recorded: entry, ownRecord: ownRecord) == .file(size: entry.size)
        }
    }

    /// The bytes of the previous build's file at a path, when the output still holds it as that
    /// build recorded it, with the given key: the search step moves the last build's cards to
    /// their new files from these rather than make their results again. Safe to call from
    /// every core; the sink reads one file at a time.
    package var previousFileRule: @Sendable (String, UInt64) -> [UInt8]? {
        let files = previous.files
        let disk = onDisk
        let ownRecord = recordIsOwn
        let sink = sink
        return { path, key in
            guard let entry = files[path]?.entry, entry.hash == key,
                Self.entry(found: disk[path], recorded: entry, ownRecord: ownRecord) == .file(size: entry.size),
                let bytes = sink.contents(of: path), bytes.count == entry.size, StableHash.ofContent(bytes) == key
            else { return nil }
            return bytes
        }
    }

    /// What is at a planned path: what `check` found, or for a file this process's own record
    /// holds, the file as recorded.
    private func entry(at path: String) -> OutputEntry? {
        Self.entry(found: onDisk[path], recorded: previous.files[path]?.entry, ownRecord: recordIsOwn)
    }

    /// The rule of `entry(at:)`, on values (`keepRule` holds copies, not the writer): with its own
    /// record, a recorded file is in place unless `check` found otherwise.
    private static func entry(found: OutputEntry?, recorded: BuildManifest.FileEntry?, ownRecord: Bool) -> OutputEntry? {
        found ?? (ownRecord ? recorded.map { .file(size: $0.size) } : nil)
    }

    /// Writes the files whose bytes differ from what the previous build wrote. Returns their records.
    package func write(_ files: [RenderedFile], report: inout WriteReport) throws(OutputError) -> [String: BuildManifest.FileRecord] {
        var records: [String: BuildManifest.FileRecord] = [:]
        var changed: [RenderedFile] = []
        for file in files {
            // Eight bytes a step: byte by byte, hashing the 165 MB of a 32,000-page site's pages
            // cost a fifth of a second. A file is only ever compared with its own earlier entry.
            let entry = BuildManifest.FileEntry(hash: StableHash.ofContent(file.bytes), size: file.bytes.count)
            records[file.path] = .written(entry)
            if previous.files[file.path]?.entry == entry, self.entry(at: file.path) == .file(size: entry.size) {
                report.unchanged += 1
                continue
            }
            changed.append(file)
        }
        try checkRoom(for: changed.map(\.bytes.count))
        for file in changed {
            try sink.stage(file.bytes, at: file.path, replacing: force)
            onDisk[file.path] = .file(size: file.bytes.count)
            report.written += 1
            report.writtenPaths.append(file.path)
        }
        return records
    }

    /// Fails before staging files of these sizes when the file system says it has less room:
    /// with a clear message, rather than `ENOSPC` at whichever file comes last.
    private func checkRoom(for sizes: [Int]) throws(OutputError) {
        guard !sizes.isEmpty, let room = sink.room() else { return }
        let block = max(room.block, 1)
        let needed = sizes.reduce(0) { $0 + ($1 + block - 1) / block * block }
        if needed > room.free { throw OutputError(path: "", reason: .noRoom(needed: needed, free: room.free)) }
    }

    /// Publishes files from the image cache. One the output already holds (the previous record has
    /// its hash and size, and a file of that size is in place) is neither read nor written.
    package func copy(_ files: [CachedFile], report: inout WriteReport) throws(OutputError) -> [String: BuildManifest.FileRecord] {
        var records: [String: BuildManifest.FileRecord] = [:]
        for file in files {
            let entry = BuildManifest.FileEntry(hash: file.hash, size: file.size)
            records[file.path] = .written(entry)
            if previous.files[file.path]?.entry == entry, self.entry(at: file.path) == .file(size: entry.size) {
                report.unchanged += 1
                continue
            }
            guard let bytes = file.contents() else {
                throw OutputError(path: file.path, reason: .damagedCache(file.source))
            }
            try checkRoom(for: [bytes.count])
            try sink.stage(bytes, at: file.path, replacing: force)
            onDisk[file.path] = .file(size: entry.size)
            report.written += 1
            report.writtenPaths.append(file.path)
        }
        return records
    }

    /// The record a build starts from. When it plans every file the previous build recorded (a
    /// rebuild that adds or drops no page), that is the previous record: a kept file's entry and
    /// key are already in it, and nothing in it is stale. Filing 32,000 kept pages one by one, and
    /// looking for stale ones, was a tenth of a `serve` rebuild after a caption edit. Otherwise an
    /// empty record.
    package func startingRecord(lists: [String: ListSnapshot]) -> (manifest: BuildManifest, carried: Bool) {
        guard plansEveryRecordedFile else { return (BuildManifest(lists: lists), false) }
        var manifest = previous
        manifest.lists = lists
        return (manifest, true)
    }

    /// Keeps a file the previous build wrote, unrendered and untouched; `nil` when there is none.
    package func keep(_ path: String, report: inout WriteReport) -> BuildManifest.FileRecord? {
        guard let record = previous.files[path] else { return nil }
        report.unchanged += 1
        return record
    }

    /// Notes what the previous build wrote and this one did not, stages the new record if its
    /// bytes changed, and commits it all: the folder then holds this build's site and record,
    /// or, when this throws, what it held before (unless the error's `state` says otherwise).
    /// - Parameter changed: when the manifest is the previous record (`startingRecord`) changed at
    ///   these paths alone, the record is written as the previous one with their lines replaced.
    package func finish(_ manifest: BuildManifest, changed: [String]? = nil, report: inout WriteReport) throws(OutputError) {
        noteStale(manifest, report: &report)
        try commit(manifest, changed: changed)
    }

    /// Notes what the previous build wrote and this one did not, for the commit to remove.
    private func noteStale(_ manifest: BuildManifest, report: inout WriteReport) {
        // Every recorded file was planned again, and a build writes or keeps all it plans.
        if plansEveryRecordedFile && manifest.files.count >= previous.files.count { return }
        for stale in previous.files.keys.filter({ manifest.files[$0] == nil }).sorted() {
            if sink.stageRemoval(stale) {
                report.removed += 1
                report.removedPaths.append(stale)
            }
            // Earlier versions wrote temporaries beside the file; one a kill left behind goes with it.
            _ = sink.stageRemoval(stale + ".daybook-tmp")
        }
    }

    /// Stages the record if its bytes changed and commits everything staged, the intent saved
    /// first and removed last.
    private func commit(_ manifest: BuildManifest, changed: [String]?) throws(OutputError) {
        let encoded = encode(manifest, changed: changed)
        let bytes = encoded.bytes
        let recordChanged = bytes != recordOnDisk
        if recordChanged { try sink.stage(bytes, at: Self.manifestName, replacing: force) }
        // Nothing staged, nothing noted: a build with nothing to change writes nothing at all.
        if recordChanged || sink.hasStaged {
            try saveIntent()
            do throws(OutputError) { try sink.commit() } catch {
                var failed = error
                if case .unchanged = failed.state, !restoreIntent() { failed.state = .mixed([Self.intentName]) }
                throw failed
            }
            recordOnDisk = bytes
        }
        finishedLayout = (encoded.pathOrder, encoded.lines)
        finished = manifest
        if intentOnDisk {
            do throws(OutputError) { _ = try sink.remove(Self.intentName) } catch {
                // The site is in place; the intent left makes the next build rewrite what it names.
                var failed = error
                failed.state = .replaced
                throw failed
            }
            intentOnDisk = false
        }
        sink.clearTemporaries()
    }

    /// The record's bytes: the previous record's with the changed paths' lines replaced when
    /// the caller knows them and that record's lines are known, else written whole.
    private func encode(_ manifest: BuildManifest, changed: [String]?) -> BuildManifest.Encoded {
        recordPatched = false
        if let changed, let bytes = recordOnDisk, let order = previousPathOrder, let lines = previousLines,
            let patched = manifest.encoded(patching: BuildManifest.Encoded(bytes: bytes, pathOrder: order, lines: lines), changed: changed)
        {
            assert(patched.bytes == manifest.encoded(pathOrder: order).bytes, "a record patched differs from the one written whole")
            recordPatched = true
            return patched
        }
        return manifest.encoded(pathOrder: previousPathOrder)
    }

    /// Drops what a failed build staged: the folder is left as it was.
    package func discard() {
        sink.discard()
        sink.clearTemporaries()
    }

    /// Before the commit: names the paths the build is about to write that the record does not
    /// hold (and those a killed build's intent named), so that a kill from here on leaves a
    /// folder the next build owns and repairs.
    private func saveIntent() throws(OutputError) {
        var intent = BuildManifest()
        for path in inheritedIntent { intent.files[path] = .intended }
        // Planning every recorded file and no more, as a rebuild after an edit does, names no
        // new path: the 34,000 lookups are skipped. The intent is saved all the same: its being
        // on disk is what tells the next build that this one may have been killed.
        if !(plansEveryRecordedFile && planned.count == previous.files.count) {
            for path in planned where previous.files[path] == nil { intent.files[path] = .intended }
        }
        do throws(OutputError) { try sink.write(intent.bytes, to: Self.intentName, replacing: force) } catch {
            sink.discard()
            throw error
        }
        intentOnDisk = true
    }

    /// After an undone commit, the intent as it was before this build: the one a killed build
    /// left, or none. `false` when that fails.
    private func restoreIntent() -> Bool {
        if let inheritedIntentBytes {
            return (try? sink.write(inheritedIntentBytes, to: Self.intentName, replacing: true)) != nil
        }
        guard (try? sink.remove(Self.intentName)) != nil else { return false }
        intentOnDisk = false
        return true
    }

    /// The record on disk now with the manifest it holds, once `finish` saved it; `nil` before.
    package var savedRecord: SavedRecord? {
        finished.map { (recordOnDisk ?? [], $0, finishedLayout?.pathOrder, finishedLayout?.lines) }
    }

    /// A record as saved: its bytes, its manifest, the order of its files' paths and where its lines lie.
    package typealias SavedRecord = (bytes: [UInt8], manifest: BuildManifest, pathOrder: [String]?, lines: BuildManifest.Lines?)
}
