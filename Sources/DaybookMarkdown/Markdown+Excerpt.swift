import CCmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Markdown {
    /// The source of a document's first top-level paragraph, for list pages; headings, lists,
    /// quotes, code and HTML before it are skipped. `nil` when there is no paragraph.
    ///
    /// cmark finds the paragraph, so a fenced code block with a blank line inside, or a body
    /// with CRLF or CR line breaks, is read as CommonMark reads it. The paragraph's source lines
    /// are returned, not its HTML, so the excerpt goes through `html(from:)` like any Markdown.
    package static func firstParagraph(of markdown: String) -> String? {
        let utf8 = Array(markdown.utf8)
        let found: (first: Int, last: Int)? = utf8.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress,
                let document = base.withMemoryRebound(to: CChar.self, capacity: buffer.count, {
                    cmark_parse_document($0, buffer.count, CMARK_OPT_DEFAULT)
                })
            else { return nil }
            defer { cmark_node_free(document) }
            var node = cmark_node_first_child(document)
            while let block = node {
                if cmark_node_get_type(block) == CMARK_NODE_PARAGRAPH {
                    return (Int(cmark_node_get_start_line(block)), Int(cmark_node_get_end_line(block)))
                }
                node = cmark_node_next(block)
            }
            return nil
        }
        guard let found else { return nil }
        let lines = sourceLines(markdown)
        guard found.first >= 1, found.first <= found.last, found.last <= lines.count else { return nil }
        let text = lines[(found.first - 1)...(found.last - 1)].joined(separator: "\n")
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// Lines as CommonMark counts them: ended by LF, CRLF or CR.
    static func sourceLines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.unicodeScalars.startIndex
        var index = start
        let scalars = text.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" {
                lines.append(Substring(scalars[start..<index]))
                var next = scalars.index(after: index)
                if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
                start = next
                index = next
            } else {
                index = scalars.index(after: index)
            }
        }
        lines.append(Substring(scalars[start..<scalars.endIndex]))
        return lines
    }
}
