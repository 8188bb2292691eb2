import DaybookContent
import DaybookModel

/// The files under `content/` that are not content sources (images and anything else), to copy
/// into the output at the same relative path, whether or not an item names them (CONTRACT §2).
///
/// The fields that name images are checked where they stand, by the content loader; links that lead
/// out of the site are never listed here.
struct ImageCollector {
    /// Paths relative to `content/`, which is also where they land in the output. Sorted.
    let paths: [String]

    init(snapshot: ContentSnapshot) {
        paths = snapshot.assets.map { String($0.dropFirst("content/".count)) }.sorted { $0.scalarsPrecede($1) }
    }
}
