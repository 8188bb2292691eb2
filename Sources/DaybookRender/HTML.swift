import DaybookModel

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
            // HTML reports controls and noncharacters even as character references; content loading
            // already replaces them, this is the backstop.
            case _ where !DocumentCharacter.isAllowed(scalar): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
