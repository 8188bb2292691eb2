import DaybookModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What the checker needs from a feed or a sitemap: well-formedness, and the elements it checks.
///
/// Foundation's `XMLParser` (libxml2 underneath) is a conforming XML parser and reports where a
/// document stops being well-formed, though on Linux only through its delegate (see
/// `wellFormedness`): a feed cut in half must not pass.
struct XMLFacts: Sendable {
    struct Element: Sendable, Hashable {
        /// Slash-joined names from the root: `feed/entry/id`.
        var path: String
        var text: String
        var attributes: [String: String]
        var line: Int
        var column: Int
    }

    var root: String?
    var elements: [Element] = []
    var error: (message: String, line: Int, column: Int)?

    init(xml bytes: [UInt8]) {
        let parser = XMLParser(data: Data(bytes))
        let reader = Reader(parser: parser)
        parser.delegate = reader
        parser.shouldProcessNamespaces = true
        let finished = parser.parse()
        error = Self.wellFormedness(bytes, reader: reader, finished: finished, parser: parser)
        root = reader.root
        // libxml2 reports an element where its start tag ends; point at its '<' instead, as the
        // HTML checks do, by looking back along the line.
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        elements = reader.elements.map { element in
            var moved = element
            guard element.line >= 1, element.line <= lines.count else { return moved }
            let line = Array(lines[element.line - 1])
            var index = min(element.column - 1, line.count - 1)
            while index > 0 && line[index] != UInt8(ascii: "<") { index -= 1 }
            if index >= 0, index < line.count, line[index] == UInt8(ascii: "<") {
                moved.column = String(decoding: line[..<index], as: UTF8.self).unicodeScalars.count + 1
            }
            return moved
        }
    }

    func all(_ path: String) -> [Element] { elements.filter { $0.path == path } }

    /// Whether the document is whole. On Linux, `XMLParser.parse()` returns `true` for a
    /// document that ends early or has text after its root: libxml2 reports those through the
    /// delegate only, and not at all for an empty file. So the verdict is the delegate's first
    /// error, then the parser's own state: a root that was opened and closed, nothing after it.
    private static func wellFormedness(
        _ bytes: [UInt8], reader: Reader, finished: Bool, parser: XMLParser
    ) -> (message: String, line: Int, column: Int)? {
        let end = endPosition(of: bytes[...])
        let contentEnd = endPosition(of: bytes[..<(bytes.lastIndex { !isXMLSpace($0) }.map { $0 + 1 } ?? 0)])
        if !reader.stack.isEmpty, let open = reader.stack.last,
            reader.firstError.map({ $0.line >= contentEnd.line }) ?? true
        {
            // Cut short: libxml2's first complaint, if any, is where the bytes stop; name that place.
            let inside = reader.stack.count > 1 ? " inside <\(reader.stack[0].name)>" : ""
            return ("XML is not well-formed: the file ends before <\(open.name)>\(inside) is closed; it looks cut short, so build the site again",
                    contentEnd.line, contentEnd.column)
        }
        if let first = reader.firstError {
            let what = reader.rootClosed && [5, 86].contains(first.code) ? "content follows the root element's end tag" : describe(first.code)
            return ("XML is not well-formed: \(what)", max(1, first.line), max(1, first.column))
        }
        if !finished {
            let code = (parser.parserError as NSError?)?.code ?? 0
            return ("XML is not well-formed: \(describe(code))", max(1, parser.lineNumber), max(1, parser.columnNumber))
        }
        guard reader.root != nil, reader.rootClosed else {
            return ("XML is not well-formed: the file has no root element; build the site again", end.line, end.column)
        }
        if reader.elementsAfterRoot > 0 {
            return ("XML is not well-formed: an element follows the root element's end tag", end.line, end.column)
        }
        // The last thing in a document is the root's end tag, a comment or a processing
        // instruction: each ends with '>'. Anything else after it is stray text.
        if let last = bytes.lastIndex(where: { !Self.isXMLSpace($0) }), bytes[last] != UInt8(ascii: ">") {
            return ("XML is not well-formed: text follows the root element's end tag", end.line, end.column)
        }
        return nil
    }

    private static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Line and column just past the last byte, in characters, as an editor counts them.
    private static func endPosition(of bytes: ArraySlice<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = bytes.startIndex
        for (index, byte) in zip(bytes.indices, bytes) where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart...], as: UTF8.self).unicodeScalars.count + 1
        return (line, column)
    }

    /// libxml2's error numbers (`xmlParserErrors`), which Foundation on Linux passes through,
    /// said the way a reader would; the rest are named by number.
    static func describe(_ code: Int) -> String {
        switch code {
        case 3: "the file does not start with an XML declaration or an element"
        case 4: "the file is empty"
        case 5: "content follows the root element, or the root element is not closed"
        case 6, 7, 8: "an invalid character reference"
        case 9: "a character that XML does not allow"
        case 22, 23: "an entity reference without a name or without ';' (write & as &amp;)"
        case 26: "an undeclared entity (XML knows only &amp; &lt; &gt; &quot; &apos;)"
        case 38: "'<' inside an attribute value"
        case 39, 40, 41, 43, 44: "an attribute value that is not quoted or not closed"
        case 42: "a duplicate attribute"
        case 45: "a comment that is not closed"
        case 63: "a CDATA section that is not closed"
        case 68: "a name is missing after '<'"
        case 73: "'>' is missing"
        case 76: "an end tag that does not match its start tag"
        case 77: "an element that is not closed"
        case 81: "the bytes are not valid in the declared encoding"
        case 86: "content follows the root element"
        default: "libxml2 error \(code)"
        }
    }

    private final class Reader: NSObject, XMLParserDelegate {
        let parser: XMLParser
        var root: String?
        var rootClosed = false
        var elementsAfterRoot = 0
        /// libxml2's first error; its warnings (undeclared namespace URIs and the like) are not errors.
        var firstError: (code: Int, line: Int, column: Int)?
        var stack: [(name: String, attributes: [String: String], line: Int, column: Int)] = []
        var texts: [String] = []
        var elements: [Element] = []

        init(parser: XMLParser) { self.parser = parser }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil { root = name }
            if rootClosed { elementsAfterRoot += 1 }
            stack.append((name, attributes, parser.lineNumber, parser.columnNumber))
            texts.append("")
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !texts.isEmpty { texts[texts.count - 1] += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard let top = stack.last else { return }
            let path = stack.map(\.name).joined(separator: "/")
            elements.append(Element(path: path, text: texts.removeLast(), attributes: top.attributes, line: top.line, column: top.column))
            stack.removeLast()
            if stack.isEmpty { rootClosed = true }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            let code = (parseError as NSError).code
            guard firstError == nil, !Self.warnings.contains(code) else { return }
            firstError = (code, parser.lineNumber, parser.columnNumber)
        }

        /// libxml2's `XML_WAR_*` numbers.
        static let warnings: Set<Int> = [27, 93, 97, 98, 99, 100, 102, 106, 107]
    }
}
