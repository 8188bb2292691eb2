import DaybookModel

/// What a request path asks the preview server for, decided before touching the disk.
enum RequestPath: Sendable, Equatable {
    /// A file inside the output folder, by relative path.
    case file(String)
    /// A folder asked for without its trailing slash: `/x` → `/x/`.
    case redirect(String)
    case notFound
    case badRequest(String)

    /// Maps the raw (still percent-encoded) request path onto the output folder.
    ///
    /// Every traversal form is refused here: `..` and `.` segments (plain, percent-encoded, or
    /// mixed), backslashes, NUL bytes, and paths outside the site's base path. Percent-decoding
    /// happens exactly once, so `%252e%252e` is the harmless file name `%2e%2e`. Hidden files
    /// (the build manifest) are never served. Symbolic links are the responder's to refuse: it
    /// follows none below the output folder.
    static func resolve(_ raw: String, basePath: String, isFolder: (String) -> Bool) -> RequestPath {
        guard raw.hasPrefix("/") else { return .badRequest("the path must start with /") }
        guard !raw.contains("\\") else { return .badRequest("backslashes are not allowed in paths") }
        guard let decoded = PercentEncoding.decode(raw) else { return .badRequest("invalid percent-encoding") }
        guard !decoded.contains("\0"), !decoded.contains("\\") else { return .badRequest("invalid character in the path") }
        if decoded + "/" == basePath { return .redirect(basePath) }
        guard decoded.hasPrefix(basePath) else { return .notFound }
        let relative = String(decoded.dropFirst(basePath.count))
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment == ".." || segment == "." { return .badRequest("'.' and '..' are not allowed in paths") }
            if segment.hasPrefix(".") { return .notFound }
            if segment.isEmpty && index != segments.count - 1 { return .notFound }
        }
        if relative.isEmpty || relative.hasSuffix("/") { return .file(relative + "index.html") }
        if isFolder(relative) { return .redirect(raw + "/") }
        return .file(relative)
    }
}
