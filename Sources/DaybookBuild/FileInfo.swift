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

    /// Paths, relative to `folder`, of the regular files below it; hidden entries are skipped.
    /// Empty when the folder does not exist.
    public static func regularFiles(under folder: String) -> [String] {
        var paths: [String] = []
        walk(folder, prefix: "", into: &paths)
        return paths
    }

    /// Lists regular files with readdir: FileManager's enumerator with resource values costs about
    /// 0.2 ms a file, which on a 30,000-page site is most of a check. Hidden entries are skipped.
    private static func walk(_ folder: String, prefix: String, into paths: inout [String]) {
        guard let stream = opendir(folder) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard !name.hasPrefix(".") else { continue }
            let full = folder + "/" + name
            var kind = entry.pointee.d_type
            if kind == UInt8(DT_UNKNOWN) || kind == UInt8(DT_LNK) {
                var info = stat()
                guard stat(full, &info) == 0 else { continue }
                kind = (info.st_mode & S_IFMT) == S_IFDIR ? UInt8(DT_DIR) : (info.st_mode & S_IFMT) == S_IFREG ? UInt8(DT_REG) : 0
            }
            if kind == UInt8(DT_DIR) {
                walk(full, prefix: prefix + name + "/", into: &paths)
            } else if kind == UInt8(DT_REG) {
                paths.append(prefix + name)
            }
        }
    }
}
