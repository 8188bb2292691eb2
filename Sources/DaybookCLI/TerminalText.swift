#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What may reach a terminal: text with its control characters made visible, and colour only
/// where a person is reading.
enum TerminalText {
    /// Replaces every C0 control (tab and newline included), DEL and C1 control with `\u{1B}`-style
    /// text. Messages quote content (ids, file names, field values), and a raw ESC in them could
    /// rewrite the reader's terminal; one diagnostic also stays on one line.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Colour on standard error when it is a terminal, unless `NO_COLOR` is set to anything
    /// (https://no-color.org) or the terminal is `dumb`.
    static func usesColour(environment: [String: String]) -> Bool {
        guard isatty(STDERR_FILENO) == 1 else { return false }
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// `error` in bold red and `warning` in bold magenta, as compilers print them.
    static func severity(_ word: String, colour: Bool) -> String {
        guard colour else { return word }
        let code = word == "error" ? "1;31" : "1;35"
        return "\u{1B}[\(code)m\(word)\u{1B}[0m"
    }
}
