import Foundation

/// A piece of a caption or comment: plain text, a `#hashtag` or an `@mention`.
package enum TextToken: Sendable, Hashable {
    case text(String)
    /// `written` is the text as it stands, with `#`; `tag` is its normal form.
    case hashtag(written: String, tag: String)
    /// `written` is the text with `@`; `userID` is what follows it, exactly as written.
    case mention(written: String, userID: String)
}

/// Hashtag and mention rules of CONTRACT §2, in one scanner so captions and comments agree.
package enum Hashtag {
    /// The normal form of a tag: NFC lower case. `nil` when it is not one tag
    /// (empty, no letter, or holding a non-word character), so a bad `tags` entry can be reported.
    package static func normalise(_ raw: String) -> String? {
        let scalars = raw.precomposedOrSelf.unicodeScalars
        guard !scalars.isEmpty, scalars.allSatisfy(WordCharacter.isWord), scalars.contains(where: WordCharacter.isLetter)
        else { return nil }
        return raw.nfcLowercased
    }

    /// The distinct tags of a text in order of first appearance.
    package static func tags(in text: String) -> [String] {
        var text = text
        if let tags = text.withUTF8(asciiTags) { return tags }
        var result = DistinctTags()
        for case .hashtag(_, let tag) in tokens(in: text) { result.insert(tag) }
        return result.tags
    }

    /// `tags(in:)` read on UTF-8 bytes, by the rules of `tokens(in:)`, without making the plain
    /// runs and mentions it would throw away: every post's hashtags are read once per build, and
    /// tokenising 20,000 captions was a third of ordering the feeds in a one-post rebuild. `nil`
    /// when a non-ASCII scalar stands where the rules ask whether it is a word character (before
    /// a `#` or `@`, or after one): the scalar scanner then decides. Elsewhere (an emoji ending a
    /// caption) it is plain text, as for the scanner.
    private static func asciiTags(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        let (hash, at) = (UInt8(ascii: "#"), UInt8(ascii: "@"))
        guard bytes.contains(hash) else { return [] }
        func isWord(_ byte: UInt8) -> Bool { isLetter(byte) || (byte >= 48 && byte <= 57) || byte == 95 }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }
        var result = DistinctTags()
        // As in `tokens(in:)`: the byte before `i`, and whether a token ends at `i`.
        var previous: UInt8?
        var tokenEndsHere = false
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if (c == hash || c == at) && !tokenEndsHere {
                if let previous, previous >= 0x80 { return nil }
                if !(previous.map(isWord) ?? false) {
                    var j = i + 1
                    var hasLetter = false
                    var lastKept = j
                    while j < bytes.count {
                        let s = bytes[j]
                        if s >= 0x80 { return nil }
                        if isWord(s) {
                            if isLetter(s) { hasLetter = true }
                            j += 1
                            lastKept = j
                        } else if c == at && (s == UInt8(ascii: ".") || s == UInt8(ascii: "-")) {
                            j += 1
                        } else {
                            break
                        }
                    }
                    let (start, end) = (i + 1, lastKept)
                    if end > start && (c == at || hasLetter) {
                        if c == hash {
                            result.insert(String(unsafeUninitializedCapacity: end - start) { lower in
                                for k in start..<end { lower[k - start] = isLetter(bytes[k]) ? bytes[k] | 0x20 : bytes[k] }
                                return end - start
                            })
                        }
                        i = end
                        tokenEndsHere = true
                        continue
                    }
                }
            }
            tokenEndsHere = false
            previous = c
            i += 1
        }
        return result.tags
    }

    /// Tags in order of first appearance, each once. A post has a handful: they are compared
    /// in a list, and hashed only past a few dozen (a caption is untrusted, and could hold thousands).
    struct DistinctTags {
        private(set) var tags: [String] = []
        private var seen: Set<String>?

        mutating func insert(_ tag: String) {
            if seen == nil && tags.count >= 32 { seen = Set(tags) }
            if seen != nil {
                guard seen!.insert(tag).inserted else { return }
            } else if tags.contains(tag) {
                return
            }
            tags.append(tag)
        }
    }

    /// Splits a text into plain runs, hashtags and mentions. O(n) in scalars; pieces are sliced
    /// out of the text by index rather than copied scalar by scalar, which matters on a 100,000-post site.
    ///
    /// Most comments hold no `#` or `@`: they are one plain run, found by a look at the bytes. Of
    /// the others, only the scalar before a `#` or `@` is asked whether it is a word character.
    package static func tokens(in text: String) -> [TextToken] {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "@") }) else {
            return text.isEmpty ? [] : [.text(text)]
        }
        let scalars = text.unicodeScalars
        var tokens: [TextToken] = []
        var plainStart = scalars.startIndex
        var i = scalars.startIndex
        // The scalar before `i`, and whether a token ends at `i` (which counts as a word before it).
        var previous: Unicode.Scalar?
        var tokenEndsHere = false
        func flushPlain(upTo end: String.UnicodeScalarView.Index) {
            if end > plainStart { tokens.append(.text(String(scalars[plainStart..<end]))) }
        }
        while i < scalars.endIndex {
            let c = scalars[i]
            if (c == "#" || c == "@") && !tokenEndsHere && !(previous.map(WordCharacter.isWord) ?? false) {
                var j = scalars.index(after: i)
                var hasLetter = false
                var lastKept = j
                while j < scalars.endIndex {
                    let s = scalars[j]
                    if WordCharacter.isWord(s) {
                        if WordCharacter.isLetter(s) { hasLetter = true }
                        j = scalars.index(after: j)
                        lastKept = j
                    } else if c == "@" && (s == "." || s == "-") {
                        j = scalars.index(after: j)  // kept only if a word character follows (CONTRACT §2)
                    } else {
                        break
                    }
                }
                let start = scalars.index(after: i)
                let end = lastKept
                if c == "#" && end > start && hasLetter {
                    flushPlain(upTo: i)
                    tokens.append(.hashtag(written: String(scalars[i..<end]), tag: String(scalars[start..<end]).nfcLowercased))
                    i = end
                    plainStart = end
                    tokenEndsHere = true
                    continue
                }
                if c == "@" && end > start {
                    flushPlain(upTo: i)
                    tokens.append(.mention(written: String(scalars[i..<end]), userID: String(scalars[start..<end])))
                    i = end
                    plainStart = end
                    tokenEndsHere = true
                    continue
                }
            }
            tokenEndsHere = false
            previous = c
            i = scalars.index(after: i)
        }
        flushPlain(upTo: scalars.endIndex)
        return tokens
    }
}

extension String {
    var precomposedOrSelf: String {
        utf8.allSatisfy({ $0 < 128 }) ? self : precomposedStringWithCanonicalMapping
    }
}
