import Foundation

/// CONTRACT §2: "word characters" are Unicode letters and marks (L*, M*), decimal digits (Nd) and `_`.
/// Hashtags, mentions and slugs all share this one definition.
enum WordCharacter {
    static func isWord(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value
            return (v >= 48 && v <= 57) || (v >= 65 && v <= 90) || (v >= 97 && v <= 122) || v == 95
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }

    static func isLetter(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value
            return (v >= 65 && v <= 90) || (v >= 97 && v <= 122)
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }
}

extension String {
    /// CONTRACT §2: "NFC lower case", the one normal form for tags, slugs and name ordering.
    package var nfcLowercased: String {
        if utf8.allSatisfy({ $0 < 128 }) { return lowercased() }
        // Unicode's lower case has one rule that looks at context: a capital sigma ends a word as
        // `ς`, not `σ` (`ΟΔΟΣ` is `οδος`). The standard library's `lowercased()` leaves it out;
        // Foundation's, given a locale (none: the root one), applies it.
        let lower = unicodeScalars.contains("\u{3A3}") ? lowercased(with: nil) : lowercased()
        return Self.composingHangulTrailers(lower.precomposedStringWithCanonicalMapping)
    }

    /// `text` with each Hangul LV syllable and the trailing jamo after it composed into one
    /// syllable (`가` + `ᆨ` is `각`), as NFC composes them: Foundation's NFC on Linux leaves that
    /// one pair apart, and a slug made of it named a folder NFC does not. Unicode §3.12's
    /// arithmetic, as nothing else composes them.
    static func composingHangulTrailers(_ text: String) -> String {
        let trailers: ClosedRange<UInt32> = 0x11A8...0x11C2
        guard text.unicodeScalars.contains(where: { trailers.contains($0.value) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if trailers.contains(scalar.value), let last = result.last, (0xAC00...0xD7A3).contains(last.value), (last.value - 0xAC00) % 28 == 0,
                let syllable = Unicode.Scalar(last.value + scalar.value - 0x11A7)
            {
                result.removeLast()
                result.append(syllable)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Orders by Unicode scalar values, as CONTRACT §2 says ids and names compare.
    package func scalarsPrecede(_ other: String) -> Bool {
        // UTF-8 keeps the scalars' order, and comparing bytes costs far less than decoding scalars
        // (the build record sorts every output path).
        // Native strings lend their bytes without a copy; only a bridged one is made native first.
        func compare(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
            let common = Swift.min(x.count, y.count)
            if common > 0, let p = x.baseAddress, let q = y.baseAddress {
                let order = memcmp(p, q, common)
                if order != 0 { return order < 0 }
            }
            return x.count < y.count
        }
        if let fast = utf8.withContiguousStorageIfAvailable({ x in other.utf8.withContiguousStorageIfAvailable { y in compare(x, y) } }),
            let result = fast
        {
            return result
        }
        var a = self
        var b = other
        return a.withUTF8 { x in b.withUTF8 { y in compare(x, y) } }
    }
}
