import DaybookContent
import DaybookImages
import DaybookModel
import DaybookRender
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Publishes the files under `content/` (CONTRACT §2 and §7): JPEG, PNG, WebP and HEIC through the
/// image pipeline (upright responsive copies, a square thumbnail, and the original without its
/// metadata), everything else (GIF, SVG, any other file) as it is.
///
/// The pipeline's cache lives in `<site>/.daybook-cache/images`, so an unchanged photo is never
/// encoded again, even into an empty output folder; and what the last build learnt of each photo
/// (`SourceIndex`, kept in the memo by `PhotoIndexStep`) lets a photo whose file status is
/// unchanged skip even being read.
struct PhotoPublisher {
    /// What the load phase hands on: files to write, what the renderer needs, and the counts.
    struct Published: Sendable {
        /// Files published as they are (GIF, SVG, other files), and copies whose hash the cache does not know.
        var files: [RenderedFile] = []
        /// Copies and stripped originals in the cache, read only when the output lacks them.
        var cached: [CachedFile] = []
        var images: [String: ResponsiveImage] = [:]
        var sizes: [String: ImageSize] = [:]
        var encoded = 0
        var reused = 0
        var diagnostics: [Diagnostic] = []
        /// What this publish learnt of each photo, for the next (`PhotoIndexStep` keeps it).
        var index = SourceIndex()

        var paths: [String] { files.map(\.path) + cached.map(\.path) }
    }

    var siteDirectory: URL
    var config: SiteConfig
    /// Asked before each write to the image cache.
    var faults = WriteFaults.none
    /// The first field naming each path under `content/`, for errors at the field: worked out
    /// (once a publish) only when a file of an unknown format or a failed photo asks, since going
    /// over 20,000 posts' photo fields for it on every build was 3% of a `serve` save.
    var namedBy: @Sendable () -> [String: Naming]

    /// A field that names a photo: its record's place (its `id`'s) and its name.
    struct Naming: Sendable {
        var origin: SourceLocation
        var field: String
    }
    /// A photo changed this recently (nanoseconds) is not remembered by status: a second edit
    /// within the file system's timestamp granularity could leave the status as it was.
    var racyWindow: Int64 = FileStatus.racyWindow

    /// The cache folder, always inside the site folder.
    static func cacheFolder(site: URL) -> URL { site.appending(path: ".daybook-cache/images") }

    var settings: ImageSettings {
        ImageSettings(widths: config.imageWidths, format: config.imageFormat == "jpeg" ? .jpeg : .webp)
    }

    /// The fields of `content` that name local images, each path once (the first field wins).
    static func fields(_ content: SiteContent) -> [String: Naming] {
        var named: [String: Naming] = [:]
        // A site's 20,000 posts name a few dozen photos: each reference is looked up first, and
        // no list of every post's reference and place is made.
        func add(_ reference: String?, _ field: String, origin: @autoclosure () -> SourceLocation?) {
            guard let reference, named[reference] == nil, !SiteURLs.isExternal(reference) else { return }
            named[reference] = Naming(origin: origin() ?? SourceLocation(path: "content/" + reference), field: field)
        }
        for post in content.posts { add(post.image, "image", origin: post.origin) }
        for user in content.users { add(user.avatar, "avatar", origin: user.origin) }
        return named
    }

    /// Where an error about the photo at `path` (relative to `content/`) is reported: at the
    /// field that names it, found again in its file (`FieldLocator`); else at its record, or at
    /// the file itself when no field names it.
    /// - Parameter naming: `namedBy()`, as the publish worked it out.
    func place(of path: String, naming: [String: Naming], read: (String) -> Result<[UInt8], FileInfo.ReadFailure>) -> SourceLocation {
        guard let naming = naming[path] else { return SourceLocation(path: "content/" + path) }
        guard case .success(let bytes) = read(naming.origin.path),
            let field = FieldLocator.location(of: naming.field, inRecordAt: naming.origin, bytes: bytes)
        else { return naming.origin }
        return field
    }

    /// What a build says of a photo it could not read.
    static func message(_ failure: FileInfo.ReadFailure) -> String {
        switch failure {
        case .tooLarge(let size, let limit): "the image is \(size.grouped) bytes, over the limit of \(limit.grouped) for one file; make it smaller"
        case .unreadable(let reason): "cannot read image file: \(reason)"
        }
    }

    /// A photo on its way through the pipeline: its status before it was read, and either its
    /// bytes or the cache entry the index says it made last time.
    private struct Photo {
        var path: String
        var status: SourceIndex.Status?
        var known: SourceIndex.Entry?
    }

    /// Publishes `paths` (relative to `content/`); `read` reads a file by site-relative path, as
    /// `SiteReader.readAsset` does (tests count its calls).
    ///
    /// A photo's bytes are read once to learn its format and then let go; the pipeline reads each
    /// again when a core is free to encode it, so memory holds a few photos, not all of them
    /// (200 camera photos are 640 MB).
    /// - Parameter previousIndex: what the last publish learnt of each photo (`Published.index`).
    func publish(
        _ paths: [String], known previousIndex: SourceIndex = SourceIndex(), read: @escaping @Sendable (String) -> Result<[UInt8], FileInfo.ReadFailure>
    ) -> Published {
        var published = Published()
        // Which field names each photo: worked out at the first file that needs it, and once
        // (every file of an unknown format asks, a PDF as much as a broken photo).
        var naming: [String: Naming]?
        func fieldsNaming() -> [String: Naming] {
            if let naming { return naming }
            let made = namedBy()
            naming = made
            return made
        }
        let cacheFolder = Self.cacheFolder(site: siteDirectory)
        var photos: [Photo] = []
        let realRoot = FileInfo.realPath(siteDirectory.path) ?? siteDirectory.path
        func isInside(_ path: String) -> Bool {
            guard let real = FileInfo.realPath(path) else { return false }
            return real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
        }
        for path in paths {
            let full = siteDirectory.appending(path: "content/" + path).path
            let status = SourceIndex.status(of: full)
            // The site walk that listed `path` followed links only inside the site; a link at the
            // path itself is checked again, as reading it would be.
            if let known = previousIndex.entries[path], known.status == status, !Self.isLink(full) || isInside(full) {
                photos.append(Photo(path: path, status: status, known: known))
                continue
            }
            let bytes: [UInt8]
            switch read("content/" + path) {
            case .success(let read): bytes = read
            case .failure(let failure):
                published.diagnostics.append(.error(Self.message(failure), at: SourceLocation(path: "content/" + path)))
                continue
            }
            let format = ImageFormat(sniffing: bytes)
            if let format, format.treatment == .responsive {
                photos.append(Photo(path: path, status: status))
            } else if format == nil, fieldsNaming()[path] != nil {
                // A field names it as an image, but its bytes are none the build knows (a text
                // file named .jpg, an empty file): the page would show a broken image (§7: an
                // error at the field).
                let error = ImageError(path: path, reason: .unknownFormat)
                published.diagnostics.append(.error("'content/\(path)' \(error.message)", at: place(of: path, naming: fieldsNaming(), read: read)))
            } else {
                // GIF, SVG and other files are published as they are (CONTRACT §7).
                published.sizes[path] = ImageSize(reading: bytes)
                published.files.append(RenderedFile(path: path, bytes: bytes))
            }
        }
        guard !photos.isEmpty else { return finished(published, read: read) }
        let pipeline: ImagePipeline
        do {
            pipeline = try ImagePipeline(settings: settings, cacheFolder: cacheFolder, faults: faults)
        } catch {
            published.diagnostics.append(.error(error.message, at: SourceLocation(path: ".daybook-cache")))
            return published
        }
        // The quick path: an unchanged file takes last build's entry. One whose entry is gone (or
        // was made under other settings) is read after all.
        var results: [Result<ProcessedImage, ImageError>?] = Array(repeating: nil, count: photos.count)
        var toProcess: [Int] = []
        for (index, photo) in photos.enumerated() {
            // A cache entry whose folder is there is taken whole; a file missing inside it is an
            // error when the output needs it ("delete the .daybook-cache folder"), as checking
            // five files per photo on every build would cost more than the rest of the quick path.
            if let known = photo.known, let processed = pipeline.processed(path: photo.path, format: known.format, entry: known.cached) {
                results[index] = .success(processed)
                published.reused += 1
                continue
            }
            toProcess.append(index)
        }
        let batch = pipeline.process(toProcess.map { index in
            let path = photos[index].path
            return ImageSource(path: path) { () throws(ImageError) -> [UInt8] in
                switch read("content/" + path) {
                case .success(let bytes): return bytes
                case .failure(let failure): throw ImageError(path: path, reason: .unreadable(detail: Self.message(failure)))
                }
            }
        })
        published.encoded = batch.encoded
        published.reused += batch.reused
        for (index, result) in zip(toProcess, batch.results) { results[index] = result }

        var index = SourceIndex()
        let now = FileInfo.realtimeNanoseconds()
        var copyOwners: [String: String] = [:]
        // Two photos that differ only by extension (x.png, x.jpg) would name the same copies
        // (x.480.webp): each names its copies by its whole name instead (x.png.480.webp).
        let sharesStem = Set(Dictionary(grouping: photos.map(\.path), by: ImagePipeline.stem).values.filter { $0.count > 1 }.joined())
        for (photo, result) in zip(photos, results) {
            guard let result else { continue }
            let image: ProcessedImage
            switch result {
            case .success(let processed): image = sharesStem.contains(photo.path) ? processed.namingCopiesByWholeName() : processed
            case .failure(let error):
                published.diagnostics.append(.error("'content/\(photo.path)' \(error.message)", at: place(of: photo.path, naming: fieldsNaming(), read: read)))
                continue
            }
            var files = image.copies + [image.thumbnail, image.share].compactMap { $0 }
            if config.imageOriginals, let original = image.original { files.append(original) }
            var clash = false
            for file in files where file.outputPath != photo.path {
                if let other = copyOwners[file.outputPath] {
                    published.diagnostics.append(.error(
                        "'content/\(photo.path)' and 'content/\(other)' would both publish '\(file.outputPath)'; rename one of them",
                        at: SourceLocation(path: "content/" + photo.path)))
                    clash = true
                } else {
                    copyOwners[file.outputPath] = photo.path
                }
            }
            if clash { continue }
            for file in files { Self.publish(file, into: &published, at: SourceLocation(path: "content/" + photo.path)) }
            if let status = photo.status, let cached = image.cached, status.isSettled(before: now, window: racyWindow) {
                index.entries[photo.path] = SourceIndex.Entry(status: status, format: image.format, cached: cached)
            }
            guard let upright = image.uprightSize else { continue }
            let size = ImageSize(width: upright.width, height: upright.height)
            published.sizes[photo.path] = size
            published.images[photo.path] = ResponsiveImage(
                size: size,
                copies: image.copies.map { .init(path: $0.outputPath, width: $0.width, height: $0.height) },
                thumbnail: image.thumbnail.map { .init(path: $0.outputPath, width: $0.width, height: $0.height) },
                dominantColor: image.dominantColor,
                share: image.share.map { .init(path: $0.outputPath, width: $0.width, height: $0.height) })
        }
        published.index = index
        return finished(published, read: read)
    }

    /// Publishes a file the image cache holds: by its path there when the cache knows its hash
    /// (the writer copies it only when the output lacks it), else read now.
    static func publish(_ file: ImageFile, into published: inout Published, at place: SourceLocation) {
        if let hash = file.contentHash {
            published.cached.append(CachedFile(path: file.outputPath, source: file.cachePath, size: file.byteCount, hash: hash))
            return
        }
        // Not through a link, and only of the size the entry records: the cache folder is
        // as untrusted as the site, and a link there must not publish a file from elsewhere.
        guard let bytes = ImageCache.contents(atPath: file.cachePath, byteCount: file.byteCount) else {
            published.diagnostics.append(.error(
                "cannot read the cached copy '\(file.cacheFile.path)'; delete the .daybook-cache folder and build again", at: place))
            return
        }
        published.files.append(RenderedFile(path: file.outputPath, bytes: bytes))
    }

    /// `published` with the site's icons, its files in path order.
    private func finished(_ published: Published, read: (String) -> Result<[UInt8], FileInfo.ReadFailure>) -> Published {
        var published = published
        publishIcon(into: &published, read: read)
        published.files.sort { $0.path.scalarsPrecede($1.path) }
        published.cached.sort { $0.path.scalarsPrecede($1.path) }
        return published
    }

    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) != 0 || (info.st_mode & S_IFMT) == S_IFLNK
    }
}
