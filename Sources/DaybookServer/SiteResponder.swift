import DaybookBuild
import DaybookModel
import Foundation
import HTTPTypes
import Hummingbird

/// Serves a built output folder the way the published site will be served, plus live reload.
///
/// Written as one responder rather than Hummingbird's `FileMiddleware` because the preview needs
/// what that middleware does not do: pretty URLs with redirects, the site's own 404 page, a
/// script added to HTML as it is served, and the traversal rules of `RequestPath`.
package struct SiteResponder: HTTPResponder {
    package typealias Context = BasicRequestContext

    package let outputDirectory: URL
    /// The path of the site's base URL (`/` or `/blog/`), under which the folder is served.
    package let basePath: String
    package let hub: ReloadHub
    /// The largest file served, read whole into memory for each request.
    package let maxFileBytes: Int

    /// 256 MiB: far above any page, feed or photo copy a build writes, and low enough that a
    /// stray video or disk image in the output folder cannot exhaust the memory of the preview.
    package static let maxFileBytes = 256 << 20

    package init(outputDirectory: URL, basePath: String, hub: ReloadHub, maxFileBytes: Int = SiteResponder.maxFileBytes) {
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.basePath = basePath
        self.hub = hub
        self.maxFileBytes = maxFileBytes
    }

    package func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        if request.uri.path == LiveReloadScript.eventsPath { return events() }
        let resolution = RequestPath.resolve(request.uri.path, basePath: basePath) { relative in
            Self.isFolder(outputDirectory.appending(path: relative).path)
        }
        switch resolution {
        case .badRequest(let reason):
            return plain(.badRequest, reason + "\n", request: request)
        case .redirect(let location):
            let query = request.uri.query.map { "?" + $0 } ?? ""
            return Response(status: .movedPermanently, headers: [.location: location + query])
        case .notFound:
            return notFound(request)
        case .file(let relative):
            switch read(relative) {
            case .success(let file): return serve(file, path: relative, status: .ok, request: request)
            case .failure(.tooLarge(let size, _)): return tooLarge(size, request: request)
            case .failure(.unreadable): return notFound(request)
            }
        }
    }

    /// A file's bytes and modification time (whole seconds, as HTTP dates have), if it is a
    /// regular file of at most `maxFileBytes`. No symbolic link below the output folder is
    /// followed: a build writes none, and a link checked first could be swapped before the read.
    private func read(_ relative: String) -> Result<(bytes: [UInt8], modified: Instant), FileInfo.ReadFailure> {
        FileInfo.read(relative, below: outputDirectory.path, maxBytes: maxFileBytes).map { file in
            (file.bytes, Instant(secondsSince1970: Double(file.status.modified / 1_000_000_000)))
        }
    }

    /// A file too large to serve: said in plain words, since the reader is the site's author.
    private func tooLarge(_ size: Int, request: Request) -> Response {
        let reason = "This file is \(Self.describe(bytes: size)), more than the \(Self.describe(bytes: maxFileBytes)) the preview serves; open it from the output folder instead.\n"
        return plain(.internalServerError, reason, request: request)
    }

    /// A plain-text answer; to HEAD, its headers alone (RFC 9110 §9.3.2), as for a file.
    private func plain(_ status: HTTPResponse.Status, _ text: String, request: Request) -> Response {
        let headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .contentLength: String(text.utf8.count)]
        if request.method == .head { return Response(status: status, headers: headers) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A size as people read it: mebibytes from one up, rounded up so that a file just over the
    /// limit does not read as the limit itself; else bytes.
    static func describe(bytes: Int) -> String { bytes >= 1 << 20 ? "\((bytes + (1 << 20) - 1) >> 20) MiB" : "\(bytes) bytes" }

    private func serve(_ file: (bytes: [UInt8], modified: Instant), path: String, status: HTTPResponse.Status, request: Request) -> Response {
        let type = Self.contentType(of: path)
        let isHTML = type.hasPrefix("text/html")
        // The 404 page at a missing address reloads when the 404 page changes, too.
        let body = isHTML ? LiveReloadScript.inject(into: file.bytes, servedAs: status == .notFound ? basePath + path : nil) : file.bytes
        let etag = "\"\(StableHash.hex(StableHash.of(body)))\""
        var headers: HTTPFields = [
            .contentType: type,
            .eTag: etag,
            .lastModified: HTTPDate.format(file.modified),
            // Revalidate everything: HTML is never taken from a cache, and the rest answers 304.
            .cacheControl: "no-cache",
        ]
        if status == .ok {
            let notModified =
                request.headers[.ifNoneMatch].map { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == etag } }
                ?? request.headers[.ifModifiedSince].flatMap(HTTPDate.parse).map { $0.secondsSince1970 >= file.modified.secondsSince1970 }
                ?? false
            if notModified { return Response(status: .notModified, headers: headers) }
        }
        headers[.contentLength] = String(body.count)
        if request.method == .head { return Response(status: status, headers: headers) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private func notFound(_ request: Request) -> Response {
        if case .success(let page) = read("404.html") { return serve(page, path: "404.html", status: .notFound, request: request) }
        return plain(.notFound, "Not found\n", request: request)
    }

    /// The server-sent-event stream the live-reload script listens to.
    private func events() -> Response {
        let hub = hub
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                let stream = await hub.subscribe()
                try await writer.write(ByteBuffer(string: ": connected\n\n"))
                for await event in stream { try await writer.write(ByteBuffer(string: event.serverSentEvent)) }
                try await writer.finish(nil)
            })
    }

    static func isFolder(_ path: String) -> Bool { FileInfo.isFolder(path) }

    /// Content types by extension: the ones a Daybook site and its theme use.
    static func contentType(of path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "xml": return path.hasSuffix("feed.xml") ? "application/atom+xml" : "application/xml"
        case "txt": return "text/plain; charset=utf-8"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "avif": return "image/avif"
        case "ico": return "image/x-icon"
        case "woff": return "font/woff"
        case "woff2": return "font/woff2"
        case "ttf": return "font/ttf"
        case "otf": return "font/otf"
        case "pdf": return "application/pdf"
        case "mp4": return "video/mp4"
        case "webm": return "video/webm"
        default: return "application/octet-stream"
        }
    }
}
