import DaybookContent
import DaybookImages
import DaybookModel
import DaybookRender
import Foundation

/// Publishes the files under `content/` (CONTRACT §2 and §7): JPEG, PNG, WebP and HEIC through the
/// image pipeline (upright responsive copies, a square thumbnail, and the original without its
/// metadata), everything else (GIF, SVG, any other file) as it is.
///
/// The pipeline's cache lives in `<site>/.daybook-cache/images`, so an unchanged photo is never
/// encoded again, even into an empty output folder.
struct PhotoPublisher {
    /// What the load phase hands on: files to write, what the renderer needs, and the counts.
    struct Published: Sendable {
        var files: [RenderedFile] = []
        var images: [String: ResponsiveImage] = [:]
        var sizes: [String: ImageSize] = [:]
        var encoded = 0
        var reused = 0
        var diagnostics: [Diagnostic] = []
    }

    var siteDirectory: URL
    var config: SiteConfig
    /// The first field naming each path under `content/`, for errors at the field.
    var namedBy: [String: SourceLocation]

    /// The cache folder, always inside the site folder.
    static func cacheFolder(site: URL) -> URL { site.appending(path: ".daybook-cache/images") }

    var settings: ImageSettings {
        ImageSettings(widths: config.imageWidths, format: config.imageFormat == "jpeg" ? .jpeg : .webp)
    }

    /// The fields of `content` that name local images, each path once (the first field wins).
    static func fields(_ content: SiteContent) -> [String: SourceLocation] {
        var named: [String: SourceLocation] = [:]
        let references = content.posts.map { ($0.image, $0.origin) } + content.users.map { ($0.avatar, $0.origin) }
        for case let (reference?, origin) in references where !SiteURLs.isExternal(reference) && named[reference] == nil {
            named[reference] = origin ?? SourceLocation(path: "content/" + reference)
        }
        return named
    }

    func publish(_ paths: [String], reader: SiteReader) -> Published {
        var published = Published()
        var photos: [(path: String, bytes: [UInt8])] = []
        for path in paths {
            guard let bytes = reader.readAsset("content/" + path) else {
                published.diagnostics.append(.error("cannot read image file", at: SourceLocation(path: "content/" + path)))
                continue
            }
            if let format = ImageFormat(sniffing: bytes), format.treatment == .responsive {
                photos.append((path, bytes))
            } else {
                // GIF, SVG and other files are published as they are (CONTRACT §7).
                published.sizes[path] = ImageSize(reading: bytes)
                published.files.append(RenderedFile(path: path, bytes: bytes))
            }
        }
        guard !photos.isEmpty else { return published }
        let pipeline: ImagePipeline
        do {
            pipeline = try ImagePipeline(settings: settings, cacheFolder: Self.cacheFolder(site: siteDirectory))
        } catch {
            published.diagnostics.append(.error(error.message, at: SourceLocation(path: ".daybook-cache")))
            return published
        }
        let batch = pipeline.process(photos.map { ImageSource.bytes($0.bytes, path: $0.path) })
        published.encoded = batch.encoded
        published.reused = batch.reused
        var copyOwners: [String: String] = [:]
        for (photo, result) in zip(photos, batch.results) {
            let where_ = namedBy[photo.path] ?? SourceLocation(path: "content/" + photo.path)
            let image: ProcessedImage
            switch result {
            case .success(let processed): image = processed
            case .failure(let error):
                published.diagnostics.append(.error("'content/\(photo.path)' \(error.message)", at: where_))
                continue
            }
            var files = image.copies + (image.thumbnail.map { [$0] } ?? [])
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
            for file in files {
                guard let bytes = try? Array(Data(contentsOf: file.cacheFile)) else {
                    published.diagnostics.append(.error(
                        "cannot read the cached copy '\(file.cacheFile.path)'; delete the .daybook-cache folder and build again",
                        at: SourceLocation(path: "content/" + photo.path)))
                    continue
                }
                published.files.append(RenderedFile(path: file.outputPath, bytes: bytes))
            }
            guard let upright = image.uprightSize else { continue }
            let size = ImageSize(width: upright.width, height: upright.height)
            published.sizes[photo.path] = size
            published.images[photo.path] = ResponsiveImage(
                size: size,
                copies: image.copies.map { .init(path: $0.outputPath, width: $0.width, height: $0.height) },
                thumbnail: image.thumbnail.map { .init(path: $0.outputPath, width: $0.width, height: $0.height) },
                dominantColor: image.dominantColor)
        }
        published.files.sort { $0.path.scalarsPrecede($1.path) }
        return published
    }
}
