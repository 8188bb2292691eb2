import DaybookModel

/// What a load reads before any content file: `site.yml`, the content files to decode in path
/// order, and what each file's decoding reads beyond its own bytes. A load is this, each file
/// decoded (`decode`), the records merged (`merged`) and checked (`ContentValidator`): the
/// incremental layer takes a file's records from an earlier build while its `version` is the same.
package struct ContentSources: Sendable {
    /// One content file and the collection its path names.
    package struct File: Sendable {
        package let path: String
        let collection: ContentCollection
        /// Whether it holds comments: what the comments' checks are made of.
        package var holdsComments: Bool { collection == .comments }
        /// Whether it is a whole collection's file (`content/comments.json`), which may hold
        /// 100,000 records where a file in a collection's folder holds one.
        package var holdsCollection: Bool { !path.utf8.dropFirst("content/".utf8.count).contains(UInt8(ascii: "/")) }
    }

    /// One file's records, with what its decoding said.
    package struct Decoded: Sendable {
        package var records = DecodedRecords()
        var diagnostics: [Diagnostic] = []
        /// The symbolic links out of the site folder its image fields named (each said once).
        var namedOutsideLinks: Set<String> = []

        package init(records: DecodedRecords) { self.records = records }

        init(records: DecodedRecords, diagnostics: [Diagnostic], namedOutsideLinks: Set<String>) {
            (self.records, self.diagnostics, self.namedOutsideLinks) = (records, diagnostics, namedOutsideLinks)
        }

        /// Whether it decoded without a word: only such records are kept for a later build, so a
        /// kept file never hides a problem.
        package var isClean: Bool { diagnostics.isEmpty && namedOutsideLinks.isEmpty }
    }

    /// Every file's records in path order, with what was said of the files.
    package struct Merged: Sendable {
        package var records = DecodedRecords()
        package var diagnostics: [Diagnostic] = []
    }

    package let config: SiteConfig
    /// What was said of `site.yml`.
    let configDiagnostics: [Diagnostic]
    /// In path order, so the records' order (and every tie the feed does not break) never depends
    /// on the disk or the threads.
    package let files: [File]
    let snapshot: ContentSnapshot
    let showsDrafts: Bool
    /// What every file's decoding reads beyond its path and bytes (`version(of:bytes:)`).
    private let context: UInt64

    package init(_ snapshot: ContentSnapshot, showsDrafts: Bool) {
        var configBytes = snapshot.sources[ConfigReader.path]
        var diagnostics: [Diagnostic] = []
        if let bytes = configBytes, let bad = ContentText.firstInvalidUTF8(in: bytes) {
            diagnostics.append(Diagnostic(.notUTF8, at: SourceLocation(path: ConfigReader.path, line: bad.line, column: bad.column)))
            configBytes = nil
        }
        var (config, configDiagnostics) = ConfigReader.read(configBytes)
        if let icon = config.icon, let problem = Self.iconProblem(icon, in: snapshot) {
            configDiagnostics.append(Diagnostic(problem, at: config.iconPosition ?? SourceLocation(path: ConfigReader.path)))
            config.icon = nil
        }
        self.config = config
        self.configDiagnostics = diagnostics + configDiagnostics
        let listed = Set(snapshot.sources.keys).union(snapshot.unreadSources).sorted()
        files = listed.compactMap { path in
            path == ConfigReader.path ? nil : ContentLoader.collection(of: path).map { File(path: path, collection: $0) }
        }
        self.snapshot = snapshot
        self.showsDrafts = showsDrafts
        context = Self.context(snapshot, base: config.absoluteBase, showsDrafts: showsDrafts)
    }

    /// What is wrong with `icon` in site.yml, checked as an image field is: a plain path under
    /// `content/` naming a file there. No URL: the icons are made from the file.
    private static func iconProblem(_ icon: String, in snapshot: ContentSnapshot) -> ContentProblem? {
        switch ImageReference.isAbsoluteURL(icon) ? .unsafe : ImageReference.verdict(icon, in: snapshot) {
        case .fine: nil
        case .unsafe: .iconNotAPath(icon)
        case .outside(let link): .imageThroughOutsideLink(field: "icon", path: icon, link: link)
        case .missing: .missingImage(field: "icon", path: icon, written: nil, item: "site")
        case .passedOver: .hiddenImage(field: "icon", path: icon, item: "site")
        }
    }

    /// The file's bytes, read now when the snapshot holds only its status (`readSource`).
    package func bytes(of file: File) -> [UInt8]? { snapshot.sources[file.path] ?? snapshot.readSource?(file.path) }

    /// The version of `file`'s decoding without reading it: the key of its bytes the snapshot
    /// holds (an unread source's, from its status), or of the bytes it holds. `nil` when it holds
    /// neither.
    package func version(of file: File) -> UInt64? {
        if let key = snapshot.contentKeys[file.path] { return version(of: file, contentKey: key) }
        return snapshot.sources[file.path].map { version(of: file, bytes: $0) }
    }

    /// The version of `file`'s decoding from these very bytes: everything `decode` reads.
    package func version(of file: File, bytes: [UInt8]) -> UInt64 { version(of: file, contentKey: StableHash.ofContent(bytes)) }

    private func version(of file: File, contentKey: UInt64) -> UInt64 {
        var hash = StableHash()
        hash.combine("content-file-1")
        hash.combine(file.path)
        hash.combine(bits: context)
        hash.combine(bits: contentKey)
        return hash.value
    }

    /// Whether drafts show, and what image fields are checked against: the files under
    /// `content/`, the links leading out, and the site's own address (`ImageReference.localPath`).
    private static func context(_ snapshot: ContentSnapshot, base: String?, showsDrafts: Bool) -> UInt64 {
        var hash = StableHash()
        hash.combine(showsDrafts)
        hash.combine(base ?? "")
        for path in snapshot.assets.sorted() { hash.combine(path) }
        hash.combine("\u{0}links")
        for path in snapshot.outsideLinks.sorted() { hash.combine(path) }
        return hash.value
    }

    /// One file's records, read and decoded.
    package func decode(_ file: File) -> Decoded {
        guard let bytes = bytes(of: file) else { return Decoded(records: DecodedRecords(), diagnostics: [Diagnostic(.cannotRead, at: SourceLocation(path: file.path))], namedOutsideLinks: []) }
        return decode(file, bytes: bytes)
    }

    /// One file's records from `bytes`.
    package func decode(_ file: File, bytes: [UInt8]) -> Decoded {
        let decoded = ContentLoader.decodeFile(
            path: file.path, bytes: bytes, collection: file.collection, snapshot: snapshot, showsDrafts: showsDrafts, siteBase: config.absoluteBase)
        return Decoded(records: decoded.records, diagnostics: decoded.diagnostics, namedOutsideLinks: decoded.namedOutsideLinks)
    }

    /// Every file's records in path order, with what `site.yml`, the files and the links out of
    /// the site folder that no image field named say.
    package func merged(_ decoded: consuming [Decoded]) -> Merged {
        var merged = Merged()
        merged.diagnostics = configDiagnostics
        var namedLinks = Set<String>()
        // Each file's records taken, not copied: copied out of the list and into the merged
        // records, a site's 100,000 comments were counted and uncounted twice over.
        decoded.reverse()
        while let file = decoded.popLast() {
            merged.records.append(contentsOf: file.records)
            merged.diagnostics += file.diagnostics
            namedLinks.formUnion(file.namedOutsideLinks)
        }
        for link in snapshot.outsideLinks.subtracting(namedLinks).sorted() {
            merged.diagnostics.append(Diagnostic(.linkOutsideSite(path: link), at: SourceLocation(path: link)))
        }
        return merged
    }

    /// The loaded site: the settings, the checked content, and every diagnostic of the load, sorted.
    package func loaded(_ merged: Merged, content: SiteContent, diagnostics: [Diagnostic]) -> LoadedSite {
        LoadedSite(config: config, content: content, diagnostics: (merged.diagnostics + diagnostics).sorted())
    }
}
