/// A Markdown item split into its YAML front matter and the text after it.
struct FrontMatter: Sendable, Hashable {
    var yaml: String
    /// The file line of the first front matter line (after the opening `---`).
    var yamlFirstLine: Int
    /// The text after the closing `---`, with blank lines around it dropped; `nil` when there is none.
    var body: String?
    /// The file line where `body` starts.
    var bodyLine: Int

    enum Failure: Error, Sendable, Hashable {
        case missingOpening
        case missingClosing
    }

    /// Splits `---\n<yaml>\n---\n<text>`. Lines may end in LF, CRLF or a lone CR; the parts are
    /// given back with LF line ends, and line numbers count lines however they end.
    static func split(_ text: String) throws(Failure) -> FrontMatter {
        // "\r\n" is one Character in Swift, so splitting on "\n" alone would never split a CRLF file.
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        guard let first = lines.first, first.trimmingTrailingSpaces == "---" else { throw .missingOpening }
        guard let close = lines.indices.dropFirst().first(where: { lines[$0].trimmingTrailingSpaces == "---" }) else {
            throw .missingClosing
        }
        let yaml = lines[1..<close].joined(separator: "\n")
        var bodyLines = lines[(close + 1)...]
        while let line = bodyLines.first, line.allSatisfy(\.isWhitespace) { bodyLines.removeFirst() }
        while let line = bodyLines.last, line.allSatisfy(\.isWhitespace) { bodyLines.removeLast() }
        let bodyLine = bodyLines.startIndex + 1
        return FrontMatter(
            yaml: yaml, yamlFirstLine: 2, body: bodyLines.isEmpty ? nil : bodyLines.joined(separator: "\n"),
            bodyLine: bodyLine)
    }
}

extension Substring {
    fileprivate var trimmingTrailingSpaces: Substring {
        var s = self
        while let last = s.last, last == " " || last == "\t" { s.removeLast() }
        return s
    }
}
