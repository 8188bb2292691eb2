/// The entries of the folders a check listed, each with the folder's status when it was read: a
/// folder whose status has not changed since (adding, removing or renaming an entry changes its
/// modification time) is not read again. After a one-post edit, listing the 33,000 folders of a
/// 32,000-page site was a fifth of `daybook check`; asking each folder's status is a fraction of it.
///
/// A folder holding a symbolic link is never kept: what a link names can change without its folder
/// changing.
public struct FolderListings: Sendable, Equatable {
    public struct Folder: Sendable, Equatable {
        public var status: FileStatus
        /// Names of the regular files (links to them included, in folders not kept).
        public var files: [String]
        /// Names of the subfolders.
        public var folders: [String]

        public init(status: FileStatus, files: [String], folders: [String]) {
            (self.status, self.files, self.folders) = (status, files, folders)
        }
    }

    /// When the statuses were taken (nanoseconds since 1970): a folder changed within the racy
    /// window before it is read again.
    public var listedAt: Int64
    /// By path relative to the listed root, the root itself as "".
    public var folders: [String: Folder]

    public init(listedAt: Int64 = 0, folders: [String: Folder] = [:]) {
        (self.listedAt, self.folders) = (listedAt, folders)
    }

    /// The folder's entries when its status is the stored one and was settled when stored.
    public func entries(_ path: String, status: FileStatus) -> Folder? {
        guard let folder = folders[path], folder.status == status, status.isSettled(before: listedAt) else { return nil }
        return folder
    }

    /// Whether the next listing could trust every folder: none changed within the racy window.
    public var allSettled: Bool { folders.values.allSatisfy { $0.status.isSettled(before: listedAt) } }
}
