/// The icons made from `icon` in site.yml (issue 41): which sizes, what each is for, and where
/// it is published. One table, read by the image pipeline that makes them and by the pages that
/// link them, so the two cannot disagree.
package enum SiteIcon {
    package struct Size: Sendable, Hashable {
        /// Width and height in pixels: icons are square.
        package var side: Int
        /// The `<link rel>` that names it.
        package var relation: String
    }

    /// A tab's icon, Apple's touch icon (iOS asks for 180 px) and Android's home-screen icon.
    package static let sizes = [
        Size(side: 32, relation: "icon"), Size(side: 180, relation: "apple-touch-icon"), Size(side: 192, relation: "icon"),
    ]

    /// Where the icon `side` pixels square made from `source` (a path under `content/`) is
    /// published: beside it, named by its size, as a photo's copies are (`images/me.jpg` →
    /// `images/me.180x180.png`). Always PNG: Apple's touch icon is read only as PNG.
    package static func path(of source: String, side: Int) -> String {
        let slash = source.lastIndex(of: "/").map { source.index(after: $0) } ?? source.startIndex
        let stem = source[slash...].lastIndex(of: ".").flatMap { $0 > slash ? source[..<$0] : nil } ?? source[...]
        return "\(stem).\(side)x\(side).png"
    }
}
