import DaybookCheck
import DaybookContent
import DaybookFeed
import DaybookIncremental
import DaybookModel
import DaybookRender
import DaybookTheme
import Foundation

/// What one `daybook build` is asked to do.
package struct BuildOptions: Sendable {
    package var siteDirectory: URL
    package var outputDirectory: URL
    /// The build's "now", resolved by the caller (`--now`, `SOURCE_DATE_EPOCH` or the clock).
    package var now: Instant
    package var includeFuture: Bool
    /// `--drafts`: include items marked `draft: true` (CONTRACT §8).
    package var includeDrafts: Bool
    /// Treat warnings as errors.
    package var strict: Bool
    /// Let the build replace files in the output folder that it did not write.
    package var force: Bool
    /// Check the rendered site (as `daybook check` does) before writing; any problem fails the build.
    package var check: Bool
    /// Told each phase as it starts, and pages done while rendering (for a progress line).
    package var progress: (@Sendable (BuildProgress) -> Void)?
    package init(
        siteDirectory: URL, outputDirectory: URL? = nil, now: Instant, includeFuture: Bool = false, strict: Bool = false,
        force: Bool = false, check: Bool = false, includeDrafts: Bool = false
    ) {
        self.includeDrafts = includeDrafts
        self.siteDirectory = siteDirectory
        self.outputDirectory = outputDirectory ?? siteDirectory.appending(path: "output")
        self.now = now
        self.includeFuture = includeFuture
        self.strict = strict
        self.force = force
        self.check = check
    }
}

/// What a long-lived process (`serve`) brings to each of its builds, beside what the user asked
/// for (`BuildOptions`): its memory of the builds before, the sources a watcher saw change, and
/// whom to tell once the files are in place. A build without one reads and keeps its caches in
/// the site's `.daybook-cache`, and records what it read so that a build with nothing changed
/// can stop early; a session rebuilds only after an edit, so it does neither.
package struct BuildSession: Sendable {
    /// The incremental layer's memo, kept in memory from build to build.
    package var memo: ProcessMemo
    /// Site-relative paths that changed since the previous build, as a watcher named them all
    /// (`memo` adds those of failed builds since the one that left it): its read is patched
    /// with them rather than the site read whole
    /// (`SiteRead`). `nil` when they are not known.
    package var changedSources: [String]?
    /// Told as soon as every file of a successful build and its record are in place (with the
    /// `baseURL` the build read): `serve` reloads open pages then, before the build lets go of
    /// its model.
    package var onWritten: WrittenHandler?
    package typealias WrittenHandler = @Sendable (_ report: WriteReport, _ baseURL: String) async -> Void

    package init(memo: ProcessMemo, changedSources: [String]? = nil, onWritten: WrittenHandler? = nil) {
        self.memo = memo
        self.changedSources = changedSources
        self.onWritten = onWritten
    }
}

/// The outcome of a build: its diagnostics, and what was written when it succeeded.
package struct BuildResult: Sendable {
    package var diagnostics: [Diagnostic]
    /// `nil` when the build failed.
    package var report: WriteReport?
    /// What a failed build left in the output folder: as it was, unless a write failed after
    /// the commit or undoing one failed (`OutputState`).
    package var outputState = OutputState.unchanged
    package var pageCount: Int
    package var seconds: Double
    /// How each list changed since the previous build into the same folder, in report order.
    package var listChanges: [(name: String, diff: ListDiff)] = []
    /// The site's `baseURL` and time zone as this build read them (defaults when site.yml failed).
    package var baseURL: String = "/"
    package var timeZone: TimeZone = .gmt
    /// Seconds spent in each stage, in order: `read`, `load`, `order`, `render and write`, …
    package var phases: [(name: String, seconds: Double)] = []
    /// Seconds spent making the search index, on another core while pages render.
    package var searchIndexSeconds: Double = 0
    /// Search cards taken from the last build's files rather than made again: after a post
    /// added or gone, every later card moves to another file.
    package var searchCardsMoved = 0
    /// Pages kept with the key the last build's table holds for them, their facts unchanged and
    /// not hashed again; `trusted`: without asking the output's record (`serve`); `byPlace`: each
    /// page found at its place in the table, the plan's pages being the last build's.
    package var pagesKeptByTable = (count: 0, trusted: false, byPlace: false)
    /// Posts whose fact versions were taken from the process's last build (`serve`).
    package var postVersionsReused = 0
    /// Photos this build encoded, and photos whose copies came from the cache (CONTRACT §7).
    package var imagesEncoded = 0
    package var imagesReused = 0

    package var succeeded: Bool { report != nil }
    package var warningCount: Int { diagnostics.count { $0.severity == .warning } }
    package var errorCount: Int { diagnostics.count { $0.severity == .error } }
}

/// Runs the pipeline in named phases, each a value in and a value out:
/// read → load → plan → render and write → finish (with `--check`: render → check → write).
///
/// Nothing reaches the output folder unless every phase before writing succeeded, and the plan
/// checks every output path against the disk (links, foreign files, name lengths) first.
package struct SiteBuilder: Sendable {
    /// How long before a build a file must have been written for its status to be trusted
    /// (`FileStatus.isSettled`): a file written within it could be written again with no change
    /// of status, so a build that saw one records nothing to replay, and a photo's copies are
    /// made again. The file system's timestamp granularity, two seconds; tests pass 0 rather
    /// than sleep past it.
    package var racyWindow: Int64
    /// Every write of the build asks it first (`WriteFaults`): `none` but in the tests that fail
    /// each write point in turn.
    package var faults: WriteFaults
    /// Renders through swift-mustache's own walk instead of the compiled one (`ThemeTemplates`):
    /// for the test that holds the two to the same bytes on the example site.
    var rendersThroughSwiftMustache = false

    package init(racyWindow: Int64 = FileStatus.racyWindow, faults: WriteFaults = .none) {
        self.racyWindow = racyWindow
        self.faults = faults
    }

    /// Builds into `options.outputDirectory`, or into `sink` when given (tests use `MemoryOutput`).
    /// - Parameter session: a long-lived process's memory and hooks (`serve`).
    package func build(_ options: BuildOptions, session: BuildSession? = nil, into sink: (any OutputSink)? = nil) async -> BuildResult {
        var clock = PhaseClock()
        var outcome = Outcome()
        func finish(_ report: WriteReport?, pages: Int = 0) -> BuildResult {
            var result = BuildResult(diagnostics: outcome.diagnostics.sorted(), report: report, pageCount: pages, seconds: clock.total)
            result.outputState = outcome.outputState
            result.baseURL = outcome.baseURL
            result.timeZone = outcome.timeZone
            result.phases = clock.laps
            result.imagesEncoded = outcome.imagesEncoded
            result.imagesReused = outcome.imagesReused
            return result
        }
        func failed() -> Bool { outcome.diagnostics.hasErrors || (options.strict && !outcome.diagnostics.isEmpty) }

        if let problem = options.outputFolderProblem {
            outcome.diagnostics.append(.error(problem.message, at: SourceLocation(path: "--output")))
            return finish(nil)
        }
        // Into the output folder on disk, a build that provably changes nothing stops here.
        let onDisk = sink == nil
        let noChange = onDisk && session == nil
        var listing: NoChangeRecord.Listing?
        var opened: MemoTable?
        if noChange {
            let replay = NoChangeRecord.replay(options, started: clock.started)
            if let replayed = replay.result { return replayed }
            (listing, opened) = (replay.listing, replay.memo)
        }
        if noChange && listing == nil { listing = NoChangeRecord.listed(options.siteDirectory) }
        let listedAt = listing?.at ?? FileInfo.realtimeNanoseconds()
        let inputs = listing?.inputs ?? []
        // The previous build's record (3 MB on a 32,000-page site) is read and parsed on another
        // thread while the content is read and loaded: it needs only the output folder, which
        // nothing writes before the plan.
        let target = sink ?? OutputFolder(directory: options.outputDirectory, faults: faults)
        // A process's memo is at hand; the site's was opened to look for the no-change record, or
        // is opened here (its index alone, a millisecond on a medium site), and the read takes the
        // sources' keys from it (`SourceKeysStep`).
        let memoPlace =
            session.map { MemoPlace.process($0.memo) } ?? (onDisk ? MemoPlace.site(options.siteDirectory, faults: faults) : .none)
        var memo = memoPlace.load(opened: opened)
        let (force, known) = (options.force, HeldValues.record.value(in: memo))
        let pendingWriter = Task.detached(priority: .userInitiated) {
            let writer = OutputWriter(sink: target, force: force, known: known, label: options.outputLabel)
            writer.lookAhead()
            return Unshared(writer)
        }
        let report = options.progress ?? { _ in }
        report(BuildProgress(phase: "read"))
        var sources = read(options, session: session, memo: &memo, cached: onDisk, listed: listing?.content)
        clock.lap("read")
        report(BuildProgress(phase: "load"))
        var site = await load(sources, options, memo: &memo)
        // The content's bytes are not needed past loading; a 100,000-post site would carry a
        // hundred MB of them through rendering.
        sources.snapshot.sources = [:]
        clock.lap("load")
        report(BuildProgress(phase: "images"))
        let photos = publishPhotos(&site, sources, options, memo: &memo)
        // Past the photos, pages read the ordered feeds only; the content as loaded (500,000
        // comments on a 100,000-post site) need not stay through rendering.
        site.content = SiteContent()
        clock.lap("images")
        prepareRenderer(&site, photos: photos, sources, memo: &memo)
        outcome.diagnostics += sources.diagnostics + site.diagnostics
        outcome.baseURL = site.config.baseURL
        outcome.timeZone = site.timeZone
        (outcome.imagesEncoded, outcome.imagesReused) = site.imageCounts
        clock.lap("prepare")
        guard let renderer = site.renderer, !failed() else { return finish(nil) }

        report(BuildProgress(phase: "plan"))
        let writer = await pendingWriter.value.value
        var plan = plan(site, renderer: renderer, writer: writer, memo: &memo)
        plan.memo = memoPlace
        plan.table = memo
        outcome.diagnostics += plan.diagnostics
        clock.lap("plan")
        // The plan versions the facts unless it failed before its checks.
        guard !failed(), let versions = plan.versions else { return finish(nil) }

        let written: Written
        do throws(OutputError) {
            if options.check {
                let rendered = await render(plan, versions: versions, progress: report)
                clock.lap("render")
                report(BuildProgress(phase: "check"))
                outcome.diagnostics += await check(rendered, baseURL: site.config.baseURL, outputLabel: options.outputLabel)
                clock.lap("check")
                if failed() { return finish(nil) }
                written = try write(rendered, plan: plan, writer: writer)
                clock.lap("write")
            } else {
                written = try await renderAndWrite(plan, writer: writer, versions: versions, progress: report)
                clock.lap("render and write")
            }
            report(BuildProgress(phase: "finish"))
            let writeReport = try await self.finish(written, writer: writer, baseURL: site.config.baseURL, announce: session?.onWritten)

            let listChanges = SiteLists.reportOrder.map { name in
                (name, ListDiff(from: writer.previous.lists[name] ?? ListSnapshot(), to: plan.lists[name] ?? ListSnapshot()))
            }
            var result = finish(writeReport, pages: plan.renderer.pageCount)
            result.listChanges = listChanges
            (result.searchIndexSeconds, result.searchCardsMoved) = (written.search.seconds, written.search.cardsMoved)
            result.pagesKeptByTable = written.keptByTable
            result.postVersionsReused = versions.postMemo.reused
            // The site is in place: what fails from here fails the build, saying so. The memo
            // keeps the record that lets the next build stop early (`NoChangeRecord`), or none.
            let record =
                noChange && !failed()
                ? NoChangeRecord.filed(result, site: site, options: options, started: inputs, listedAt: listedAt, racyWindow: racyWindow, written: written.manifest)
                : nil
            let unsaved = plan.memo.save(plan.memo.holding(HeldValues.record, writer.savedRecord, in: await written.memo.kept), filing: record)
            clock.lap("finish")
            (result.phases, result.seconds) = (clock.laps, clock.total)
            if let unsaved {
                outcome.diagnostics.append(unsaved)
                outcome.outputState = .replaced
                Self.release((site, plan, Unshared(writer), sources, written))
                return finish(nil, pages: plan.renderer.pageCount)
            }
            Self.release((site, plan, Unshared(writer), sources, written))
            return result
        } catch {
            writer.discard()
            // A first build's spilled memo goes now: let go with the memo, it could go on another
            // thread after this build returned.
            (plan.table.spill as? MemoSpillFile)?.abandon()
            let named = error.named(options.outputLabel)
            outcome.diagnostics.append(.error(named.message, at: named.location))
            outcome.outputState = named.state
            return finish(nil)
        }
    }

    /// Frees a finished build's model (a medium site's 120,000 posts and comments, their feeds, the
    /// renderer's plan, the previous record) on another thread: freeing it piece by piece took a
    /// tenth of a second, which the writer waited for after every `serve` save and the CLI
    /// before it could print.
    static func release(_ model: sending some Sendable) {
        Task.detached(priority: .utility) { withExtendedLifetime(model) {} }
    }

    /// A value handed to `release` that nothing else touches once the build has returned.
    struct Unshared<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// The embedded default theme, the base every site's own `Templates/` overrides.
    package static var defaultTheme: Theme { Theme.embedded }
}
