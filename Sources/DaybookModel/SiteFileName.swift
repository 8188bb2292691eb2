/// Which names of files and folders in a site a build passes over, in one place: the build's
/// walk, `serve`'s watcher and the check of an image field all ask it.
package enum SiteFileName {
    /// Whether a walk of the site passes over a file or folder of this name: a hidden one
    /// (`.git`, `.DS_Store`, an editor's `.p1.md.swp`), or an editor's leftover beside the file it
    /// edits: a backup (`p1.md~`), a swap file (`p1.md.swp`, `.swx`), or Vim's probe of whether a
    /// folder is writable (`4913`). A backup of a draft is the draft: published as a file, it
    /// leaked it.
    package static func isPassedOver(_ name: some StringProtocol) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx") || name == "4913"
    }
}
