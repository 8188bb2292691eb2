import DaybookModel

/// Text as content gives it, made safe to carry into HTML and XML.
///
/// Controls and noncharacters are not allowed in HTML or XML documents (a NUL from content once made
/// `check` fail the build's own output), so every string read from content has them replaced by
/// U+FFFD, by `DocumentCharacter`'s rule.
enum ContentText {
    static func cleaned(_ text: String) -> String { DocumentCharacter.cleaned(text) }

    /// The line and column (in Unicode scalars) of the first byte that is not valid UTF-8, or `nil`
    /// when all of `bytes` is valid: a file that is not UTF-8 is reported where the bad byte is.
    static func firstInvalidUTF8(in bytes: [UInt8]) -> TextPosition? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var line = 1
        var column = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput: return nil
            case .error: return TextPosition(line: line, column: column)
            }
        }
    }
}
