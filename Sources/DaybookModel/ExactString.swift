/// A string equal to another only when its bytes are, and hashed by its bytes.
///
/// Ids are told apart as a browser does and paths as a server's file system does: `#café`
/// written decomposed reaches no `id="café"` written composed, and `/café/` written decomposed no
/// folder named composed. A `String` key compares by canonical equivalence, and hashes as
/// Unicode, normalising every non-ASCII string on the way. `daybook check` and the build's rule
/// for Markdown links (`MarkdownLinks`) both use this, so that a link the build keeps is one
/// `check` finds.
package struct ExactString: Hashable, Sendable {
    package let text: String

    package init(_ text: String) { self.text = text }

    package static func == (a: Self, b: Self) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension ExactString: ExpressibleByStringLiteral {
    package init(stringLiteral text: String) { self.init(text) }
}
