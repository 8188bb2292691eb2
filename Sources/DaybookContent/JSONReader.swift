import DaybookModel

/// A JSON parse failure with the position of the offending byte.
struct JSONSyntaxError: Error, Sendable, Hashable {
    var message: String
    var position: TextPosition
}

/// Parses JSON (RFC 8259) into `RawValue`s that remember their line and column.
///
/// Written by hand because neither Foundation's `JSONSerialization`/`JSONDecoder` nor any
/// package on the mirror reports where a value stands, and CONTRACT §6 wants every content
/// problem at `path:line:column`. One pass over the bytes, O(n); columns are counted
/// incrementally along each line, so long single-line files stay linear.
struct JSONReader {
    private let bytes: [UInt8]
    /// Whether strings (keys too) come out cleaned as `ContentText.cleaned` cleans them: checked on
    /// the bytes already in hand, where cleaning each record's tree after cost a tenth of loading.
    private let cleans: Bool
    /// Whether the caller has checked all of `bytes` as UTF-8: every string then lies between
    /// ASCII quotes in valid text, and is made without being validated again (a generic call that
    /// was a fifth of decoding a list file).
    private let isValidUTF8: Bool
    private var index = 0
    private var line = 1
    private var lineStart = 0
    // Column bookkeeping: the scalar column at `columnOffset`, advanced lazily.
    private var columnOffset = 0
    private var column = 1

    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> RawValue {
        try parse(bytes, eachElement: nil)
    }

    /// Like `parse`, but when the document is an array its elements go to `element` one by one as
    /// they are read and are not kept (the value returned is the array, empty): a 100 MB list of
    /// comments never stands in memory as one tree. A syntax error anywhere still throws, so the
    /// caller must drop what it made of the elements before it.
    static func parse(
        _ bytes: [UInt8], cleaning: Bool = false, validUTF8: Bool = false, eachElement element: ((RawValue) -> Void)?
    ) throws(JSONSyntaxError) -> RawValue {
        var reader = JSONReader(bytes: bytes, cleans: cleaning, isValidUTF8: validUTF8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            reader.index = 3
            reader.lineStart = 3
            reader.columnOffset = 3
        }
        reader.skipWhitespace()
        let value: RawValue
        if let element, reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: "[") {
            let start = reader.position()
            try reader.parseElements(depth: 0, element)
            value = RawValue(.array([]), at: start)
        } else {
            value = try reader.parseValue(depth: 0)
        }
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], cleans: Bool, isValidUTF8: Bool) {
        self.bytes = bytes
        self.cleans = cleans
        self.isValidUTF8 = isValidUTF8
    }

    private mutating func position() -> TextPosition {
        if columnOffset < lineStart {
            columnOffset = lineStart
            column = 1
        }
        while columnOffset < index {
            if bytes[columnOffset] & 0xC0 != 0x80 { column += 1 }
            columnOffset += 1
        }
        // A position inside a multi-byte scalar still names that scalar's column.
        return TextPosition(line: line, column: column)
    }

    private mutating func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: position())
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> RawValue {
        guard depth < 512 else { throw error("JSON nested too deeply") }
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        let start = position()
        switch bytes[index] {
        case UInt8(ascii: "{"): return RawValue(.object(try parseObject(depth: depth)), at: start)
        case UInt8(ascii: "["): return RawValue(.array(try parseArray(depth: depth)), at: start)
        case UInt8(ascii: "\""): return RawValue(.string(try parseString()), at: start)
        case UInt8(ascii: "t"): try expectLiteral("true"); return RawValue(.bool(true), at: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); return RawValue(.bool(false), at: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); return RawValue(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return RawValue(.number(try parseNumber()), at: start)
        default: throw error("unexpected character; expected a value")
        }
    }

    private mutating func expectLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard index + count <= bytes.count, bytes[index..<(index + count)].elementsEqual(expected) else {
            throw error("unexpected character; expected a value")
        }
        index += count
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> [RawMember] {
        index += 1
        var members: [RawMember] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a key in double quotes")
            }
            let keyPosition = position()
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            members.append(RawMember(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            index += 1
            return members
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> [RawValue] {
        var values: [RawValue] = []
        try parseElements(depth: depth) { values.append($0) }
        return values
    }

    /// The array at `index`, each element handed to `element` as it is read.
    private mutating func parseElements(depth: Int, _ element: (RawValue) -> Void) throws(JSONSyntaxError) {
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            element(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            index += 1
            return
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                let text = try decodeUTF8(bytes[start..<index])
                index += 1
                return text
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("control character in a string; write it escaped (\\n, \\t)") }
            index += 1
        }
        var scratch = Array(bytes[start..<index])
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                index += 1
                return try decodeUTF8(scratch[...])
            }
            if c < 0x20 { throw error("control character in a string; write it escaped (\\n, \\t)") }
            if c != UInt8(ascii: "\\") {
                scratch.append(c)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scratch.append(0x22)
            case UInt8(ascii: "\\"): scratch.append(0x5C)
            case UInt8(ascii: "/"): scratch.append(0x2F)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                scratch.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                index -= 1
                throw error("invalid escape in a string")
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - 55)
            default: throw error("invalid \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func decodeUTF8(_ slice: ArraySlice<UInt8>) throws(JSONSyntaxError) -> String {
        let text: String
        if isValidUTF8 {
            text = String(decoding: slice, as: UTF8.self)
        } else {
            guard let valid = String(validating: slice, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
            text = valid
        }
        if cleans && slice.withUnsafeBufferPointer(DocumentCharacter.mayNeedCleaning) { return DocumentCharacter.cleaned(text) }
        return text
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 }
        guard isDigit(index) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw error("invalid number") }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw error("invalid number") }
            while isDigit(index) { index += 1 }
        }
        guard let text = String(validating: bytes[start..<index], as: UTF8.self), let value = Double(text) else {
            throw error("invalid number")
        }
        return value
    }
}
