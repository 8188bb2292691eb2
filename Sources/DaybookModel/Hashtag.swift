import Foundation

/// A piece of a caption or comment: plain text, a `#hashtag` or an `@mention`.
public enum TextToken: Sendable, Hashable {
    case text(String)
    /// `written` is the text as it stands, with `#`; `tag` is its normal form.
    case hashtag(written: String, tag: String)
    /// `written` is the text with `@`; `userID` is what follows it, exactly as written.
    case mention(written: String, userID: String)
}

/// Hashtag and mention rules of CONTRACT §2, in one scanner so captions and comments agree.
public enum Hashtag {
    /// The normal form of a tag: NFC lower case. `nil` when it is not one tag
    /// (empty, no letter, or holding a non-word character), so a bad `tags` entry can be reported.
    public static func normalise(_ raw: String) -> String? {
        let scalars = raw.precomposedOrSelf.unicodeScalars
        guard !scalars.isEmpty, scalars.allSatisfy(WordCharacter.isWord), scalars.contains(where: WordCharacter.isLetter)
        else { return nil }
        return raw.nfcLowercased
    }

    /// The distinct tags of a text in order of first appearance.
    public static func tags(in text: String) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for case .hashtag(_, let tag) in tokens(in: text) where seen.insert(tag).inserted {
            result.append(tag)
        }
        return result
    }

    /// Splits a text into plain runs, hashtags and mentions. O(n) in scalars.
    public static func tokens(in text: String) -> [TextToken] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [TextToken] = []
        var plainStart = 0
        var i = 0
        func flushPlain(upTo end: Int) {
            if end > plainStart { tokens.append(.text(String(String.UnicodeScalarView(scalars[plainStart..<end])))) }
        }
        while i < scalars.count {
            let c = scalars[i]
            let atBoundary = i == 0 || !WordCharacter.isWord(scalars[i - 1])
            if c == "#" && atBoundary {
                var j = i + 1
                var hasLetter = false
                while j < scalars.count, WordCharacter.isWord(scalars[j]) {
                    if WordCharacter.isLetter(scalars[j]) { hasLetter = true }
                    j += 1
                }
                if j > i + 1 && hasLetter {
                    flushPlain(upTo: i)
                    let written = String(String.UnicodeScalarView(scalars[i..<j]))
                    let tag = String(String.UnicodeScalarView(scalars[(i + 1)..<j])).nfcLowercased
                    tokens.append(.hashtag(written: written, tag: tag))
                    i = j
                    plainStart = j
                    continue
                }
            } else if c == "@" && atBoundary {
                var j = i + 1
                while j < scalars.count, WordCharacter.isWord(scalars[j]) || scalars[j] == "." || scalars[j] == "-" {
                    j += 1
                }
                // CONTRACT §2: less any `.` and `-` at its end.
                while j > i + 1, scalars[j - 1] == "." || scalars[j - 1] == "-" { j -= 1 }
                if j > i + 1 {
                    flushPlain(upTo: i)
                    let written = String(String.UnicodeScalarView(scalars[i..<j]))
                    let id = String(String.UnicodeScalarView(scalars[(i + 1)..<j]))
                    tokens.append(.mention(written: written, userID: id))
                    i = j
                    plainStart = j
                    continue
                }
            }
            i += 1
        }
        flushPlain(upTo: scalars.count)
        return tokens
    }
}

extension String {
    var precomposedOrSelf: String {
        utf8.allSatisfy({ $0 < 128 }) ? self : precomposedStringWithCanonicalMapping
    }
}
