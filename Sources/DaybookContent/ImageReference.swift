import DaybookModel

/// The checks on a field that names an image (a post's `image`, a user's `avatar`), made where the
/// field's position is known (CONTRACT §2).
///
/// A path must stay inside `content/`: a leading `/` would become a protocol-relative `//host/…`
/// load, and a backslash a host on some browsers, so anything but plain relative segments is an
/// error. A field that fails is dropped from its record, so the renderer never sees the path.
struct ImageReference {
    enum Verdict: Equatable {
        case fine
        /// The path is not one to publish: an error; the field is dropped.
        case unsafe
        /// The file reaches outside the site through a symbolic link: an error; the field is dropped.
        case outside(link: String)
        /// No such file under `content/`: a warning; the field is dropped and the item shown without it.
        case missing
        /// A name on the path is one the build passes over (`SiteFileName.isPassedOver`: hidden,
        /// an editor's backup): a warning, as `missing`, that says why.
        case passedOver
    }

    /// The field of `collection` that names an image file, if it has one.
    static func field(of collection: ContentCollection) -> String? {
        switch collection {
        case .posts: "image"
        case .users: "avatar"
        default: nil
        }
    }

    static func isAbsoluteURL(_ reference: String) -> Bool {
        reference.hasPrefix("http://") || reference.hasPrefix("https://")
    }

    /// The path under `content/` that a full URL under the site's own address names
    /// (`https://example.org/images/a%20b.png` → `images/a b.png`), and `nil` for any other
    /// reference. Such a URL is the site's own file: `daybook check` resolves it as one, so it
    /// is published as that file is, with its copies, or reported missing as a path would be.
    /// A query is dropped; a fragment or bad percent-encoding names no file (`""`).
    static func localPath(of reference: String, base: String?) -> String? {
        guard let base, var below = URLPrefix.drop(base, from: reference[...]) else { return nil }
        if let query = below.firstIndex(of: "?") { below = below[..<query] }
        guard !below.contains("#"), let decoded = PercentEncoding.decode(below) else { return "" }
        return decoded
    }

    /// Whether `reference` is a plain relative path: no leading `/`, no backslash, no empty, `.` or
    /// `..` segment, no control character.
    static func isSafePath(_ reference: String) -> Bool {
        guard !reference.isEmpty, !reference.contains("\\"),
            reference.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        else { return false }
        return reference.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !["", ".", ".."].contains($0) }
    }

    static func verdict(_ reference: String, in snapshot: ContentSnapshot) -> Verdict {
        if isAbsoluteURL(reference) { return .fine }
        guard isSafePath(reference) else { return .unsafe }
        let path = "content/" + reference
        if let link = outsideLink(naming: path, in: snapshot.outsideLinks) { return .outside(link: link) }
        if snapshot.assets.contains(path) { return .fine }
        return reference.split(separator: "/").contains(where: SiteFileName.isPassedOver) ? .passedOver : .missing
    }

    /// The link out of the site that `path` is, or lies under.
    static func outsideLink(naming path: String, in links: Set<String>) -> String? {
        guard !links.isEmpty else { return nil }
        var prefix = Substring(path)
        while true {
            if links.contains(String(prefix)) { return String(prefix) }
            guard let slash = prefix.lastIndex(of: "/") else { return nil }
            prefix = prefix[..<slash]
        }
    }
}
