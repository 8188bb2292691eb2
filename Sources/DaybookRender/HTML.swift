import DaybookModel

/// Escaping for text that Daybook itself assembles into HTML (captions with links, comments), and
/// for every `{{ }}` of the theme (`ThemeEscaping`).
enum HTML {
    static func escape(_ text: String) -> String {
        // Most values (URLs, names, dates, labels) are printable ASCII with nothing to escape:
        // those are returned as they are, without a copy.
        let plain = text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte < 0x7F && byte != 0x26 && byte != 0x3C && byte != 0x3E && byte != 0x22 && byte != 0x27
        }
        if plain { return text }
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
