/// A file's status as `stat(2)` gives it: what tells, without reading a file, that its bytes are
/// the ones read before (as git's index does). Any write changes the size or the change time,
/// which no program can set back; a write within the file system's timestamp granularity of the
/// read is caught by treating recent files as unknown (`isSettled`).
///
/// Public, with `StatusMemo`, so that comparing statuses inlines across modules (`ByteReader`).
public struct FileStatus: Sendable, Hashable {
    public var size: Int64
    public var modified: Int64
    public var changed: Int64
    public var inode: UInt64
    public var device: UInt64

    @inlinable public init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, device: UInt64) {
        (self.size, self.modified, self.changed, self.inode, self.device) = (size, modified, changed, inode, device)
    }

    /// Two seconds: coarser than any file system's timestamps but FAT's, and than the kernel's tick.
    public static let racyWindow: Int64 = 2_000_000_000

    /// Whether the file was last written well before `instant` (nanoseconds since 1970), so that a
    /// later write within the same timestamp cannot hide behind this status ("racy" files, as git
    /// calls them, are read again instead).
    /// - Parameter window: how long before `instant` counts as recent (tests pass 0).
    @inlinable public func isSettled(before instant: Int64, window: Int64 = racyWindow) -> Bool {
        modified < instant - window && changed < instant - window
    }
}
