import DaybookCheck
import DaybookContent
import DaybookFeed
import DaybookIncremental
import DaybookLanguage
import DaybookModel
import CHeap
import DaybookParallel
import DaybookRender
import Foundation
import Mustache
import Synchronization

/// The phases of `SiteBuilder.build`, each a value in and a value out.
extension SiteBuilder {
    /// What `read` gives: the site's sources as bytes, and what could not be read.
    struct Sources: Sendable {
        var reader: SiteReader
        var snapshot: ContentSnapshot
        var theme: Theme
        var diagnostics: [Diagnostic]
    }

    /// What `load` gives: the validated content, ordered into feeds, and the compiled theme; then
    /// `publishPhotos` adds the images the content names and a renderer over the compiled theme
    /// (`nil` when a template did not compile).
    struct SiteModel: Sendable {
        var config: SiteConfig
        var content: SiteContent
        var timeZone: TimeZone
        var moment: BuildMoment
        var feeds: SiteFeeds
        var theme: Theme
        var templates: ThemeTemplates?
        /// The theme's words in the site's language (§11).
        var words = ThemeWords.english
        var renderer: SiteRenderer?
        var images: [RenderedFile] = []
        /// Photo copies in the image cache, read only when the output lacks them.
        var cachedImages: [CachedFile] = []
        /// Photos encoded by this build, and reused from the cache (CONTRACT §7's summary words).
        var imageCounts: (encoded: Int, reused: Int) = (0, 0)
        /// Until when this build's output stays right (`NoChangeRecord`), worked out while the
        /// content is at hand: the content is let go once the photos are published.
        var validUntil: Double?
        var diagnostics: [Diagnostic]
    }

    /// What `plan` gives: every file the build will produce, checked against the output folder.
    struct Plan: Sendable {
        var renderer: SiteRenderer
        /// Theme assets and images, written as they are.
        var assets: [RenderedFile]
        /// Photo copies from the image cache.
        var cachedImages: [CachedFile] = []
        var lists: [String: ListSnapshot]
        /// What this build's facts are, for the pages' keys; `nil` when the plan failed before
        /// they were needed.
        var versions: FactVersions?
        /// The facts each page of the previous build read (`PageStep`), `nil` when none are kept.
        /// `--check` renders with them too: into an empty folder in memory, nothing is reused.
        var previousFacts: PageFactTable?
        /// Whether the table was held in memory by the process (`serve`), saved with the output's
        /// record in one memo by the build that wrote both.
        var previousFactsHeld = false
        var diagnostics: [Diagnostic]
        /// Where the incremental layer's memo comes from and goes to.
        var memo = MemoPlace.none
        /// The memo as this build has it so far, for the steps still to run.
        var table = MemoTable()
    }

    /// The whole rendered site in memory, for `--check`.
    struct Rendered: Sendable {
        var files: [String: [UInt8]]
        var pageKeys: [String: UInt64]
        var memo = MemoPlace.Preparing.nothing
        var search = SearchWork()
    }

    /// What the search files cost, beside the pages, for the build's summary.
    struct SearchWork: Sendable {
        var seconds = 0.0
        /// Cards taken from the last build's cards files (`SearchStep.Output.cardsMoved`).
        var cardsMoved = 0
    }

    /// What the write gives: the record of every file, and what changed.
    struct Written: Sendable {
        var manifest: BuildManifest
        /// The paths whose entry or key differ from the previous record's, when the manifest
        /// started as that record (`OutputWriter.startingRecord`); `nil` otherwise.
        var changed: [String]?
        var report: WriteReport
        /// The memo after this build, to keep once its output is in place.
        var memo = MemoPlace.Preparing.nothing
        /// What the search files took, beside the pages.
        var search = SearchWork()
        /// `BuildResult.pagesKeptByTable`.
        var keptByTable = (count: 0, trusted: false, byPlace: false)
    }

    /// What a build found so far, for its result.
    struct Outcome {
        var diagnostics: [Diagnostic] = []
        var baseURL = "/"
        var timeZone = TimeZone.gmt
        var imagesEncoded = 0
        var imagesReused = 0
        var outputState = OutputState.unchanged
    }

    // MARK: - Phases

    /// - Parameters:
    ///   - cached: whether to read and update the content keys kept in the memo
    ///     (`SourceKeysStep`; builds into the output folder on disk, without a session).
    ///   - listed: the walk of `content/` the build made to compare its inputs with the last
    ///     build's, taken by a read without a session instead of walking again.
    ///   - memo: a process's memo (`serve`), which holds the last build's read (`HeldValues.read`)
    ///     for this one to patch with the paths its watcher named.
    func read(
        _ options: BuildOptions, session: BuildSession? = nil, memo: inout MemoTable, cached: Bool = false, listed: SiteReader.Listed? = nil
    ) -> Sources {
        let reader = SiteReader(siteDirectory: options.siteDirectory)
        let held = session == nil ? nil : HeldValues.read.value(in: memo)
        let changed = session.flatMap { $0.memo.changes(adding: $0.changedSources) }
        if let held, let changed, let last = held.read, let patched = reader.reread(last, changed: changed) {
            HeldValues.read.keep(HeldValues.KeptRead(read: patched, files: held.files), in: &memo)
            return Sources(reader: reader, snapshot: patched.snapshot, theme: patched.theme, diagnostics: patched.diagnostics)
        }
        let known = cached && session == nil ? SourceKeysStep.keys(in: memo) : nil
        let (read, files, keys) = reader.readSite(reusing: held?.files, keys: known, listed: session == nil ? listed : nil)
        if session != nil {
            HeldValues.read.keep(HeldValues.KeptRead(read: read, files: files ?? held?.files ?? SiteReader.SourceFiles()), in: &memo)
        }
        if let keys { SourceKeysStep.keep(keys, known: known, memo: &memo) }
        return Sources(reader: reader, snapshot: read.snapshot, theme: read.theme, diagnostics: read.diagnostics)
    }

    /// Validates and orders the content and compiles the theme. Ordering runs even when loading
    /// found errors, over the records that were valid, so one run reports every problem.
    /// - Parameter memo: the incremental layer's memo, through which the content is loaded
    ///   (`ContentStep`) and the feeds ordered (`FeedStep`).
    func load(_ sources: Sources, _ options: BuildOptions, memo: inout MemoTable) async -> SiteModel {
        let theme = Self.defaultTheme.overridden(by: sources.theme)
        // Compiled on another core while the content loads, where nothing held can stand in for
        // it (`compiled`): on the command line, a hundredth of a one-post rebuild, on one core.
        let typedWalk = !rendersThroughSwiftMustache
        let compiling = memo.keepsDecoded ? nil : Task.detached(priority: .userInitiated) { theme.compile(typedWalk: typedWalk) }
        let content = ContentStep.load(sources.snapshot, showsDrafts: options.includeDrafts, memo: &memo)
        let loaded = content.loaded
        var diagnostics = loaded.diagnostics
        // A site.yml that did not read whole (bad YAML, a bad value) gives the default baseURL,
        // of which the warning would be false: its errors are what the user must see.
        if !loaded.diagnostics.contains(where: { $0.severity == .error && $0.location.path == "site.yml" }) {
            diagnostics += loaded.config.baseURLWarnings
        }
        let (templates, templateDiagnostics) = if let compiling { await compiling.value } else { Self.compiled(theme, typedWalk: typedWalk, memo: &memo) }
        diagnostics += templateDiagnostics
        let (words, wordDiagnostics) = theme.words(for: loaded.config.language, at: loaded.config.languagePosition)
        diagnostics += wordDiagnostics
        let zone = TimeZone(identifier: loaded.config.timeZoneIdentifier) ?? .gmt
        let moment = BuildMoment(
            now: options.now, timeZone: zone, includeFuture: options.includeFuture, includeDrafts: options.includeDrafts)
        let step = FeedStep.feeds(
            content: loaded.content, config: loaded.config, moment: moment, commentsKey: content.commentsKey, memo: &memo)
        let feeds = step.feeds
        diagnostics += feeds.diagnostics
        var site = SiteModel(
            config: loaded.config, content: loaded.content, timeZone: zone, moment: moment, feeds: feeds, theme: theme,
            templates: templates, diagnostics: diagnostics)
        site.words = words
        site.validUntil = NoChangeRecord.validUntil(content: loaded.content, feeds: feeds, moment: moment)
        return site
    }

    /// The theme as `serve`'s last build compiled it (`HeldValues.templates`) when its templates,
    /// their paths and the walk are the same, else compiled: parsing every template again was a
    /// fiftieth of a preview rebuild after a content edit. A table that keeps nothing decoded
    /// (`daybook build`'s) holds nothing to compare, and `load` compiles beside the content.
    static func compiled(_ theme: Theme, typedWalk: Bool, memo: inout MemoTable) -> (templates: ThemeTemplates?, diagnostics: [Diagnostic]) {
        var key = StableHash()
        key.combine(bits: theme.fingerprint)
        key.combine(typedWalk)
        for name in theme.templates.keys.sorted() { key.combine(theme.templates[name]?.path) }
        if let held = HeldValues.templates.value(in: memo), held.key == key.value { return (held.templates, held.diagnostics) }
        let made = theme.compile(typedWalk: typedWalk)
        HeldValues.templates.keep(HeldValues.CompiledTheme(key: key.value, templates: made.templates, diagnostics: made.diagnostics), in: &memo)
        return made
    }

    /// Publishes the files under `content/` (photos through the pipeline and its cache) when the
    /// content loaded without error.
    /// - Parameter memo: what the last build learnt of each photo (`PhotoIndexStep`), taken and kept.
    func publishPhotos(_ site: inout SiteModel, _ sources: Sources, _ options: BuildOptions, memo: inout MemoTable) -> PhotoPublisher.Published {
        var photos = PhotoPublisher.Published()
        if site.templates != nil && !site.diagnostics.hasErrors {
            let content = site.content
            var publisher = PhotoPublisher(
                siteDirectory: options.siteDirectory, config: site.config, namedBy: { PhotoPublisher.fields(content) })
            publisher.faults = faults
            publisher.racyWindow = racyWindow
            let reader = sources.reader
            let known = PhotoIndexStep.index(in: &memo)
            photos = publisher.publish(ImageCollector(snapshot: sources.snapshot).paths, known: known, read: { reader.readAsset($0) })
            PhotoIndexStep.keep(photos.index, known: known, memo: &memo)
            site.diagnostics += photos.diagnostics
        }
        site.images = photos.files
        site.cachedImages = photos.cached
        site.imageCounts = (photos.encoded, photos.reused)
        return photos
    }

    /// The renderer over the compiled theme, which needs the photos' sizes and every path the site
    /// publishes, each Markdown text's link targets and each person's suggested people (through
    /// `memo`, `MarkdownStep` and `SuggestionStep`).
    /// - Parameter memo: also the post cards of earlier builds (`CardStep`), and in a long-lived
    ///   process (`serve`), the card store of its builds so far and its last page layout (`HeldValues`).
    func prepareRenderer(_ site: inout SiteModel, photos: PhotoPublisher.Published, _ sources: Sources, memo: inout MemoTable) {
        var input = RenderInput(
            config: site.config, moment: site.moment, feeds: site.feeds, imageSizes: photos.sizes,
            assetPaths: Set(site.theme.assets.keys).union(ImageCollector(snapshot: sources.snapshot).paths).union(photos.paths))
        input.images = photos.images
        input.words = site.words
        input.markdownTargets = MarkdownStep.targets(of: SiteRenderer.markdownTexts(of: site.feeds), memo: &memo)
        input.suggestions = SuggestionStep.suggestions(of: site.feeds.usersByID, memo: &memo)
        let fingerprint = site.theme.fingerprint
        let cards = HeldValues.cards.value(in: memo) ?? CardStep.store(memo: memo, posts: site.feeds.posts.count)
        let layout = HeldValues.layout.value(in: memo)
        site.renderer = site.templates.map { SiteRenderer(templates: $0, input: input, themeFingerprint: fingerprint, cards: cards, layout: layout) }
        if let renderer = site.renderer { HeldValues.layout.keep(renderer.layout, in: &memo) }
        site.diagnostics += site.renderer?.markdownLinkWarnings() ?? []
        site.diagnostics += site.renderer?.templateLinkProblems(site.theme) ?? []
    }

    /// Lists every output path and checks them all before anything is written: no two outputs
    /// share a path, every path is plain and short enough, and the output folder holds no foreign
    /// file, link or file-for-a-folder where they go. Also reads the previous build's record.
    /// - Parameter memo: the incremental layer's memo, which holds the facts the previous build's
    ///   pages read, and in a long-lived process (`serve`) the output paths of its last build.
    func plan(_ site: SiteModel, renderer: SiteRenderer, writer: OutputWriter, memo: inout MemoTable) -> Plan {
        let assets = site.theme.assets.sorted { $0.key < $1.key }.map { RenderedFile(path: $0.key, bytes: $0.value) } + site.images
        let paths = renderer.outputPaths + assets.map(\.path) + site.cachedImages.map(\.path)
        var diagnostics: [Diagnostic] = []
        if let problem = writer.recordProblem { diagnostics.append(problem) }
        // The checks of the output folder, the lists' snapshots and whether two outputs share a
        // path do not read each other, and run side by side. Paths that collide stop the plan
        // before anything else is used.
        let checked = Unshared(writer)
        let versions = renderer.factVersions(previous: HeldValues.postVersions.value(in: memo))
        HeldValues.postVersions.keep(versions.postMemo, in: &memo)
        // The paths of `serve`'s last build, unless two of them collided, are known to be distinct;
        // they are nearly always this build's, the very strings, and compare at once.
        let known = HeldValues.distinctPaths.value(in: memo)
        let (errors, snapshots, collisions) = Parallel.all(
            { checked.value.check(paths) },
            { Self.snapshots(of: site.feeds, versions: versions) },
            { paths == known ? [] : Self.collisions(in: paths) })
        if paths != known { HeldValues.distinctPaths.keep(collisions.isEmpty ? paths : nil, in: &memo) }
        for path in collisions {
            diagnostics.append(.error("two outputs would be written to '\(path)'; rename the image or theme file", at: SourceLocation(path: "content/" + path)))
        }
        if diagnostics.hasErrors { return Plan(renderer: renderer, assets: assets, lists: [:], diagnostics: diagnostics) }
        let origins = OutputOrigins(site: site)
        var reportedNames = Set<String>()
        for error in errors.map({ $0.named(writer.label) }) {
            switch error.reason {
            case .nameTooLong, .pathTooLong:
                // One report per over-long name, at the id, tag or place it comes from when known
                // (every page below a long tag shares its name); one for all over-long paths, which
                // a deep --output makes of every page.
                let origin = origins.origin(of: error.path)
                let long = error.path.split(separator: "/").first { $0.utf8.count > OutputPath.maxNameBytes }.map(String.init)
                guard reportedNames.insert(long.map { "name " + $0 } ?? "path").inserted else { continue }
                diagnostics.append(.error(error.message, at: origin ?? error.location))
            default:
                diagnostics.append(.error(error.message, at: error.location))
            }
        }
        return Plan(
            renderer: renderer, assets: assets, cachedImages: site.cachedImages, lists: snapshots, versions: versions,
            previousFacts: PageStep.previous(in: memo), previousFactsHeld: PageStep.isHeld(in: memo), diagnostics: diagnostics)
    }

    /// The lists' snapshots, each item versioned by the facts its page reads of it: an item whose
    /// page changed is an update of every list that holds it.
    static func snapshots(of feeds: SiteFeeds, versions: FactVersions) -> [String: ListSnapshot] {
        let entryVersions = feeds.journal.map { versions.version(of: .entry($0.promptID)) }
        return SiteLists.snapshots(of: feeds, postVersions: versions.postItemVersions, entryVersions: entryVersions)
    }

    /// Each path a second output would be written to, in plan order, once per extra output.
    static func collisions(in paths: [String]) -> [String] {
        var seen = Set<String>(minimumCapacity: paths.count)
        return paths.filter { !seen.insert($0).inserted }
    }

    /// Renders and writes batch by batch, so a large site never sits in memory whole. A page whose
    /// key matches the previous build's, and whose file is still in place, is neither rendered nor
    /// written: that is what makes a rebuild incremental.
    func renderAndWrite(
        _ plan: Plan, writer: OutputWriter, versions: FactVersions, progress: @Sendable (BuildProgress) -> Void = { _ in }
    ) async throws(OutputError) -> Written {
        var (manifest, carried) = writer.startingRecord(lists: plan.lists)
        // Every path whose entry or key is set below: all that can differ from a carried record.
        var changed: [String] = []
        var report = WriteReport()
        writer.begin()
        let (keepable, previousFile) = (writer.keepRule, writer.previousFileRule)
        // The feeds, the sitemap and the search index read no page: made while the pages render,
        // on whatever core the pages leave free.
        let (dataReady, searchReady, searchEmitted) = (ReadyFlag(), ReadyFlag(), FileQueue())
        var pendingData: Task<SiteRenderer.DataFiles, Never>? = Task.detached(priority: .userInitiated) {
            defer { dataReady.raise() }
            return plan.renderer.dataFiles(versions: versions, reuse: keepable)
        }
        var pendingSearch: Task<(SearchStep.Output, MemoTable, Double), Never>? = Task.detached(priority: .userInitiated) {
            [table = plan.table, renderer = plan.renderer] in
            defer { searchReady.raise() }
            let started = ContinuousClock.now
            var memo = table
            let results = SearchStep.results(of: renderer, versions: versions, memo: &memo)
            let output = SearchStep.files(
                results, layout: renderer.searchLayout, memo: &memo, keep: keepable, previousFile: previousFile) { searchEmitted.push($0) }
            return (output, memo, PhaseClock.seconds(ContinuousClock.now - started))
        }
        // The data and search files are written between batches of pages as soon as their task
        // has made them (or after the last page, waiting for them), and let go of then: held to
        // the last page, a large site's feeds and search files were 270 MB of the build's peak.
        // The search cards files come first, while the postings are still being assembled.
        var sideKeys: [String: UInt64] = [:]
        var searchMemo: MemoTable?
        var searchWork = SearchWork()
        func writeSideFiles(waiting: Bool) async throws(OutputError) {
            func write(_ files: [RenderedFile], keys: [String: UInt64], reused: [String]) throws(OutputError) {
                sideKeys.merge(keys) { _, new in new }
                for path in reused {
                    if let record = writer.keep(path, report: &report) { manifest.files[path] = record }
                }
                let written = try writer.write(files, report: &report)
                changed += written.keys
                manifest.files.merge(written) { _, new in new }
            }
            func writeEmitted() throws(OutputError) {
                for files in searchEmitted.take() { try write(files, keys: [:], reused: []) }
            }
            try writeEmitted()
            if let task = pendingData, waiting || dataReady.isRaised {
                pendingData = nil
                let data = await task.value
                try write(data.files, keys: data.keys, reused: data.reused)
            }
            if let task = pendingSearch, waiting || searchReady.isRaised {
                pendingSearch = nil
                let (search, memo, seconds) = await task.value
                (searchMemo, searchWork) = (memo, SearchWork(seconds: seconds, cardsMoved: search.cardsMoved))
                // What the task handed over since the queue was emptied above: all of it now
                // that the task is done.
                try writeEmitted()
                try write(search.files, keys: search.keys, reused: search.reused)
                // Every search file made again (a first build, a new layout), or shifted around
                // a post added or gone, freed hundreds of MB on a large site, which the rest of
                // the pages and the memo's save would otherwise build on: the heap gives them back
                // (`large`'s full build peaked at 1,033 MiB instead of 1,095; a deleted post's
                // build at 1,437-1,448 instead of 1,550-1,628).
                if !search.patched || search.shifted { daybook_heap_trim() }
            }
        }
        let total = plan.renderer.pageCount
        if !carried {
            // Room for every file up front: grown as they come, both tables hashed 34,000 paths
            // again on the way. A carried record has its room, and growing it would hash them all.
            manifest.files.reserveCapacity(total + plan.assets.count + plan.cachedImages.count + 2 * total / 10)
            manifest.pageKeys.reserveCapacity(total + total / 10)
        }
        progress(BuildProgress(phase: "render and write", done: 0, total: total))
        let renderer = plan.renderer
        let previousFacts = plan.previousFacts
        // `serve` holds the table with the record it was written with: its keys are the record's,
        // and with its own record the writer takes every file the record holds as written to be
        // in place (`keepRule`, which `check` leaves those paths to).
        let trusted = plan.previousFactsHeld && writer.recordIsOwn
        let triage = await renderer.triage(previous: previousFacts, versions: versions, trusted: trusted, reuse: keepable)
        var facts = PageFactTable.Builder(
            previous: previousFacts, versions: versions, previousVersions: triage.previousVersions, pageCount: renderer.pageCount)
        /// Files the page's facts; a built page's key comes of them.
        func collect(_ output: SiteRenderer.PageOutput) -> UInt64 {
            switch output.facts {
            case .kept(let place):
                facts.keep(at: output.position, previous: place, shape: output.shape ?? 0, key: output.key)
                return output.key
            case .read(let read): return facts.add(at: output.position, path: output.path, shape: output.shape ?? 0, facts: read)
            case nil:
                facts.builtWhole(at: output.position, path: output.path)
                return output.key
            }
        }
        let size = SiteRenderer.defaultBatchSize
        let batches = stride(from: 0, to: triage.toRender.count, by: size).map { triage.toRender[$0..<min(triage.toRender.count, $0 + size)] }
        // Batch after batch, the next rendering while this one's records are filed and its files
        // written; the kept pages are filed while the first batch renders.
        var next = batches.first.map { batch in Task { await renderer.render(batch, versions: versions, reuse: keepable) } }
        defer { next?.cancel() }
        for output in triage.kept { _ = collect(output) }
        if carried {
            // Their entries and keys are the previous record's, where the manifest started.
            report.unchanged += triage.kept.count
        } else {
            for output in triage.kept {
                manifest.pageKeys[output.path] = output.key
                if let record = writer.keep(output.path, report: &report) { manifest.files[output.path] = record }
            }
        }
        var done = triage.kept.count
        progress(BuildProgress(phase: "render and write", done: done, total: total))
        for index in batches.indices {
            guard let outputs = await next?.value else { break }
            next = index + 1 < batches.count ? Task { [batch = batches[index + 1]] in await renderer.render(batch, versions: versions, reuse: keepable) } : nil
            var rendered: [RenderedFile] = []
            for output in outputs {
                changed.append(output.path)
                manifest.pageKeys[output.path] = collect(output)
                if let file = output.file {
                    rendered.append(file)
                } else if let record = writer.keep(output.path, report: &report) {
                    manifest.files[output.path] = record
                }
            }
            manifest.files.merge(try writer.write(rendered, report: &report)) { _, new in new }
            done += outputs.count
            progress(BuildProgress(phase: "render and write", done: done, total: total))
            try await writeSideFiles(waiting: false)
        }
        try await writeSideFiles(waiting: true)
        var memo = searchMemo ?? plan.table
        PageStep.keep(facts.table(), previous: previousFacts, memo: &memo)
        // Whether kept by `serve` or saved, the cards are let go of posts that are gone, once
        // every page is rendered (`--check` renders here too, before it writes).
        renderer.releaseGoneCards()
        CardStep.keep(renderer.cards, memo: &memo)
        manifest.pageKeys.merge(sideKeys) { _, new in new }
        changed += sideKeys.keys
        let unkeyed = try writer.write(plan.assets, report: &report).merging(try writer.copy(plan.cachedImages, report: &report)) { _, new in new }
        changed += unkeyed.keys
        manifest.files.merge(unkeyed) { _, new in new }
        if carried {
            // A path that had a key (a page, once) and now holds a file without one loses it.
            for path in unkeyed.keys where sideKeys[path] == nil { manifest.pageKeys[path] = nil }
        }
        return Written(
            manifest: manifest, changed: carried ? changed : nil, report: report, memo: MemoPlace.Preparing(plan.memo, memo), search: searchWork,
            keptByTable: (triage.keysTaken, trusted, triage.byPlace))
    }

    /// `--check`: renders every page into memory, through the same writer as a build to disk.
    func render(_ plan: Plan, versions: FactVersions, progress: @Sendable (BuildProgress) -> Void = { _ in }) async -> Rendered {
        let memory = MemoryOutput()
        let writer = OutputWriter(sink: memory)
        _ = writer.check(plan.renderer.outputPaths + plan.assets.map(\.path) + plan.cachedImages.map(\.path))
        // Into an empty memory folder nothing can fail: no file is foreign, no link is in the way.
        let written = try? await renderAndWrite(plan, writer: writer, versions: versions, progress: progress)
        try? memory.commit()
        var files = memory.files
        files[OutputWriter.manifestName] = nil
        files[OutputWriter.intentName] = nil
        return Rendered(
            files: files, pageKeys: written?.manifest.pageKeys ?? [:], memo: written?.memo ?? .nothing, search: written?.search ?? SearchWork())
    }

    /// `--check`: the checks of `daybook check`, on the site in memory.
    func check(_ rendered: Rendered, baseURL: String, outputLabel: String) async -> [Diagnostic] {
        let report = await SiteChecker(baseURL: baseURL).check(MemorySource(files: rendered.files))
        return report.diagnostics.map { found in
            var moved = found
            moved.location.path = outputLabel + "/" + found.location.path
            return moved
        }
    }

    /// `--check`: writes the checked site from memory.
    func write(_ rendered: Rendered, plan: Plan, writer: OutputWriter) throws(OutputError) -> Written {
        var manifest = BuildManifest(lists: plan.lists)
        manifest.pageKeys = rendered.pageKeys
        var report = WriteReport()
        writer.begin()
        let files = rendered.files.sorted { $0.key.scalarsPrecede($1.key) }.map { RenderedFile(path: $0.key, bytes: $0.value) }
        manifest.files = try writer.write(files, report: &report)
        return Written(manifest: manifest, report: report, memo: rendered.memo, search: rendered.search)
    }

    /// Commits the build (removes what the previous build wrote and this one did not, puts the
    /// staged files and the record in place), then tells `announce` that the site is in place.
    func finish(
        _ written: Written, writer: OutputWriter, baseURL: String, announce: BuildSession.WrittenHandler?
    ) async throws(OutputError) -> WriteReport {
        var report = written.report
        try writer.finish(written.manifest, changed: written.changed, report: &report)
        await announce?(report, baseURL)
        return report
    }
}

/// Seconds spent in each phase, in order.
struct PhaseClock {
    let started = ContinuousClock.now
    private var lapStarted = ContinuousClock.now
    private(set) var laps: [(name: String, seconds: Double)] = []

    mutating func lap(_ name: String) {
        let now = ContinuousClock.now
        laps.append((name, Self.seconds(now - lapStarted)))
        lapStarted = now
    }

    var total: Double { Self.seconds(ContinuousClock.now - started) }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// Files a task has made, waiting for the render loop to write them between two batches.
final class FileQueue: Sendable {
    private let files = Mutex<[[RenderedFile]]>([])

    func push(_ batch: [RenderedFile]) { files.withLock { $0.append(batch) } }

    /// What was pushed so far, taken out.
    func take() -> [[RenderedFile]] {
        files.withLock { files in
            let taken = files
            files = []
            return taken
        }
    }
}

/// Raised once by a task when its result is ready, and read without waiting: the render loop
/// takes the data and search files between batches only once they are made.
final class ReadyFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}
