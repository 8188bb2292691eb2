import DaybookModel

/// What checking one page, feed or sitemap found, with what the check read beyond the file's own
/// bytes, kept in the facts cache so that the next check takes it again instead of resolving the
/// file's links once more. After a one-post edit, resolving 1.5 million links of pages that did
/// not change was a third of `daybook check`'s time.
///
/// A verdict holds for the file's bytes at its path over one set of files and one base URL: the
/// cache key says all three (`key(context:path:facts:)`), so a file that comes or goes makes
/// every verdict miss, and links are judged against the files as they are. Besides that, a link
/// to `page#id` reads the ids of the page it leads to: the verdict lists those pages and a hash
/// of their ids, and is taken again only while that hash holds.
struct FileVerdict: Sendable, Equatable {
    var diagnostics: [Diagnostic] = []
    /// Links to files of the site (a page's), or URLs listed (a sitemap's).
    var count = 0
    /// The links that left the site, as indexes of the check's table (the raw link; the report
    /// lists it as `LinkResolver.trimmed` gives it).
    var external: [UInt32] = []
    /// Pages, by index in path order, whose ids a fragment of a link was looked up in; the file's
    /// own ids are not listed (its bytes are in the key).
    var targets: [UInt32] = []
    /// `CheckedPages.idsHash(of:)` over `targets`; not read when there are none.
    var targetsHash: UInt64 = 0

    /// Mixed into every verdict's key, so that it never meets a page's facts or a feed's summary.
    static let keyTag: UInt64 = 0x7665_7264_6963_7473

    /// What every verdict of a check depends on: the base URL links are judged by, every file
    /// of the output, and which pages could not be read (a link's fragment is not looked up on
    /// those). The files are summed, not sorted: a check after an edit does this over 35,000 paths.
    static func context(baseURL: String, files: Set<String>, unread: [Int]) -> UInt64 {
        var sum: UInt64 = 0
        for path in files { sum &+= StableHash.of(path.utf8) }
        var hash = StableHash()
        hash.combine(bits: keyTag)
        hash.combine(baseURL)
        hash.combine(bits: UInt64(files.count))
        hash.combine(bits: sum)
        for index in unread { hash.combine(bits: UInt64(index)) }
        return hash.value
    }

    /// The key of the verdict on the file at `path` whose bytes have the facts key `facts`.
    static func key(context: UInt64, path: String, facts: UInt64) -> UInt64 {
        var hash = StableHash()
        hash.combine(bits: context)
        hash.combine(path)
        hash.combine(bits: facts)
        return hash.value
    }

    /// The pages whose ids a file's links were judged by, gathered link by link.
    struct Targets {
        private var pages = Set<UInt32>()

        /// Notes the page `answer` looked a fragment up on, unless it is `page`, the file's own.
        mutating func note(_ answer: LinkAnswers.Answer, from page: Int?) {
            guard case .file(_, let target?, _?) = answer, target != page else { return }
            pages.insert(UInt32(target))
        }

        func verdict(diagnostics: [Diagnostic], on site: CheckedPages) -> FileVerdict {
            let targets = pages.sorted()
            return FileVerdict(diagnostics: diagnostics, targets: targets, targetsHash: site.idsHash(of: targets))
        }
    }

    /// Whether the pages whose ids this verdict read still hold the same ids.
    func holds(on pages: CheckedPages) -> Bool {
        targets.isEmpty || (targets.allSatisfy { Int($0) < pages.paths.count } && pages.idsHash(of: targets) == targetsHash)
    }

    /// Reads what `encode` wrote; `nil` when damaged or naming a string past `tableCount`.
    init?(payload: ArraySlice<UInt8>, tableCount: Int) {
        var reader = ByteReader(payload, at: payload.startIndex)
        guard let diagnostics = ByteReader.elements(reader.listCount(minimumBytes: 20), { Self.diagnostic(&reader) }),
            let count = reader.uint32(),
            let external = ByteReader.elements(reader.listCount(minimumBytes: 4), { reader.uint32().flatMap { Int($0) < tableCount ? $0 : nil } }),
            let targets = ByteReader.elements(reader.listCount(minimumBytes: 4), { reader.uint32() }),
            let targetsHash = reader.uint64(), reader.atEnd
        else { return nil }
        (self.diagnostics, self.count, self.external, self.targets, self.targetsHash) = (diagnostics, Int(count), external, targets, targetsHash)
    }

    init(diagnostics: [Diagnostic] = [], count: Int = 0, external: [UInt32] = [], targets: [UInt32] = [], targetsHash: UInt64 = 0) {
        (self.diagnostics, self.count, self.external, self.targets, self.targetsHash) = (diagnostics, count, external, targets, targetsHash)
    }

    private static func diagnostic(_ reader: inout ByteReader) -> Diagnostic? {
        guard let isError = reader.bool(), let path = reader.string(), let location = reader.location(path: path) ?? nil,
            let message = reader.string()
        else { return nil }
        return Diagnostic(isError ? .error : .warning, message, at: location)
    }
}

extension FileVerdict: ArchivedFacts {
    var strings: [UInt32] { external }

    func encode(_ index: (UInt32) -> UInt32) -> [UInt8] {
        var writer = ByteWriter()
        writer.uint32(UInt32(diagnostics.count))
        for diagnostic in diagnostics {
            writer.bool(diagnostic.severity == .error)
            writer.string(diagnostic.location.path)
            writer.location(diagnostic.location)
            writer.string(diagnostic.message)
        }
        writer.uint32(UInt32(clamping: count))
        writer.uint32(UInt32(external.count))
        for string in external { writer.uint32(index(string)) }
        writer.uint32(UInt32(targets.count))
        for target in targets { writer.uint32(target) }
        writer.uint64(targetsHash)
        return writer.bytes
    }

    func remapped(_ map: [UInt32]) -> FileVerdict {
        var verdict = self
        verdict.external = external.map { map[Int($0)] }
        return verdict
    }
}

/// Where one check finds and leaves its verdicts: keyed by the check's context (`nil` when the
/// check keeps no cache, and then every file is checked).
struct VerdictKeys {
    let context: UInt64?

    init(_ context: UInt64?) { self.context = context }

    /// The key of the verdict on the file at `path` whose bytes have the key `facts`; `nil` when
    /// the check keeps no cache.
    func key(path: String, facts: UInt64) -> UInt64? {
        context.map { FileVerdict.key(context: $0, path: path, facts: facts) }
    }

    /// The cached verdict under `key`, if it still holds.
    func held(_ cache: PageFactsCache?, key: UInt64?, on site: CheckedPages) -> FileVerdict? {
        guard let key, let verdict = cache?.verdict(key), verdict.holds(on: site) else { return nil }
        return verdict
    }

    /// Leaves this run's verdict under `key` in `cache`, for the next run.
    func record(_ verdict: FileVerdict, in cache: inout PageFactsCache?, key: UInt64?, cached: Bool) {
        guard let key else { return }
        cache?.use(verdict, key: key, cached: cached)
    }
}
