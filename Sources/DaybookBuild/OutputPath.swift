/// The rules every path below the output folder obeys, whether the build planned it or read it
/// back from an earlier build's record: a plain relative path that cannot leave the folder, and
/// short enough for the file system, checked before anything is written.
public enum OutputPath {
    /// `NAME_MAX` on Linux and macOS: bytes in one file or folder name.
    public static let maxNameBytes = 255
    /// `PATH_MAX` less its NUL: bytes in a whole path handed to the kernel.
    public static let maxPathBytes = 4095

    /// Whether `path` is relative and plain: no empty, `.` or `..` names, no NUL, no leading `/`.
    /// Nothing else is needed to keep it inside its folder, because no link below the folder is followed.
    public static func isPlain(_ path: String) -> Bool {
        guard !path.isEmpty, !path.utf8.contains(0) else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != "" && $0 != "." && $0 != ".." }
    }

    /// The first rule `path` breaks, below a folder whose absolute path is `rootBytes` long.
    public static func problem(_ path: String, rootBytes: Int) -> OutputError.Reason? {
        guard isPlain(path) else { return .unsafePath }
        for name in path.split(separator: "/") where name.utf8.count > maxNameBytes {
            return .nameTooLong(bytes: name.utf8.count)
        }
        let total = rootBytes + 1 + path.utf8.count
        return total > maxPathBytes ? .pathTooLong(bytes: total) : nil
    }

    /// `a/b/c` → `["a", "a/b"]`: the folders the path goes through, outermost first.
    static func folders(of path: String) -> [String] {
        var result: [String] = []
        var index = path.startIndex
        while let slash = path[index...].firstIndex(of: "/") {
            result.append(String(path[..<slash]))
            index = path.index(after: slash)
        }
        return result
    }
}
