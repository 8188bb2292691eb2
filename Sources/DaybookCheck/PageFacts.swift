import CGumbo
import DaybookModel

/// What the checker needs from one HTML page, read with gumbo.
///
/// gumbo implements the WHATWG HTML5 parsing algorithm, so "parses as HTML5" means what browsers
/// mean, and it reports each parse error with a line and column. It is a small C library in
/// Debian (`libgumbo-dev`); no Swift package on the mirror parses HTML5.
struct PageFacts: Sendable {
    struct Position: Sendable, Hashable {
        var line: Int
        var column: Int
    }

    struct Link: Sendable, Hashable {
        var url: String
        var attribute: String
        var position: Position
    }

    var titles: [(text: String, position: Position)] = []
    /// Every `id` with where it stands, in document order.
    var ids: [(id: String, position: Position)] = []
    var links: [Link] = []
    var imagesWithoutAlt: [Position] = []
    var parseErrors: [(message: String, position: Position)] = []

    init() {}

    init(html bytes: [UInt8]) {
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
            parseErrors.append(("the page could not be parsed", Position(line: 1, column: 1)))
            return
        }
        let errors = output.pointee.errors
        for index in 0..<Int(errors.length) {
            guard let raw = errors.data[index] else { continue }
            let head = raw.assumingMemoryBound(to: DaybookGumboErrorHead.self).pointee
            parseErrors.append((Self.describe(head.type), Position(head.position)))
        }
        walk(output.pointee.root)
    }

    private mutating func walk(_ node: UnsafeMutablePointer<GumboNode>?) {
        guard let node, node.pointee.type == GUMBO_NODE_ELEMENT || node.pointee.type == GUMBO_NODE_TEMPLATE else { return }
        let element = node.pointee.v.element
        let tag = element.tag
        let attributes = element.attributes
        var hasAlt = false
        for index in 0..<Int(attributes.length) {
            guard let attribute = attributes.data[index]?.assumingMemoryBound(to: GumboAttribute.self).pointee else { continue }
            let name = String(cString: attribute.name)
            let value = String(cString: attribute.value)
            let position = Position(attribute.value_start.line == 0 ? element.start_pos : attribute.value_start)
            switch name {
            case "id": ids.append((value, position))
            case "href", "src": links.append(Link(url: value, attribute: name, position: position))
            case "srcset":
                for candidate in value.split(separator: ",") {
                    if let url = candidate.split(whereSeparator: \.isWhitespace).first {
                        links.append(Link(url: String(url), attribute: name, position: position))
                    }
                }
            case "alt": hasAlt = true
            default: break
            }
        }
        if tag == GUMBO_TAG_IMG && !hasAlt { imagesWithoutAlt.append(Position(element.start_pos)) }
        if tag == GUMBO_TAG_TITLE {
            titles.append((Self.text(of: node), Position(element.start_pos)))
        }
        let children = element.children
        for index in 0..<Int(children.length) {
            walk(children.data[index]?.assumingMemoryBound(to: GumboNode.self))
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

extension PageFacts.Position {
    init(_ position: GumboSourcePosition) {
        self.init(line: Int(position.line), column: Int(position.column))
    }
}
