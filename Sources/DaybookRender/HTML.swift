/// Escaping for text that Daybook itself assembles into HTML (captions with links, comments).
/// Everything else is escaped by Mustache's `{{ }}`.
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // HTML forbids C0 controls other than whitespace, and the noncharacters U+FFFE and U+FFFF,
            // even as character references; content loading already replaces them, this is the backstop.
            case "\u{9}", "\u{A}", "\u{C}", "\u{D}": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
