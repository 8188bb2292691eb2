import Foundation

/// Why `--output` names a folder the build must not own.
///
/// The build removes files it wrote earlier and no longer produces, and its record of them lives
/// in the output folder: pointed at the site itself, its sources or a folder above them, a
/// careless `--output` would mix the site into its own sources, or worse.
package enum OutputFolderProblem: Error, Sendable, Hashable {
    /// `/`.
    case fileSystemRoot
    /// The site folder itself.
    case siteFolder(String)
    /// A folder that holds the site folder.
    case holdsSite(String)
    /// `content/`, `Templates/` or `.daybook-cache/`, or a folder inside one of them.
    case insideSources(String)

    package var message: String {
        let advice = "choose a folder of its own, such as the default <site>/output"
        switch self {
        case .fileSystemRoot:
            return "the output folder cannot be /, the root of the file system: \(advice)"
        case .siteFolder(let path):
            return "the output folder cannot be the site folder itself (\(path)): \(advice)"
        case .holdsSite(let path):
            return "the output folder cannot be \(path), which holds the site folder: \(advice)"
        case .insideSources(let folder):
            return "the output folder cannot be in the site's \(folder) folder: \(advice)"
        }
    }
}

extension BuildOptions {
    /// The output folder as diagnostics name it: its path from the site folder (`output`, `pub`),
    /// as CONTRACT §6 names every path, or its whole path when it lies elsewhere.
    package var outputLabel: String {
        let site = siteDirectory.standardizedFileURL.path
        let output = outputDirectory.standardizedFileURL.path
        guard output.hasPrefix(site.hasSuffix("/") ? site : site + "/") else { return output }
        return String(output.dropFirst(site.hasSuffix("/") ? site.count : site.count + 1))
    }

    /// Why the output folder may not be used, before anything is read or written; `nil` when it may.
    /// Compared by real path, so `..` and links to the site count as what they point at.
    package var outputFolderProblem: OutputFolderProblem? {
        let output = Self.realPath(outputDirectory)
        let site = Self.realPath(siteDirectory)
        if output == "/" { return .fileSystemRoot }
        if output == site { return .siteFolder(outputDirectory.path) }
        if site.hasPrefix(output + "/") { return .holdsSite(outputDirectory.path) }
        for folder in ["content", "Templates", ".daybook-cache"] {
            let source = site + "/" + folder
            if output == source || output.hasPrefix(source + "/") { return .insideSources(folder + "/") }
        }
        return nil
    }

    /// The absolute path with links resolved as far as the path exists, and the rest appended.
    static func realPath(_ url: URL) -> String {
        var existing = url.standardizedFileURL.path
        var rest: [String] = []
        while existing != "/" && !existing.isEmpty {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                existing = String(cString: resolved)
                break
            }
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        let joined = ([existing == "/" ? "" : existing] + rest).joined(separator: "/")
        return joined.isEmpty ? "/" : joined
    }
}
