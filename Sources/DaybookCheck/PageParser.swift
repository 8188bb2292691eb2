import CGumbo
import DaybookModel

/// Reads what the checker needs from one HTML page with gumbo: its titles, ids, links, images
/// without alt text and parse errors.
///
/// gumbo implements the WHATWG HTML5 parsing algorithm, so "parses as HTML5" means what browsers
/// mean, and it reports each parse error with a line and column. It is a small C library in
/// Debian (`libgumbo-dev`); no Swift package on the mirror parses HTML5.
///
/// Each string is interned into the caller's table as the walk finds it, and only the values of
/// the attributes the checks read become strings: a cold check of a 32,000-page site walks
/// 3 million attributes, and holding 1.4 million link strings until a second pass interned them
/// was a tenth of its time.
struct PageParser {
    typealias Position = IndexedFacts.Position

    private var facts = IndexedFacts()
    private var table: StringTable
    /// The link attributes' names, interned once per page rather than once per link.
    private let href: UInt32, src: UInt32, srcset: UInt32

    /// The `<meta>` properties that name a file of the site for link previews (CONTRACT §12): a
    /// preview reader fetches them, so one naming a missing file is a broken link.
    static let previewProperties: Set<String> = ["og:image", "og:image:url", "og:image:secure_url", "og:url", "twitter:image"]
    /// What a `<link rel="canonical">`'s URL is recorded as standing in, in place of `href`.
    static let canonical = "canonical"

    private init(table: StringTable) {
        self.table = table
        (href, src, srcset) = (self.table.intern("href"), self.table.intern("src"), self.table.intern("srcset"))
    }

    /// The page's facts over `table`, which gains the strings it did not hold.
    static func facts(of bytes: [UInt8], table: inout StringTable) -> IndexedFacts {
        var parser = PageParser(table: table)
        table = StringTable()  // The parser holds the only reference, so interning does not copy it.
        defer { table = parser.table }
        parser.parse(bytes)
        return parser.facts
    }

    private mutating func parse(_ bytes: [UInt8]) {
        // A byte order mark may start an HTML5 page; gumbo would take it for text before the
        // doctype and report a parse error at each element after.
        let bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        var options = kGumboDefaultOptions
        options.tab_stop = 1
        // The whole parse lives in one arena, released at once (see shim.h): no destroy walk.
        var arena = DaybookGumboArena()
        defer { daybook_arena_release(&arena) }
        let output: UnsafeMutablePointer<GumboOutput>? = withUnsafeMutablePointer(to: &arena) { arena in
            options.allocator = daybook_arena_allocate
            options.deallocator = daybook_arena_deallocate
            options.userdata = UnsafeMutableRawPointer(arena)
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    gumbo_parse_with_options(&options, chars.baseAddress, chars.count)
                }
            }
        }
        guard let output else {
            facts.pageErrors.append(named("the page could not be parsed", Position(line: 1, column: 1)))
            return
        }
        let errors = output.pointee.errors
        for index in 0..<Int(errors.length) {
            guard let raw = errors.data[index] else { continue }
            let head = raw.assumingMemoryBound(to: DaybookGumboErrorHead.self).pointee
            facts.pageErrors.append(named(Self.describe(head.type), Position(head.position)))
        }
        walk(output.pointee.root)
    }

    private mutating func named(_ text: String, _ position: Position) -> IndexedFacts.Named {
        IndexedFacts.Named(text: table.intern(text), position: position)
    }

    private mutating func walk(_ node: UnsafeMutablePointer<GumboNode>?) {
        guard let node, node.pointee.type == GUMBO_NODE_ELEMENT || node.pointee.type == GUMBO_NODE_TEMPLATE else { return }
        let element = node.pointee.v.element
        let tag = element.tag
        let attributes = element.attributes
        var hasAlt = false
        var id: String?
        var anchorName: (value: String, position: Position)?
        // `<link rel="canonical">` and `<meta property="og:image" content>` are links too, known
        // only once the element's other attributes are read.
        var relation: String?
        var linkHref: (value: String, position: Position)?
        var property: String?
        var content: (value: String, position: Position)?
        for index in 0..<Int(attributes.length) {
            guard let attribute = attributes.data[index]?.assumingMemoryBound(to: GumboAttribute.self).pointee,
                let name = Attribute(attribute.name)
            else { continue }
            if name == .alt {
                hasAlt = true
                continue
            }
            let value = String(cString: attribute.value)
            let position = Position(attribute.value_start.line == 0 ? element.start_pos : attribute.value_start)
            switch name {
            case .id:
                id = value
                facts.ids.append(named(value, position))
            case .name where tag == GUMBO_TAG_A: anchorName = (value, position)
            case .name where tag == GUMBO_TAG_META, .property where tag == GUMBO_TAG_META: property = value
            case .name, .property: break
            case .rel: relation = value
            case .content where tag == GUMBO_TAG_META: content = (value, position)
            case .content: break
            case .href where tag == GUMBO_TAG_LINK && !value.utf8.allSatisfy(Self.isASCIIWhitespace): linkHref = (value, position)
            case .href where value.utf8.allSatisfy(Self.isASCIIWhitespace), .src where value.utf8.allSatisfy(Self.isASCIIWhitespace):
                // CONTRACT §5: no element has an empty `src` or `href`: it names the page itself.
                facts.pageErrors.append(named("empty \(name == .href ? "href" : "src") attribute: it names the page itself; give the address, or leave the attribute out", position))
            case .href: facts.links.append(IndexedFacts.Link(url: table.intern(value), attribute: href, position: position))
            case .src: facts.links.append(IndexedFacts.Link(url: table.intern(value), attribute: src, position: position))
            case .srcset:
                // Candidates part at commas, and a candidate's URL ends at ASCII whitespace, as
                // HTML splits them (a URL may hold other spaces, such as U+3000).
                for candidate in value.utf8.split(separator: UInt8(ascii: ",")) {
                    if let url = candidate.split(whereSeparator: Self.isASCIIWhitespace).first {
                        facts.links.append(IndexedFacts.Link(url: table.intern(String(Substring(url))), attribute: srcset, position: position))
                    }
                }
            case .alt: break
            }
        }
        // HTML scrolls to an `<a name>` as to an id, so a fragment may name one; `<a id="x"
        // name="x">` names one target, not two.
        if let anchorName, anchorName.value != id { facts.ids.append(named(anchorName.value, anchorName.position)) }
        if let linkHref {
            let isCanonical = relation?.lowercased().split(whereSeparator: \.isWhitespace).contains(Self.canonical[...]) ?? false
            facts.links.append(IndexedFacts.Link(url: table.intern(linkHref.value), attribute: isCanonical ? table.intern(Self.canonical) : href, position: linkHref.position))
        }
        if tag == GUMBO_TAG_META, let property, let content, Self.previewProperties.contains(property.lowercased()),
            !content.value.utf8.allSatisfy(Self.isASCIIWhitespace)
        {
            facts.links.append(IndexedFacts.Link(url: table.intern(content.value), attribute: table.intern(property.lowercased()), position: content.position))
        }
        if tag == GUMBO_TAG_IMG && !hasAlt { facts.imagesWithoutAlt.append(Position(element.start_pos)) }
        // An inline SVG's `<title>` names the drawing, not the page.
        if tag == GUMBO_TAG_TITLE && element.tag_namespace == GUMBO_NAMESPACE_HTML {
            facts.titles.append(named(Self.text(of: node), Position(element.start_pos)))
        }
        let children = element.children
        for index in 0..<Int(children.length) {
            walk(children.data[index]?.assumingMemoryBound(to: GumboNode.self))
        }
    }

    /// HTML's ASCII whitespace: tab, line feed, form feed, carriage return and space.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// The attributes the checks read, known by their name's bytes (gumbo lower-cases names).
    private enum Attribute {
        case id, name, href, src, srcset, alt, rel, property, content

        init?(_ name: UnsafePointer<CChar>) {
            let found: Attribute? = switch UInt8(bitPattern: name[0]) {
            case UInt8(ascii: "i"): strcmp(name, "id") == 0 ? .id : nil
            case UInt8(ascii: "r"): strcmp(name, "rel") == 0 ? .rel : nil
            case UInt8(ascii: "p"): strcmp(name, "property") == 0 ? .property : nil
            case UInt8(ascii: "c"): strcmp(name, "content") == 0 ? .content : nil
            case UInt8(ascii: "n"): strcmp(name, "name") == 0 ? .name : nil
            case UInt8(ascii: "h"): strcmp(name, "href") == 0 ? .href : nil
            case UInt8(ascii: "s"): strcmp(name, "src") == 0 ? .src : strcmp(name, "srcset") == 0 ? .srcset : nil
            case UInt8(ascii: "a"): strcmp(name, "alt") == 0 ? .alt : nil
            default: nil
            }
            guard let found else { return nil }
            self = found
        }
    }

    private static func text(of node: UnsafeMutablePointer<GumboNode>) -> String {
        let children = node.pointee.v.element.children
        var text = ""
        for index in 0..<Int(children.length) {
            guard let child = children.data[index]?.assumingMemoryBound(to: GumboNode.self) else { continue }
            if child.pointee.type == GUMBO_NODE_TEXT || child.pointee.type == GUMBO_NODE_WHITESPACE {
                text += String(cString: child.pointee.v.text.text)
            }
        }
        return text
    }

    /// Names of gumbo 0.10's error types (`GumboErrorType`, in order), as a reader would say them.
    private static let errorNames = [
        "invalid UTF-8", "truncated UTF-8", "NUL character", "numeric character reference without digits",
        "numeric character reference without ';'", "invalid numeric character reference",
        "named character reference without ';'", "invalid named character reference", "tag starts with '?'",
        "end of file inside a tag", "invalid tag", "empty end tag", "end of file inside an end tag", "invalid end tag",
        "end of file inside a script", "end of file inside an attribute name", "invalid attribute name",
        "end of file inside a double-quoted attribute", "end of file inside a single-quoted attribute",
        "end of file inside an unquoted attribute", "'>' right after '=' in an unquoted attribute",
        "'=' inside an unquoted attribute", "end of file after an attribute", "invalid character after an attribute",
        "duplicate attribute", "end of file after '/'", "invalid character after '/'", "malformed comment or doctype",
        "end of file inside a comment", "invalid comment", "'--!' inside a comment", "'---' inside a comment",
        "'-- ' inside a comment", "end of file after '--!' in a comment", "end of file inside the doctype",
        "invalid doctype", "missing space in the doctype", "doctype ended too early",
        "missing space or '>' in the doctype", "invalid text at the end of the doctype",
        "element in a place HTML does not allow (misnested or stray tag)", "'/>' on an element that is not void",
    ]

    static func describe(_ type: Int32) -> String {
        let index = Int(type)
        return "HTML parse error: " + (errorNames.indices.contains(index) ? errorNames[index] : "error \(index)")
    }
}

extension IndexedFacts.Position {
    init(_ position: GumboSourcePosition) {
        self.init(line: Int(position.line), column: Int(position.column))
    }
}
