/// CONTRACT §4: a slug is the NFC lower case of a text, keeping word characters, turning every
/// other run into one `-`, trimmed of `-`. It can hold no `/` or `.`, so it cannot leave its folder.
package enum Slug {
    package static func make(_ text: String) -> String {
        text.utf8.allSatisfy({ $0 < 0x80 }) ? makeASCII(text) : makeFromScalars(text)
    }

    /// The rule as CONTRACT §4 words it, scalar by scalar.
    static func makeFromScalars(_ text: String) -> String {
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

    /// The same rule on bytes, for ASCII text (nearly every id and tag), where lower case is a
    /// bit and the text is already NFC. Scalar by scalar, slugs were 2% of a full build (every
    /// link to a tag, user or place makes one).
    static func makeASCII(_ text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var pendingDash = false
        for byte in text.utf8 {
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if WordCharacter.isWord(Unicode.Scalar(lower)) {
                if pendingDash && !result.isEmpty { result.append(UInt8(ascii: "-")) }
                pendingDash = false
                result.append(lower)
            } else {
                pendingDash = true
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
