import CCmark
import DaybookModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CommonMark to HTML through libcmark, the reference implementation.
///
/// Content is untrusted: libcmark's default (safe) mode replaces raw HTML with a comment and blanks
/// `javascript:`, `vbscript:`, `file:` and most `data:` link targets. A blank target would still
/// leave an empty `href` or `src` (invalid, and against CONTRACT §5), so before rendering such links
/// and images are taken out of the tree, their text (a link's words, an image's alt text) kept in place.
package enum Markdown {
    /// - Parameter links: the site's rule for link targets; `nil` keeps every safe target as written.
    package static func html(from markdown: String, links: MarkdownLinks? = nil) -> String {
        // CMARK_OPT_SMART gives typographic quotes; CMARK_OPT_UNSAFE is never set.
        let options = CMARK_OPT_DEFAULT | CMARK_OPT_SMART
        guard let document = parse(markdown, options: options) else { return "" }
        defer { cmark_node_free(document) }
        dropUnsafeTargets(document, links: links)
        guard let rendered = cmark_render_html(document, options) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// Replaces each link or image whose target is empty, unsafe, or not one `links` keeps, by its
    /// children; a kept site path is rewritten under the site's root.
    private static func dropUnsafeTargets(_ document: OpaquePointer, links: MarkdownLinks?) {
        var doomed: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            if !isSafe(url, image: type == CMARK_NODE_IMAGE) {
                doomed.append(node)
            } else if let links {
                switch links.verdict(for: url) {
                case .keep(let written) where written != url: cmark_node_set_url(node, written)
                case .keep: break
                case .drop: doomed.append(node)
                }
            }
        }
        cmark_iter_free(iterator)
        // Innermost last in document order is fine: moving a node's children keeps them alive, and
        // a doomed node inside another doomed node is moved with its parent's children first.
        for node in doomed.reversed() {
            while let child = cmark_node_first_child(node) {
                cmark_node_insert_before(node, child)
            }
            cmark_node_unlink(node)
            cmark_node_free(node)
        }
    }

    /// The link and image targets of `markdown` that `links` would not keep, with the reason, in
    /// document order: what the build warns about.
    package static func droppedTargets(in markdown: String, links: MarkdownLinks) -> [(url: String, reason: String)] {
        dropped(targets(in: markdown), links: links)
    }

    /// The link and image targets of `markdown` that libcmark's safe mode keeps, in document
    /// order. They depend on the text alone, where what the site keeps of them depends on its
    /// files: a build may keep them for the next (parsing every text of a site was the largest
    /// part of preparing a rebuild), and apply the link rule to them again (`dropped`).
    package static func targets(in markdown: String) -> [String] {
        var targets: [String] = []
        guard let document = parse(markdown, options: CMARK_OPT_DEFAULT) else { return [] }
        defer { cmark_node_free(document) }
        guard let iterator = cmark_iter_new(document) else { return [] }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            if isSafe(url, image: type == CMARK_NODE_IMAGE) { targets.append(url) }
        }
        return targets
    }

    /// The `targets` (of `targets(in:)`) that `links` would not keep, with the reason.
    package static func dropped(_ targets: [String], links: MarkdownLinks) -> [(url: String, reason: String)] {
        targets.compactMap { url in
            guard case .drop(let reason) = links.verdict(for: url) else { return nil }
            return (url, reason)
        }
    }

    /// libcmark's tree of `markdown`, control characters replaced; the caller frees it.
    static func parse(_ markdown: String, options: Int32) -> OpaquePointer? {
        let utf8 = Array(withoutControls(markdown).utf8)
        return utf8.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cmark_parse_document($0, buffer.count, options) }
            }
        }
    }

    /// The targets libcmark's safe mode keeps: not empty, and not `javascript:`, `vbscript:`,
    /// `file:`, or `data:` other than a PNG, GIF, JPEG or WebP image.
    static func isSafe(_ url: String, image: Bool) -> Bool {
        let lowered = url.trimmingLeadingSpace.lowercased()
        guard !lowered.isEmpty else { return false }
        for scheme in ["javascript:", "vbscript:", "file:"] where lowered.hasPrefix(scheme) { return false }
        if lowered.hasPrefix("data:") {
            return ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"].contains { lowered.hasPrefix($0) }
        }
        return true
    }

    /// `text` with controls and noncharacters replaced by U+FFFD: they are not allowed in HTML, and
    /// libcmark passes them through (all but NUL).
    static func withoutControls(_ text: String) -> String { DocumentCharacter.cleaned(text) }
}

extension String {
    fileprivate var trimmingLeadingSpace: Substring {
        self.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
    }
}
