/// Values worked out from files (a file's bytes or content key, a folder's entries), each with the
/// file's status when it was worked out: while the status is unchanged the value still holds, so
/// the file is not read again, as git's index does.
///
/// Public and inlinable, where the rest of Daybook is `package` (`ByteReader` says why):
/// unspecialized across modules, each `set` and `value` looked up the generic dictionary's type
/// at run time, a tenth of `daybook check`'s CPU after an edit.
///
/// One rule for all of them: an entry is trusted only if its file had not changed within
/// `FileStatus.racyWindow` before `takenAt`, since a second write within the file system's
/// timestamp granularity could leave the status as it was.
public struct StatusMemo<Value: Sendable>: Sendable {
    public struct Entry: Sendable {
        public var status: FileStatus
        public var value: Value

        @inlinable public init(status: FileStatus, value: Value) { (self.status, self.value) = (status, value) }
    }

    /// When the statuses were taken (nanoseconds since 1970).
    public var takenAt: Int64
    /// By path; what a path means (relative to what) is the owner's.
    public var entries: [String: Entry]

    @inlinable public init(takenAt: Int64 = 0, entries: [String: Entry] = [:]) { (self.takenAt, self.entries) = (takenAt, entries) }

    /// The value stored for `path` when `status` is the stored one and was settled when stored.
    @inlinable public func value(_ path: String, status: FileStatus) -> Value? { entries[path].flatMap { value(of: $0, status: status) } }

    /// The entry's value when `status` is its stored one and was settled when stored: for a caller
    /// that looks the entry up first (`entries[path]`) and takes the file's status only when there
    /// is one.
    @inlinable public func value(of entry: Entry, status: FileStatus) -> Value? {
        entry.status == status && status.isSettled(before: takenAt) ? entry.value : nil
    }

    @inlinable public mutating func set(_ path: String, status: FileStatus, value: Value) { entries[path] = Entry(status: status, value: value) }

    /// Whether the next run could trust every entry: none changed within the racy window.
    package var allSettled: Bool { entries.values.allSatisfy { $0.status.isSettled(before: takenAt) } }
}

extension StatusMemo.Entry: Equatable where Value: Equatable {}
extension StatusMemo: Equatable where Value: Equatable {}
