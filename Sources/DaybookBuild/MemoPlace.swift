import DaybookIncremental
import DaybookModel
import Foundation

/// Where a build's memo (`MemoTable`) is kept between builds: in `serve`'s memory, or in
/// `<site>/.daybook-cache/memo` for `daybook build`. A build into memory (the tests' `MemoOutput`)
/// keeps none, and makes everything.
enum MemoPlace: Sendable {
    case none
    case process(ProcessMemo)
    case site(URL, faults: WriteFaults)

    static let cacheName = "memo"
    /// No larger container is read: a 150,000-page site's is a few hundred MB.
    static let maxBytes = 2 << 30

    /// What a build hands on once its output is in place: the table itself to a process, the
    /// container to the cache folder (prepared beside the pages, where a core is free, rather
    /// than after the commit, which the command waits for; its values written from where they
    /// are, not copied into one array first), appended to the file it was read from unless
    /// that is worth compacting.
    enum Kept: Sendable {
        case nothing
        case table(MemoTable)
        case container(MemoContainer.Prepared)
    }

    /// `Kept` as it is being prepared on another core while the build commits its output: a
    /// container's values stored decoded are encoded then (the page facts, 3 MB on a medium
    /// site, were a twentieth of a rebuild after a caption edit, waited for before the commit).
    struct Preparing: Sendable {
        private let task: Task<Kept, Never>?

        static let nothing = Preparing(task: nil)

        private init(task: Task<Kept, Never>?) { self.task = task }

        init(_ place: MemoPlace, _ table: MemoTable) {
            task = Task.detached(priority: .userInitiated) { place.kept(table) }
        }

        var kept: Kept { get async { await task?.value ?? .nothing } }
    }

    /// - Parameters:
    ///   - opened: the site's memo as already opened (`NoChangeRecord.replay`), taken when it
    ///     read, rather than opened again.
    ///   - spills: whether a table read from nothing writes its results to the cache folder as
    ///     they are stored (`MemoSpillFile`), for the save; not for a table that is never saved.
    func load(opened: MemoTable? = nil, spills: Bool = true) -> MemoTable {
        switch self {
        case .none: return MemoTable()
        case .process(let memo): return memo.table
        case .site(let site, _):
            if let opened, opened.isRead { return opened }
            let read = MemoFile.table(site: site, maxBytes: Self.maxBytes)
            if read.isRead { return read }
            // Nothing to read: the fresh memo is written as the build goes.
            var table = MemoTable()
            if spills { table.spill = MemoSpillFile.create(site: site) }
            return table
        }
    }

    /// Keeps `value` decoded in what a process will keep (`HeldValues`); the container keeps none.
    func holding<Value>(_ held: HeldValue<Value>, _ value: Value?, in kept: Kept) -> Kept {
        guard case .table(var table) = kept else { return kept }
        held.keep(value, in: &table)
        return .table(table)
    }

    /// What `save` will keep of `table`.
    func kept(_ table: MemoTable) -> Kept {
        switch self {
        case .none: .nothing
        case .process: .table(table)
        case .site: table.changed ? .container(table.prepared()) : .nothing
        }
    }

    /// A value made once the rest of the memo was prepared, to file with it: under `step` and id 0,
    /// or, when `value` is `nil`, no longer.
    struct Filed {
        var step: MemoStep
        var value: [UInt8]?
    }

    /// Keeps what a successful build made for the next one, with `last` filed beside it; the
    /// error when the file could not be written.
    func save(_ kept: Kept, filing last: Filed? = nil) -> Diagnostic? {
        var kept = kept
        if case .site(let site, _) = self, let last {
            switch kept {
            case .container(let container): kept = .container(container.filing(last.step, 0, version: 0, value: last.value))
            case .nothing:
                // Nothing else changed: the memo as saved, read again (its index alone), with the
                // value. Without one, it stays as saved: a build record left there by an earlier
                // build is checked whole against the site before it is ever replayed.
                guard let value = last.value else { break }
                var table = MemoFile.table(site: site, maxBytes: Self.maxBytes)
                table.store(last.step, 0, version: 0, value: value)
                kept = .container(table.prepared())
            case .table: break
            }
        }
        switch (self, kept) {
        case (.process(let memo), .table(let table)):
            memo.table = table
            return nil
        case (.site(let site, let faults), .container(let container)):
            if let spill = container.spill as? MemoSpillFile { return spill.commit(container, site: site, faults: faults) }
            return MemoFile.save(container, site: site, name: Self.cacheName, faults: faults)
        default:
            return nil
        }
    }
}
