import DaybookModel

/// What a page says of itself to link previews and search engines (CONTRACT §12): its
/// description, its Open Graph type, its photo and its schema.org description as JSON-LD.
/// The page builder makes it with the page, so the facts it reads are the page's own.
struct PageSummary: ViewModel {
    /// Plain text, at most `maxDescription` characters.
    var description: String?
    /// `website`, `article` (a post) or `profile`.
    var type = "website"
    /// A post's photo, never a sensitive one.
    var image: SharedImage?
    /// A schema.org object, as JSON safe inside `<script>`.
    var jsonLD: String?

    /// A photo as a link preview shows it: an absolute URL and its size.
    struct SharedImage: ViewModel {
        var url: String
        var width: Int
        var height: Int
        var alt: String

        static let fields = ViewFieldTable<Self>([
            .stored("url") { $0.url }, .stored("width") { $0.width }, .stored("height") { $0.height }, .stored("alt") { $0.alt },
        ])
    }

    static let fields = ViewFieldTable<Self>([
        .stored("description") { $0.description }, .stored("type") { $0.type }, .stored("image") { $0.image },
        .stored("jsonLD") { $0.jsonLD },
    ])

    /// §12: a description is cut to at most 200 characters.
    static let maxDescription = 200

    /// `text` on one line, cut as a card's caption is (`PageBuilder.excerpt`) so that with its
    /// "…" it is at most `maxDescription` characters.
    static func description(_ text: String) -> String? {
        let line = oneLine(text)
        guard !line.isEmpty else { return nil }
        // At most as many characters as UTF-8 bytes: most descriptions are never counted.
        guard line.utf8.count > maxDescription, line.count > maxDescription else { return line }
        return PageBuilder.excerpt(line, length: maxDescription - 1)
    }

    /// `text` with each run of whitespace (Unicode's White_Space: tabs, line breaks, no-break and
    /// ideographic spaces) one space, and none at either end. On UTF-8 bytes: split into
    /// Characters, and then on scalars with a property lookup each, 32,000 descriptions were 3%
    /// of a full build's CPU (perf, medium).
    static func oneLine(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var line: [UInt8] = []
            line.reserveCapacity(bytes.count)
            var spaceDue = false
            var index = 0
            while index < bytes.count {
                let length = whitespaceLength(bytes, at: index)
                if length > 0 {
                    spaceDue = !line.isEmpty
                    index += length
                    continue
                }
                if spaceDue {
                    line.append(0x20)
                    spaceDue = false
                }
                line.append(bytes[index])
                index += 1
            }
            // Whole characters were dropped or kept, so the bytes are still UTF-8.
            return String(decoding: line, as: UTF8.self)
        }
    }

    /// The length in bytes of the White_Space character starting at `index`, or 0. Unicode's
    /// White_Space is a closed list of 25 code points: ASCII's six, U+0085, U+00A0, U+1680,
    /// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000 (a test holds it to the
    /// standard library's).
    private static func whitespaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x80 { return byte == 0x20 || (0x09...0x0D).contains(byte) ? 1 : 0 }
        guard index + 1 < bytes.count else { return 0 }
        let second = bytes[index + 1]
        if byte == 0xC2 { return second == 0x85 || second == 0xA0 ? 2 : 0 }
        guard index + 2 < bytes.count, byte >= 0xE1, byte <= 0xE3 else { return 0 }
        let third = bytes[index + 2]
        switch (byte, second) {
        case (0xE1, 0x9A): return third == 0x80 ? 3 : 0
        case (0xE2, 0x80): return (0x80...0x8A).contains(third) || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0
        case (0xE2, 0x81): return third == 0x9F ? 3 : 0
        case (0xE3, 0x80): return third == 0x80 ? 3 : 0
        default: return 0
        }
    }
}

/// The `<head>` tags of a page (§12), with its absolute address.
struct HeadView: ViewModel {
    var canonical: String
    var title: String
    var siteName: String
    /// `og:locale`: the site's language as Open Graph writes it (`pt_BR`).
    var locale: String
    var summary: PageSummary

    static let fields = ViewFieldTable<Self>([
        .stored("canonical") { $0.canonical }, .stored("title") { $0.title }, .stored("siteName") { $0.siteName },
        .stored("locale") { $0.locale }, .stored("summary") { $0.summary },
    ])
}

/// JSON for a `<script type="application/ld+json">`: `<` is written `\u003c`, so no text of
/// the content can close the script or open a comment.
struct LinkedData {
    private var json = JSONText()

    static func object(_ build: (inout LinkedData) -> Void) -> String {
        var data = LinkedData()
        data.json.open("{")
        data.field("@context", "https://schema.org")
        build(&data)
        data.json.close("}")
        // On the bytes as made, rather than `String.replacing`, which walks Characters.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.json.bytes.count + 16)
        for byte in data.json.bytes {
            if byte == UInt8(ascii: "<") { bytes += Array(#"\u003c"#.utf8) } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func field(_ key: String, _ value: String?) {
        guard let value else { return }
        json.key(key)
        json.string(value)
    }

    mutating func field(_ key: String, _ value: Int) {
        json.key(key)
        json.number(value)
    }

    mutating func object(_ key: String, type: String, _ build: (inout LinkedData) -> Void) {
        json.key(key)
        json.open("{")
        field("@type", type)
        build(&self)
        json.close("}")
    }
}
