/// Small text conversions several targets need, written once.
package enum PercentEncoding {
    /// `%XX` sequences decoded as UTF-8, in one pass over the bytes; `nil` when an escape is
    /// malformed or the result is not UTF-8. Runs once per link checked and per request served,
    /// so it avoids Foundation's bridged `removingPercentEncoding`.
    package static func decode(_ text: some StringProtocol) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        func hex(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case .some(let b) where b >= 48 && b <= 57: b - 48
            case .some(let b) where b >= 65 && b <= 70: b - 55
            case .some(let b) where b >= 97 && b <= 102: b - 87
            default: nil
            }
        }
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = hex(iterator.next()), let low = hex(iterator.next()) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension Int {
    /// 1234567 → "1,234,567": summaries are read by people.
    package var grouped: String {
        let digits = String(self.magnitude)
        var out = self < 0 ? "-" : ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}

/// Text after a prefix, compared byte by byte: a URL's bytes, not its characters, name a file
/// (`hasPrefix` compares characters, a hundred times slower, and would call `https://x.org/e`
/// followed by a combining mark no match). `daybook check` and the build's rules for the site's
/// own address must agree on it, so it is written once.
package enum URLPrefix {
    /// `text` after `prefix`; `nil` when it does not start with it. Both are whole UTF-8, so the
    /// end of the prefix is a scalar boundary.
    @inlinable
    package static func drop(_ prefix: String, from text: Substring) -> Substring? {
        guard text.utf8.starts(with: prefix.utf8) else { return nil }
        return text[text.utf8.index(text.startIndex, offsetBy: prefix.utf8.count)...]
    }
}
