import DaybookMarkdown
import DaybookModel
import DaybookParallel

/// The link and image targets of each Markdown text the site shows (prompt bodies, responses,
/// bios), through the memo: a text is parsed by libcmark only the first time it is seen (4 MB of
/// text on the bench site, a tenth of a caption edit's CPU), since its targets depend on its text
/// alone. Which of them the site drops depends on its files, and the core judges that again every
/// build (`PageBuilder.drops`).
///
/// Kept as `markdown.targets`: each text's targets under a hash of the text (its id and its version).
package enum MarkdownStep {
    static let targets = MemoStep("markdown.targets")

    /// Each text's targets, by text.
    package static func targets(of texts: [String], memo: inout MemoTable) -> [String: [String]] {
        let table = memo
        let found = Parallel.mapBlocking(Array(Set(texts))) { text -> (text: String, id: UInt64, targets: [String], made: Bool) in
            let id = Self.id(of: text)
            if let kept = table.value(targets, id, version: id).flatMap(decode) { return (text, id, kept, false) }
            return (text, id, Markdown.targets(in: text), true)
        }
        var byText: [String: [String]] = [:]
        byText.reserveCapacity(found.count)
        for entry in found {
            byText[entry.text] = entry.targets
            if entry.made { memo.store(targets, entry.id, version: entry.id, value: encode(entry.targets)) }
        }
        // A text no longer shown leaves with its targets.
        memo.retain(targets, ids: Set(found.map(\.id)))
        return byText
    }

    /// A text's id and version: a hash of the text.
    static func id(of text: String) -> UInt64 { MemoStep.id(text) }

    static func encode(_ targets: [String]) -> [UInt8] {
        var writer = MemoWriter()
        writer.count(targets.count)
        for target in targets { writer.string(target) }
        return writer.bytes
    }

    static func decode(_ bytes: ArraySlice<UInt8>) -> [String]? {
        var reader = MemoReader(bytes)
        guard let targets = reader.elements({ $0.string() }), reader.atEnd else { return nil }
        return targets
    }
}
