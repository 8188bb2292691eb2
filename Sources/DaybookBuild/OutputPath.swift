/// The rules every path below the output folder obeys, whether the build planned it or read it
/// back from an earlier build's record: a plain relative path that cannot leave the folder, and
/// short enough for the file system, checked before anything is written.
package enum OutputPath {
    /// `NAME_MAX` on Linux and macOS: bytes in one file or folder name.
    package static let maxNameBytes = 255
    /// `PATH_MAX` less its NUL: bytes in a whole path handed to the kernel.
    package static let maxPathBytes = 4095

    /// Whether `path` is relative and plain: no empty, `.` or `..` names, no NUL, no leading `/`.
    /// Nothing else is needed to keep it inside its folder, because no link below the folder is followed.
    package static func isPlain(_ path: String) -> Bool { longestName(path) != nil }

    /// The byte length of the longest name in a plain path; `nil` when the path is not plain.
    /// One pass over the bytes: every output path is checked before every build.
    static func longestName(_ path: String) -> Int? { longestName(bytes: path.utf8) }

    /// The same, of a path's bytes (a record's line, read without a string made of it).
    static func longestName(bytes path: some Sequence<UInt8>) -> Int? {
        var longest = 0
        var start = 0
        var dots = 0
        var index = 0
        func nameEnds() -> Bool {
            let length = index - start
            // An empty name, "." or "..".
            if length == 0 || (dots == length && length <= 2) { return false }
            longest = max(longest, length)
            return true
        }
        for byte in path {
            if byte == 0 { return nil }
            if byte == UInt8(ascii: "/") {
                guard nameEnds() else { return nil }
                start = index + 1
                dots = 0
            } else if byte == UInt8(ascii: ".") {
                dots += 1
            }
            index += 1
        }
        return nameEnds() ? longest : nil
    }

    /// The first rule `path` breaks, below a folder whose absolute path is `rootBytes` long.
    package static func problem(_ path: String, rootBytes: Int) -> OutputError.Reason? {
        guard let longest = longestName(path) else { return .unsafePath }
        if longest > maxNameBytes {
            // The first name over the limit, as a reader finds it.
            let name = path.split(separator: "/").first { $0.utf8.count > maxNameBytes }!
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
