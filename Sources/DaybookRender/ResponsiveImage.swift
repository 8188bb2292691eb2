/// What the build made of one local photo (CONTRACT §7), as plain values: the renderer draws
/// `srcset`, `width`/`height` and the placeholder from it without knowing how it was made, so
/// DaybookRender never depends on the image library.
public struct ResponsiveImage: Sendable, Hashable {
    /// One published file: its path inside the output folder and its pixel size.
    public struct Copy: Sendable, Hashable {
        public var path: String
        public var width: Int
        public var height: Int

        public init(path: String, width: Int, height: Int) {
            self.path = path
            self.width = width
            self.height = height
        }
    }

    /// The upright size: EXIF orientation applied.
    public var size: ImageSize
    /// The `srcset` candidates, narrowest first.
    public var copies: [Copy]
    /// The square thumbnail for grids.
    public var thumbnail: Copy?
    /// `#rrggbb`, the background shown while the photo loads.
    public var dominantColor: String?

    public init(size: ImageSize, copies: [Copy], thumbnail: Copy?, dominantColor: String?) {
        self.size = size
        self.copies = copies
        self.thumbnail = thumbnail
        self.dominantColor = dominantColor
    }

    /// The copy `src` names: the widest no wider than `preferred`, else the narrowest.
    public func copy(preferring preferred: Int) -> Copy? {
        copies.last { $0.width <= preferred } ?? copies.first
    }

    /// The smallest copy at least `width` wide (for avatars), else the widest there is.
    public func copy(atLeast width: Int) -> Copy? {
        copies.first { $0.width >= width } ?? copies.last
    }
}
