import Foundation

/// Writes to one descriptor gathered into 1 MiB calls, keeping the first error: cache files come
/// as many small pieces (the page facts as two per page: 70,000 write calls for a 32,000-page
/// site, one each), and a piece of a MiB or more is written where it is, never copied into the
/// buffer (a large site's comments file is one 90 MB memo value).
struct GatheredWrites {
    static let bufferBytes = 1 << 20

    let descriptor: Int32
    /// The `errno` of the first write that failed; nothing is written after it.
    private(set) var failed: Int32?
    /// Pieces put since the last write call.
    private(set) var buffer: [UInt8] = []

    init(descriptor: Int32, failed: Int32? = nil) {
        self.descriptor = descriptor
        self.failed = failed
        buffer.reserveCapacity(Self.bufferBytes)
    }

    mutating func put(_ piece: ArraySlice<UInt8>) {
        if buffer.count + piece.count > Self.bufferBytes { flush() }
        if piece.count >= Self.bufferBytes {
            if failed == nil { failed = FileInfo.writeAll(piece, to: descriptor) }
        } else {
            buffer += piece
        }
    }

    mutating func flush() {
        if failed == nil && !buffer.isEmpty { failed = FileInfo.writeAll(buffer[...], to: descriptor) }
        buffer.removeAll(keepingCapacity: true)
    }
}
