import CCmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CommonMark to HTML through libcmark, the reference implementation.
///
/// Content is untrusted: libcmark's default (safe) mode replaces raw HTML with a comment and drops
/// `javascript:`, `vbscript:`, `file:` and most `data:` link targets, which is exactly CONTRACT §5.
public enum Markdown {
    public static func html(from markdown: String) -> String {
        // CMARK_OPT_SMART gives typographic quotes; CMARK_OPT_UNSAFE is never set.
        let options = CMARK_OPT_DEFAULT | CMARK_OPT_SMART
        let utf8 = Array(markdown.utf8)
        guard let rendered = utf8.withUnsafeBufferPointer({ buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    cmark_markdown_to_html($0, buffer.count, options)
                }
            }
        }) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }
}
