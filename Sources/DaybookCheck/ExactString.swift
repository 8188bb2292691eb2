/// A string equal to another only when its bytes are, and hashed by its bytes.
///
/// `daybook check` tells ids apart as a browser does and paths as a server's file system does:
/// `#café` written decomposed reaches no `id="café"` written composed, and `/café/` written
/// decomposed no folder named composed. A `String` key compares by canonical equivalence, and
/// hashes as Unicode, normalising every non-ASCII string on the way.
struct ExactString: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (a: Self, b: Self) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
