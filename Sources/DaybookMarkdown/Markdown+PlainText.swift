import CCmark

extension Markdown {
    /// The words a reader sees of `markdown`: its text and code, without markup, link targets or
    /// raw HTML (which safe mode never shows), blocks and line breaks as spaces. What search
    /// indexes of a prompt's body, a response or a bio (CONTRACT §10: nothing the pages do not show).
    package static func plainText(from markdown: String) -> String {
        guard let document = parse(markdown, options: CMARK_OPT_DEFAULT) else { return "" }
        defer { cmark_node_free(document) }
        var text = ""
        guard let iterator = cmark_iter_new(document) else { return "" }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            switch (event, type) {
            case (CMARK_EVENT_ENTER, CMARK_NODE_TEXT), (CMARK_EVENT_ENTER, CMARK_NODE_CODE), (CMARK_EVENT_ENTER, CMARK_NODE_CODE_BLOCK):
                if let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
            case (CMARK_EVENT_ENTER, CMARK_NODE_SOFTBREAK), (CMARK_EVENT_ENTER, CMARK_NODE_LINEBREAK):
                text += " "
            case (CMARK_EVENT_EXIT, CMARK_NODE_PARAGRAPH), (CMARK_EVENT_EXIT, CMARK_NODE_HEADING), (CMARK_EVENT_EXIT, CMARK_NODE_ITEM):
                text += " "
            default:
                break
            }
        }
        // Runs of spaces and line breaks as one space, on the bytes (by characters, this was a
        // tenth of the search index's time).
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                pendingSpace = !collapsed.isEmpty
            } else {
                if pendingSpace { collapsed.append(0x20) }
                pendingSpace = false
                collapsed.append(byte)
            }
        }
        return String(decoding: collapsed, as: UTF8.self)
    }
}
