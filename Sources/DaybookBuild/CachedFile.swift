import DaybookImages
import Foundation

/// A file to publish whose bytes sit in the image cache, with the hash and size the output
/// record keeps for it.
///
/// A photo's copies and stripped original weigh megabytes; reading them back from the cache on
/// every build only to find the output already holds them would cost more than the rest of a
/// rebuild. The writer reads them only when the output does not hold these exact bytes.
package struct CachedFile: Sendable, Hashable {
    /// Relative to the output folder.
    package var path: String
    /// In `<site>/.daybook-cache/images`.
    package var source: String
    package var size: Int
    /// `StableHash.of` the bytes, as the cache recorded them when it made the file.
    package var hash: UInt64

    /// The bytes, read without following links; `nil` when the cache file is gone or has another size.
    func contents() -> [UInt8]? {
        ImageCache.contents(atPath: source, byteCount: size)
    }
}
