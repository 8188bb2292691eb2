import DaybookModel
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What `stat(2)` says of a path: cheaper than FileManager's attribute dictionaries, which matters
/// when the writer and the preview server ask about thousands of files.
public enum FileInfo {
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Size and modification time of a regular file; `nil` for anything else.
    public static func regularFile(_ path: String) -> (size: Int, modified: Instant)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int(info.st_size), Instant(secondsSince1970: Double(info.st_mtim.tv_sec)))
    }
}
