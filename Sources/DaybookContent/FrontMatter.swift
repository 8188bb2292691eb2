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
    ///
    /// Works on the UTF-8 bytes: splitting the text into `Character`s (so that a CRLF is one line
    /// end) cost more than parsing the front matter. Every line end is ASCII, so the lines are
    /// whole UTF-8 text, and a line with other bytes is asked whether it is blank as text.
    static func split(_ text: String) throws(Failure) -> FrontMatter {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(Failure) in try split(utf8: bytes) } }.get()
    }

    private static func split(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> FrontMatter {
        var lines = lineRanges(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { lines[0] = 3..<lines[0].upperBound }
        func isFence(_ line: Range<Int>) -> Bool {
            var end = line.upperBound
            while end > line.lowerBound, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            return bytes[line.lowerBound..<end].elementsEqual("---".utf8)
        }
        func isBlank(_ line: Range<Int>) -> Bool {
            let slice = bytes[line]
            if slice.allSatisfy({ $0 < 0x80 }) { return slice.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0B || $0 == 0x0C } }
            return String(decoding: UnsafeBufferPointer(rebasing: slice), as: UTF8.self).allSatisfy(\.isWhitespace)
        }
        func joined(_ lines: ArraySlice<Range<Int>>) -> String {
            var out: [UInt8] = []
            out.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
            for (index, line) in lines.enumerated() {
                if index > 0 { out.append(0x0A) }
                out.append(contentsOf: bytes[line])
            }
            return String(decoding: out, as: UTF8.self)
        }
        guard isFence(lines[0]) else { throw .missingOpening }
        guard let close = lines.indices.dropFirst().first(where: { isFence(lines[$0]) }) else { throw .missingClosing }
        var bodyLines = lines[(close + 1)...]
        while let line = bodyLines.first, isBlank(line) { bodyLines.removeFirst() }
        while let line = bodyLines.last, isBlank(line) { bodyLines.removeLast() }
        return FrontMatter(
            yaml: joined(lines[1..<close]), yamlFirstLine: 2, body: bodyLines.isEmpty ? nil : joined(bodyLines),
            bodyLine: bodyLines.startIndex + 1)
    }

    /// The byte ranges of the lines of `bytes`, without their ends (LF, CRLF or CR); a text ending
    /// in a line end has an empty last line, and an empty text one empty line.
    private static func lineRanges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A:
                lines.append(start..<index)
                index += 1
                start = index
            case 0x0D:
                lines.append(start..<index)
                index += index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
                start = index
            default:
                index += 1
            }
        }
        lines.append(start..<bytes.count)
        return lines
    }
}
