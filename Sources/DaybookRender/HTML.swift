import DaybookModel

/// Escaping for text that Daybook itself assembles into HTML (captions with links, comments), and
/// for every `{{ }}` of the theme (`ThemeEscaping`).
enum HTML {
    static func escape(_ text: String) -> String { MarkupEscaping.html.escape(text) }
}

/// Escaping of text into a markup language, on bytes: HTML for pages (`HTML`), XML for feeds and
/// the sitemap (`XML`). Both replace the five special characters and refuse the scalars
/// `DocumentCharacter` refuses; they differ in the apostrophe's entity and in what a refused
/// scalar becomes.
struct MarkupEscaping: Sendable {
    /// What `'` becomes.
    let apostrophe: StaticString
    /// What a refused scalar becomes: U+FFFD in HTML, nothing in XML (which forbids most
    /// controls even as character references).
    let refused: StaticString

    static let html = MarkupEscaping(apostrophe: "&#39;", refused: "\u{FFFD}")
    static let xml = MarkupEscaping(apostrophe: "&apos;", refused: "")

    func escape(_ text: String) -> String {
        // Most values (URLs, names, dates, labels) are printable ASCII with nothing to escape:
        // those are returned as they are, without a copy.
        var text = text
        return text.withUTF8 { bytes in escaped(bytes) } ?? text
    }

    /// The escaped UTF-8 of `bytes`, or `nil` when there is nothing to escape. Works on bytes, and
    /// copies runs that need nothing whole: text with any non-ASCII letter or emoji went scalar by
    /// scalar before, a twentieth of a full build. Only a scalar whose lead byte can start a
    /// refused one (`DocumentCharacter.mayLead`) is decoded and asked.
    private func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        var changed = false
        var runStart = 0
        var index = 0
        func put(_ replacement: StaticString, skipping length: Int) {
            if !changed { out.reserveCapacity(bytes.count + 16) }
            changed = true
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            out.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            index += length
            runStart = index
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x26: put("&amp;", skipping: 1)
            case 0x3C: put("&lt;", skipping: 1)
            case 0x3E: put("&gt;", skipping: 1)
            case 0x22: put("&quot;", skipping: 1)
            case 0x27: put(apostrophe, skipping: 1)
            // HTML reports controls and noncharacters even as character references; content loading
            // already replaces them, this is the backstop.
            case 0x09, 0x0A, 0x0D: index += 1
            case ..<0x20, 0x7F: put(refused, skipping: 1)
            case ..<0x80: index += 1
            default:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                if DocumentCharacter.mayLead(byte),
                    let scalar = UTF8.decode(UnsafeBufferPointer(rebasing: bytes[index..<min(bytes.count, index + length)])),
                    !DocumentCharacter.isAllowed(scalar)
                {
                    put(refused, skipping: length)
                } else {
                    index += length
                }
            }
        }
        if !changed { return nil }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        return String(decoding: out, as: UTF8.self)
    }
}

extension UTF8 {
    /// The one scalar `bytes` encode, or `nil`.
    fileprivate static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }
}
