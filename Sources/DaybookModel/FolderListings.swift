/// The entries of one folder: what a listing keeps of it (`FolderListings`).
package struct FolderEntries: Sendable, Equatable {
    /// Names of the regular files (links to them included, in folders not kept).
    package var files: [String]
    /// Names of the subfolders.
    package var folders: [String]

    package init(files: [String], folders: [String]) { (self.files, self.folders) = (files, folders) }
}

/// The entries of the folders a check listed, by path relative to the listed root (the root
/// itself as ""), each with the folder's status when it was read: a folder whose status has not
/// changed since (adding, removing or renaming an entry changes its modification time) is not
/// read again. After a one-post edit, listing the 33,000 folders of a 32,000-page site was a fifth
/// of `daybook check`; asking each folder's status is a fraction of it.
///
/// A folder holding a symbolic link is never kept: what a link names can change without its folder
/// changing.
package typealias FolderListings = StatusMemo<FolderEntries>
