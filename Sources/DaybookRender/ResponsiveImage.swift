/// What the build made of one local photo (CONTRACT §7), as plain values: the renderer draws
/// `srcset`, `width`/`height` and the placeholder from it without knowing how it was made, so
/// DaybookRender never depends on the image library.
package struct ResponsiveImage: Sendable, Hashable {
    /// One published file: its path inside the output folder and its pixel size.
    package struct Copy: Sendable, Hashable {
        package var path: String
        package var width: Int
        package var height: Int

        package init(path: String, width: Int, height: Int) {
            self.path = path
            self.width = width
            self.height = height
        }
    }

    /// The upright size: EXIF orientation applied.
    package var size: ImageSize
    /// The `srcset` candidates, narrowest first.
    package var copies: [Copy]
    /// The square thumbnail for grids.
    package var thumbnail: Copy?
    /// `#rrggbb`, the background shown while the photo loads.
    package var dominantColor: String?
    /// A copy made for link previews alone, when no candidate is as wide as they want.
    package var share: Copy?

    package init(size: ImageSize, copies: [Copy], thumbnail: Copy?, dominantColor: String?, share: Copy? = nil) {
        self.size = size
        self.copies = copies
        self.thumbnail = thumbnail
        self.dominantColor = dominantColor
        self.share = share
    }

    /// The copy a link preview names (CONTRACT §12): the narrowest at least `width` wide, else
    /// the widest there is.
    package func linkPreviewCopy(atLeast width: Int) -> Copy? {
        share.flatMap { $0.width >= width ? $0 : nil } ?? copy(atLeast: width)
    }

    /// The copy `src` names: the widest no wider than `preferred`, else the narrowest.
    package func copy(preferring preferred: Int) -> Copy? {
        copies.last { $0.width <= preferred } ?? copies.first
    }

    /// The smallest copy at least `width` wide (for avatars), else the widest there is.
    package func copy(atLeast width: Int) -> Copy? {
        copies.first { $0.width >= width } ?? copies.last
    }
}
