import DaybookCheck
import DaybookContent
import DaybookFeed
import DaybookModel
import DaybookRender
import DaybookTheme
import Foundation

/// What one `daybook build` is asked to do.
public struct BuildOptions: Sendable {
    public var siteDirectory: URL
    public var outputDirectory: URL
    /// The build's "now", resolved by the caller (`--now`, `SOURCE_DATE_EPOCH` or the clock).
    public var now: Instant
    public var includeFuture: Bool
    /// Treat warnings as errors.
    public var strict: Bool
    /// Let the build replace files in the output folder that it did not write.
    public var force: Bool
    /// Check the rendered site (as `daybook check` does) before writing; any problem fails the build.
    public var check: Bool

    public init(
        siteDirectory: URL, outputDirectory: URL? = nil, now: Instant, includeFuture: Bool = false, strict: Bool = false,
        force: Bool = false, check: Bool = false
    ) {
        self.siteDirectory = siteDirectory
        self.outputDirectory = outputDirectory ?? siteDirectory.appending(path: "output")
        self.now = now
        self.includeFuture = includeFuture
        self.strict = strict
        self.force = force
        self.check = check
    }
}

/// The outcome of a build: its diagnostics, and what was written when it succeeded.
public struct BuildResult: Sendable {
    public var diagnostics: [Diagnostic]
    /// `nil` when the build failed and the output folder was left as it was.
    public var report: WriteReport?
    public var pageCount: Int
    public var seconds: Double
    /// How each list changed since the previous build into the same folder, in report order.
    public var listChanges: [(name: String, diff: ListDiff)] = []
    /// The site's `baseURL` and time zone as this build read them (defaults when site.yml failed).
    public var baseURL: String = "/"
    public var timeZone: TimeZone = .gmt
    /// Seconds spent in each stage, in order: `read`, `load`, `order`, `render and write`, …
    public var phases: [(name: String, seconds: Double)] = []

    public var succeeded: Bool { report != nil }
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }
    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
}

/// Runs the pipeline: read → load and validate → order → render → write.
///
/// Nothing reaches the output folder unless every stage before writing succeeded.
public struct SiteBuilder: Sendable {
    public init() {}

    public func build(_ options: BuildOptions) async -> BuildResult {
        let started = ContinuousClock.now
        var baseURL = "/"
        var timeZone = TimeZone.gmt
        var phases: [(name: String, seconds: Double)] = []
        var phaseStart = ContinuousClock.now
        func phase(_ name: String) {
            let now = ContinuousClock.now
            let elapsed = now - phaseStart
            phases.append((name, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
            phaseStart = now
        }
        func finish(_ diagnostics: [Diagnostic], _ report: WriteReport?, pages: Int = 0) -> BuildResult {
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            var result = BuildResult(diagnostics: diagnostics.sorted(), report: report, pageCount: pages, seconds: seconds)
            result.baseURL = baseURL
            result.timeZone = timeZone
            result.phases = phases
            return result
        }
        func failed(_ diagnostics: [Diagnostic]) -> Bool {
            diagnostics.hasErrors || (options.strict && !diagnostics.isEmpty)
        }

        let reader = SiteReader(siteDirectory: options.siteDirectory)
        let (snapshot, readDiagnostics) = reader.readContent()
        phase("read")
        let loaded = ContentLoader.load(snapshot)
        phase("load")
        var diagnostics = readDiagnostics + loaded.diagnostics + loaded.config.baseURLWarnings

        let (siteTheme, themeDiagnostics) = reader.readTheme()
        diagnostics += themeDiagnostics
        let theme = Self.defaultTheme.overridden(by: siteTheme)
        let (library, templateDiagnostics) = theme.compile()
        diagnostics += templateDiagnostics

        // Ordering runs even when loading found errors, over the records that were valid, so one
        // run reports every problem; nothing is rendered or written unless all stages are clean.
        let zone = TimeZone(identifier: loaded.config.timeZoneIdentifier) ?? .gmt
        baseURL = loaded.config.baseURL
        timeZone = zone
        let moment = BuildMoment(now: options.now, timeZone: zone, includeFuture: options.includeFuture)
        let feeds = SiteFeeds(content: loaded.content, config: loaded.config, moment: moment)
        phase("order")
        diagnostics += feeds.diagnostics
        let imagePaths = ImageCollector(content: loaded.content, feeds: feeds, snapshot: snapshot)
        diagnostics += imagePaths.diagnostics
        guard let library, !failed(diagnostics) else { return finish(diagnostics, nil) }

        var images: [RenderedFile] = []
        var imageSizes: [String: ImageSize] = [:]
        for path in imagePaths.paths {
            guard let bytes = reader.readAsset("content/" + path) else {
                diagnostics.append(.error("cannot read image file", at: SourceLocation(path: "content/" + path)))
                continue
            }
            imageSizes[path] = ImageSize(reading: bytes)
            images.append(RenderedFile(path: path, bytes: bytes))
        }
        let input = RenderInput(config: loaded.config, moment: moment, feeds: feeds, imageSizes: imageSizes)
        phase("images")
        let renderer = SiteRenderer(library: library, input: input, themeFingerprint: theme.fingerprint)
        let assets = theme.assets.sorted { $0.key < $1.key }.map { RenderedFile(path: $0.key, bytes: $0.value) } + images
        let paths = renderer.outputPaths + assets.map(\.path)
        var seen = Set<String>()
        for path in paths where !seen.insert(path).inserted {
            diagnostics.append(.error("two outputs would be written to '\(path)'; rename the image or theme file", at: SourceLocation(path: "content/" + path)))
        }
        if failed(diagnostics) { return finish(diagnostics, nil) }

        // --check holds the whole rendered site in memory, checks it, and writes only if it is sound.
        var rendered: [String: [UInt8]]?
        var checkedKeys: [String: UInt64] = [:]
        if options.check {
            var files: [String: [UInt8]] = [:]
            for index in 0..<renderer.batchCount() {
                for output in await renderer.pages(index) {
                    files[output.path] = output.file?.bytes
                    checkedKeys[output.path] = output.key
                }
            }
            for file in renderer.dataFiles() + assets { files[file.path] = file.bytes }
            let report = await SiteChecker(baseURL: loaded.config.baseURL).check(MemorySource(files: files))
            diagnostics += report.diagnostics.map { found in
                var moved = found
                moved.location.path = "output/" + found.location.path
                return moved
            }
            if failed(diagnostics) { return finish(diagnostics, nil) }
            rendered = files
        }

        // Everything that can fail on content or templates has run: from here on, only the disk can.
        let writer = OutputWriter(directory: options.outputDirectory, force: options.force)
        let previous = writer.previousManifest()
        var manifest = BuildManifest(lists: SiteLists.snapshots(of: feeds))
        var report = WriteReport()
        do {
            try writer.begin(paths: paths, previous: previous)
            if let rendered {
                let files = rendered.map { RenderedFile(path: $0.key, bytes: $0.value) }
                manifest.files = try writer.write(files, previous: previous, report: &report)
                manifest.pageKeys = checkedKeys
            } else {
                // A page whose key matches the previous build's, and whose file is still in place,
                // is neither rendered nor written: that is what makes a rebuild incremental.
                let keys = previous.pageKeys
                let keepable = { @Sendable (path: String, key: UInt64) -> Bool in
                    keys[path] == key && writer.canKeep(path, previous: previous)
                }
                for index in 0..<renderer.batchCount() {
                    let outputs = await renderer.pages(index, reuse: keepable)
                    var rendered: [RenderedFile] = []
                    for output in outputs {
                        manifest.pageKeys[output.path] = output.key
                        if let file = output.file {
                            rendered.append(file)
                        } else if let entry = writer.keep(output.path, previous: previous, report: &report) {
                            manifest.files[output.path] = entry
                        }
                    }
                    manifest.files.merge(try writer.write(rendered, previous: previous, report: &report)) { _, new in new }
                }
                manifest.files.merge(try writer.write(renderer.dataFiles() + assets, previous: previous, report: &report)) { _, new in new }
            }
            phase("render and write")
            try writer.finish(manifest, previous: previous, report: &report)
            phase("finish")
        } catch {
            return finish(diagnostics + [.error(error.reason, at: SourceLocation(path: "output/" + error.path))], nil)
        }
        var result = finish(diagnostics, report, pages: renderer.pagePaths.count)
        result.listChanges = SiteLists.reportOrder.map { name in
            (name, ListDiff(from: previous.lists[name] ?? ListSnapshot(), to: manifest.lists[name] ?? ListSnapshot()))
        }
        return result
    }

    /// The embedded default theme, the base every site's own `Templates/` overrides.
    public static let defaultTheme: Theme = {
        var theme = Theme()
        for (path, text) in DefaultTheme.files {
            if path.hasSuffix(".mustache") {
                theme.templates[String(path.dropLast(".mustache".count))] = (text, "Templates/" + path)
            } else {
                theme.assets[path] = Array(text.utf8)
            }
        }
        return theme
    }()
}
