import DaybookModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What the checker needs from a feed or a sitemap: well-formedness, and the elements it checks.
///
/// Foundation's `XMLParser` (libxml2 underneath) is a conforming XML parser and reports where a
/// document stops being well-formed.
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
        if !parser.parse() {
            let message = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not well-formed"
            error = ("XML is not well-formed: \(message)", max(1, parser.lineNumber), max(1, parser.columnNumber))
        }
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

    private final class Reader: NSObject, XMLParserDelegate {
        let parser: XMLParser
        var root: String?
        var stack: [(name: String, attributes: [String: String], line: Int, column: Int)] = []
        var texts: [String] = []
        var elements: [Element] = []

        init(parser: XMLParser) { self.parser = parser }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil { root = name }
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
        }
    }
}
