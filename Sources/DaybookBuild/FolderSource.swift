import DaybookCheck
import Foundation

/// A rendered site on disk, for `daybook check`: the paths are listed once, files are read on demand.
public struct FolderSource: CheckSource {
    public let directory: URL
    public let paths: [String]

    public init(directory: URL) {
        self.directory = directory
        self.paths = FileInfo.regularFiles(under: directory.standardizedFileURL.path)
    }

    public func bytes(of path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: directory.appending(path: path).path).map(Array.init)
    }

    public func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: directory.appending(path: path).path) }
}
