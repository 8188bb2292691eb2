import DaybookModel

/// Escaping for XML text and attribute values (feeds and the sitemap).
enum XML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // XML 1.0 forbids most control characters even when escaped; they are dropped.
            case _ where !DocumentCharacter.isAllowed(scalar): continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
