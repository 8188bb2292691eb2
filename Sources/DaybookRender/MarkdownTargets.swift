import DaybookMarkdown
import DaybookModel

/// The link and image targets of each Markdown text a site shows (prompt bodies, responses,
/// bios), by a hash of the text, kept from one `daybook build` to the next.
///
/// Finding them takes a libcmark parse of every text (4 MB on the bench site, a tenth of a
/// caption edit's CPU), yet they depend on the text alone. Which of them the site drops depends
/// on its files, so that is worked out again every build (`Markdown.dropped`); only the parse is
/// saved. A text is known by `StableHash`, as a content file is in the record cache.
public struct MarkdownTargets: Sendable, Equatable {
    public static let magic = Array("daybook-markdown-targets-1\n".utf8)

    var byText: [UInt64: [String]] = [:]

    public init() {}

    static func key(_ text: String) -> UInt64 {
        var hash = StableHash()
        hash.combine(text)
        return hash.value
    }

    /// Sorted by key, so the same targets make the same bytes.
    public var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.bytes = Self.magic
        writer.uint32(UInt32(byText.count))
        for (key, targets) in byText.sorted(by: { $0.key < $1.key }) {
            writer.uint64(key)
            writer.uint32(UInt32(targets.count))
            targets.forEach { writer.string($0) }
        }
        return writer.bytes
    }

    /// `nil` for bytes this type did not write: another magic, a damaged count, a key twice, or
    /// anything after the last entry.
    public init?(bytes: ArraySlice<UInt8>) {
        guard bytes.starts(with: Self.magic) else { return nil }
        var reader = ByteReader(bytes, at: bytes.startIndex + Self.magic.count)
        // An entry is at least a key and a count.
        guard let entries = ByteReader.elements(reader.listCount(minimumBytes: 12), {
            () -> (UInt64, [String])? in
            guard let key = reader.uint64(), let targets = ByteReader.elements(reader.listCount(minimumBytes: 8), { reader.string() })
            else { return nil }
            return (key, targets)
        }), reader.atEnd
        else { return nil }
        var byText: [UInt64: [String]] = [:]
        byText.reserveCapacity(entries.count)
        for (key, targets) in entries {
            guard byText.updateValue(targets, forKey: key) == nil else { return nil }
        }
        self.byText = byText
    }
}
