import Foundation

/// How search reads text (CONTRACT §10), the same at build time and in the browser, where
/// `Templates/search.js` repeats these rules line for line (`fold`, `tokens`): a word found by
/// one side is a word of the other.
///
/// - Folding: canonical decomposition, nonspacing marks dropped, NFC lower case, and `ς` as `σ`,
///   so `SÃO`, `são` and `sao` are one word.
/// - Words: runs of letters, marks, numbers and `_`; an apostrophe (`'` or `’`) between two of
///   them is dropped (`don't` is `dont`). This is Unicode's word boundary rule (UAX #29) for
///   everything but full stops and colons inside words, written out so that both sides apply it
///   identically (JavaScript's `Intl.Segmenter` follows the browser's own ICU).
/// - Chinese, Japanese and Korean: a run of Han, kana or Hangul characters gives its character
///   bigrams (`東京都` is `東京`, `京都`), or the one character of a run of one; no dictionary
///   segmenter is needed, and both sides split alike.
package enum SearchText {
    /// `text` folded: its words keep their characters, other characters are kept too.
    package static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var stripped = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars where scalar.properties.generalCategory != .nonspacingMark {
            stripped.append(scalar)
        }
        let lower = String(stripped).nfcLowercased
        return lower.unicodeScalars.contains("ς") ? lower.replacing("ς", with: "σ") : lower
    }

    /// The folded words of `text`, in order; Chinese, Japanese and Korean runs as bigrams.
    package static func tokens(_ text: String) -> [String] {
        if let ascii = asciiTokens(text) { return ascii }
        // Words never cross a space: each stretch between spaces is read on its own, its bytes
        // when they are ASCII, so one accented name does not send a whole caption down the slow path.
        // Split on the bytes (a split by characters breaks graphemes, a tenth of the index's time).
        var tokens: [String] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        func flush(_ end: String.Index) {
            guard start < end else { return }
            let piece = String(text[start..<end])
            tokens += asciiTokens(piece) ?? unicodeTokens(piece)
        }
        for index in utf8.indices where utf8[index] == 0x20 || utf8[index] == 0x0A || utf8[index] == 0x09 {
            flush(index)
            start = utf8.index(after: index)
        }
        flush(utf8.endIndex)
        return tokens
    }

    /// `tokens` scalar by scalar, for text that is not all ASCII.
    static func unicodeTokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = String.UnicodeScalarView()
        var cjk: [Unicode.Scalar] = []
        var pendingApostrophe = false
        func flushWord() {
            if !word.isEmpty { tokens.append(String(word)) }
            word = String.UnicodeScalarView()
            pendingApostrophe = false
        }
        func flushCJK() {
            if cjk.count == 1 {
                tokens.append(String(Character(cjk[0])))
            } else if cjk.count > 1 {
                for index in 0..<(cjk.count - 1) {
                    var pair = String.UnicodeScalarView()
                    pair.append(cjk[index])
                    pair.append(cjk[index + 1])
                    tokens.append(String(pair))
                }
            }
            cjk.removeAll(keepingCapacity: true)
        }
        for scalar in fold(text).unicodeScalars {
            if isCJK(scalar) {
                flushWord()
                cjk.append(scalar)
            } else if isWord(scalar) {
                flushCJK()
                pendingApostrophe = false
                word.append(scalar)
            } else if (scalar == "'" || scalar == "\u{2019}") && !word.isEmpty && !pendingApostrophe {
                // Dropped when a word character follows; otherwise it ends the word.
                pendingApostrophe = true
            } else {
                flushWord()
                flushCJK()
            }
        }
        flushWord()
        flushCJK()
        return tokens
    }

    /// `tokens` on the bytes of ASCII text (nearly every caption and comment of most sites), where
    /// folding is a bit: scalar by scalar, the index of a 120,000-result site took seconds.
    static func asciiTokens(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            var tokens: [String] = []
            var word: [UInt8] = []
            var pendingApostrophe = false
            for byte in bytes {
                if byte >= 0x80 { return nil }
                let lower = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
                if (lower >= 97 && lower <= 122) || (lower >= 48 && lower <= 57) || lower == 95 {
                    pendingApostrophe = false
                    word.append(lower)
                } else if lower == 39 && !word.isEmpty && !pendingApostrophe {
                    pendingApostrophe = true
                } else {
                    if !word.isEmpty { tokens.append(String(decoding: word, as: UTF8.self)) }
                    word.removeAll(keepingCapacity: true)
                    pendingApostrophe = false
                }
            }
            if !word.isEmpty { tokens.append(String(decoding: word, as: UTF8.self)) }
            return tokens
        }
    }

    /// Letters, marks, numbers and `_`: what a word is made of.
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let v = scalar.value
            return (v >= 48 && v <= 57) || (v >= 97 && v <= 122) || (v >= 65 && v <= 90) || v == 95
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark,
            .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Han, Hiragana, Katakana and Hangul, by the blocks `search.js` names too.
    package static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (0x1100...0x11FF).contains(v) || (0x2E80...0x2FDF).contains(v) || v == 0x3005 || v == 0x3007
            || (0x3021...0x3029).contains(v) || (0x3041...0x309F).contains(v) || (0x30A0...0x30FF).contains(v)
            || (0x3130...0x318F).contains(v) || (0x31F0...0x31FF).contains(v) || (0x3400...0x4DBF).contains(v)
            || (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7AF).contains(v) || (0xF900...0xFAFF).contains(v)
            || (0xFF66...0xFF9F).contains(v) || (0x20000...0x3134F).contains(v)
    }

    /// 32-bit FNV-1a of the UTF-8 bytes: which file of the index holds a word. `search.js`
    /// computes the same with `Math.imul`.
    package static func hash(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }

    /// The group a word's entry in the lexicon is filed under: its first two characters (the
    /// first alone for a one-character word), so that every word a prefix begins is in one file.
    package static func group(_ term: String) -> String {
        String(term.unicodeScalars.prefix(2).map(Character.init))
    }
}
