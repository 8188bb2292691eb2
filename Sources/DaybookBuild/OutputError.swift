import DaybookModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a failed write left in the output folder, so that the build says only what is true.
package enum OutputState: Sendable, Hashable {
    /// As it was before the build: nothing was put in place, or all of it was undone.
    case unchanged
    /// This build's whole site and record are in place; a step after them failed.
    case replaced
    /// Part this build's, part the last one's: putting the folder back failed too. The paths
    /// that could not be put back; the build's intent stays, so the next build rewrites them.
    case mixed([String])
}

/// A problem writing the output folder, at a path relative to it, with what to do about it.
package struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the build cannot write, each case with the action that fixes it.
    package enum Reason: Sendable, Hashable {
        /// Files the build would replace that no earlier build wrote (all of them, sorted).
        case foreignFiles([String])
        /// A symbolic link where the build must put a file or a folder.
        case symbolicLink
        /// A file, or something that is neither file nor folder, where the build needs a folder.
        case notAFolder
        /// A folder where the build must put a file.
        case folderInTheWay
        /// A path component over `OutputPath.maxNameBytes`.
        case nameTooLong(bytes: Int)
        /// A whole path over `OutputPath.maxPathBytes`, counted from the root of the file system.
        case pathTooLong(bytes: Int)
        /// The path leaves its folder or is not a plain relative path (`..`, `.`, an empty name, a NUL).
        case unsafePath
        /// The operating system refused: what was tried, and `strerror`'s words.
        case system(action: String, message: String)
        /// A photo copy in the image cache (at this path) is missing or damaged.
        case damagedCache(String)
        /// The file system has less room than the build's staged files need.
        case noRoom(needed: Int, free: Int)

        /// `.system` with the words `strerror` has for `code`.
        package static func system(action: String, code: Int32) -> Reason {
            .system(action: action, message: String(cString: strerror(code)))
        }
    }

    package var path: String
    package var reason: Reason
    /// The output folder as diagnostics name it (`BuildOptions.outputLabel`): `output` unless the
    /// build was told of another.
    package var folder = "output"
    /// What the failure left in the output folder.
    package var state = OutputState.unchanged

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// Where the problem is, from the site folder.
    package var location: SourceLocation { SourceLocation(path: folder + "/" + path) }

    /// This error with the output folder named `folder`.
    func named(_ folder: String) -> OutputError {
        var named = self
        named.folder = folder
        return named
    }

    package var message: String {
        switch reason {
        case .foreignFiles(let paths):
            let shown = paths.prefix(5).joined(separator: ", ")
            let more = paths.count > 5 ? " and \(paths.count - 5) more" : ""
            let them = paths.count == 1 ? "it" : "them"
            return "the build would replace \(shown)\(more), which it did not write; move \(them) away, or pass --force to let the build own \(them)"
        case .symbolicLink:
            return "\(folder)/\(path) is a symbolic link; the build never writes through links: remove it, or pass --force to replace the link itself (its target is left alone)"
        case .notAFolder:
            return "\(folder)/\(path) is not a folder, and the build needs a folder there: move it away, or pass --force to replace it"
        case .folderInTheWay:
            return "\(folder)/\(path) is a folder, and the build needs to write a file there: move the folder away"
        case .nameTooLong(let bytes):
            return "the output path \(path) has a name of \(bytes) bytes, over the \(OutputPath.maxNameBytes) that file systems allow: shorten the id, tag or place it comes from"
        case .pathTooLong(let bytes):
            return "the output path \(path) is \(bytes) bytes long with the output folder, over the \(OutputPath.maxPathBytes) that file systems allow: shorten the id, tag or place it comes from, or choose a shorter --output"
        case .unsafePath:
            return "the output path \(path) is not a plain path inside the output folder; rename the image or theme file it comes from"
        case .system(let action, let message):
            return "cannot \(action): \(message)"
        case .damagedCache(let file):
            return "the cached copy \(file) is missing or damaged; delete the .daybook-cache folder and build again"
        case .noRoom(let needed, let free):
            return "the output folder's file system has \(Self.megabytes(free)) free, and this build needs at least \(Self.megabytes(needed)) more to stage its files; free some space or choose another --output"
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes < 1 << 20 ? "\((bytes + 1023) / 1024) KB" : String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }

    package var description: String { "\(location.description): error: \(message)" }
}
