/// The characters content may carry into an HTML page or an XML feed.
///
/// HTML reports controls and noncharacters in its input as parse errors, and XML 1.0 forbids most
/// of them outright, even as character references; a NUL or DEL from content once made `check`
/// reject the build's own output. Every place that turns content into a document asks this one rule.
///
/// Public, so that the byte test inlines into the writers in other modules (`ByteReader` says why).
public enum DocumentCharacter {
    /// Tab, line feed and carriage return, and every scalar that is not a C0 or C1 control, DEL,
    /// or a noncharacter (U+FDD0…U+FDEF, and U+xFFFE and U+xFFFF on every plane).
    @inlinable
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 { return value == 0x09 || value == 0x0A || value == 0x0D }
        if value < 0x7F { return true }
        if value <= 0x9F { return false }
        if value >= 0xFDD0 && value <= 0xFDEF { return false }
        return value & 0xFFFE != 0xFFFE
    }

    /// Whether `text` may hold a character `isAllowed` refuses: a quick test on bytes, so text
    /// that is plainly fine (nearly all of it) is not walked scalar by scalar.
    @inlinable
    public static func mayNeedCleaning(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(mayNeedCleaning) ?? text.utf8.contains(where: mayLead)
    }

    /// `mayNeedCleaning` on the UTF-8 bytes of a text.
    @inlinable
    public static func mayNeedCleaning(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool { utf8.contains(where: mayLead) }

    /// Whether a byte may lead a refused scalar: C0 and DEL; 0xC2 leads C1 controls
    /// (U+0080…U+009F); 0xEF leads U+FDD0… and U+FFFE/F; 0xF0…0xF4 lead the planes whose last two
    /// scalars are noncharacters.
    @inlinable
    public static func mayLead(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D || byte == 0x7F || byte == 0xC2 || byte == 0xEF || byte >= 0xF0
    }

    /// `text` with every refused character replaced by U+FFFD, where a reader can see that something was there.
    package static func cleaned(_ text: String) -> String {
        // Most text the byte test cannot clear holds emoji, which are allowed: it is kept as it is.
        guard mayNeedCleaning(text), text.unicodeScalars.contains(where: { !isAllowed($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(isAllowed(scalar) ? scalar : "\u{FFFD}") }
        return String(out)
    }
}
