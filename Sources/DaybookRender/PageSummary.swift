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
    /// ideographic spaces) one space, and none at either end. On bytes when the text is ASCII,
    /// else on scalars, never on Characters: split into Characters, and then on scalars with a
    /// property lookup each, 32,000 descriptions were 3% of a full build's CPU (perf, medium).
    static func oneLine(_ text: String) -> String {
        var text = text
        if let ascii = text.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } ? asciiLine(bytes) : nil }) { return ascii }
        var line = String.UnicodeScalarView()
        var spaceDue = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                spaceDue = !line.isEmpty
                continue
            }
            if spaceDue {
                line.append(" ")
                spaceDue = false
            }
            line.append(scalar)
        }
        return String(line)
    }

    private static func asciiLine(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var line: [UInt8] = []
        line.reserveCapacity(bytes.count)
        var spaceDue = false
        for byte in bytes {
            // ASCII's White_Space: tab, line feed, vertical tab, form feed, carriage return, space.
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                spaceDue = !line.isEmpty
                continue
            }
            if spaceDue {
                line.append(0x20)
                spaceDue = false
            }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
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
