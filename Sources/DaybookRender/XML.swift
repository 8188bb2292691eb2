import DaybookModel

/// Escaping for XML text and attribute values (feeds and the sitemap).
enum XML {
    /// On bytes, as `HTML.escape`: scalar by scalar, escaping the feeds was 2% of a full build.
    static func escape(_ text: String) -> String { MarkupEscaping.xml.escape(text) }
}
