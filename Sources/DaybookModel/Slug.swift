/// CONTRACT §4: a slug is the NFC lower case of a text, keeping word characters, turning every
/// other run into one `-`, trimmed of `-`. It can hold no `/` or `.`, so it cannot leave its folder.
public enum Slug {
    public static func make(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingDash = false
        for scalar in text.nfcLowercased.unicodeScalars {
            if WordCharacter.isWord(scalar) {
                if pendingDash && !result.isEmpty { result.append("-") }
                pendingDash = false
                result.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return String(result)
    }
}
