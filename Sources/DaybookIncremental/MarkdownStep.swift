import DaybookMarkdown
import DaybookModel
import DaybookParallel
import DaybookRender

/// The link and image targets of each Markdown text the site shows (prompt bodies, responses,
/// bios), through the memo: a text is parsed by libcmark only the first time it is seen (4 MB of
/// text on the bench site, a tenth of a caption edit's CPU), since its targets depend on its text
/// alone. Which of them the site drops depends on its files, and the core judges that again every
/// build (`PageBuilder.drops`).
///
/// Kept as `markdown.targets`: each text's targets under a hash of the text (its id and its version).
package enum MarkdownStep {
    static let targets = MemoStep("markdown.targets")

    /// The targets of each text that has any, by the text's key (`RenderInput.textKey`, also its
    /// id here): most texts link nothing, and the page builder judges only what this holds.
    package static func targets(of texts: [String], memo: inout MemoTable) -> [UInt64: [String]] {
        let table = memo
        var seen = Set<UInt64>()
        seen.reserveCapacity(texts.count)
        var distinct: [(id: UInt64, text: String)] = []
        for (id, text) in zip(Parallel.mapBlocking(texts, Self.id(of:)), texts) where seen.insert(id).inserted {
            distinct.append((id, text))
        }
        let found = Parallel.mapBlocking(distinct) { id, text -> (id: UInt64, targets: [String], made: Bool) in
            if let kept = table.value(targets, id, version: id).flatMap(decode) { return (id, kept, false) }
            return (id, Markdown.targets(in: text), true)
        }
        var byKey: [UInt64: [String]] = [:]
        for entry in found {
            if !entry.targets.isEmpty { byKey[entry.id] = entry.targets }
            if entry.made { memo.store(targets, entry.id, version: entry.id, value: encode(entry.targets)) }
        }
        // A text no longer shown leaves with its targets.
        memo.retain(targets, ids: seen)
        return byKey
    }

    /// A text's id and version: its key, a hash of the text.
    static func id(of text: String) -> UInt64 { RenderInput.textKey(text) }

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
