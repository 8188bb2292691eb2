import ArgumentParser
import Foundation

/// `--site` and `--output`, shared by the commands that build: one definition, one check.
struct SiteOptions: ParsableArguments {
    @Option(name: .long, help: "The site folder, holding site.yml, content/ and Templates/.")
    var site: String = "."

    @Option(name: .long, help: "The output folder (default: <site>/output).")
    var output: String?

    /// The site folder, absolute.
    var siteDirectory: URL { Self.resolve(site) }

    /// The output folder, absolute: `--output`, else `<site>/output`.
    var outputDirectory: URL { output.map(Self.resolve) ?? siteDirectory.appending(path: "output") }

    /// The output folder as the user would write it, for messages.
    var outputShown: String { output ?? (site == "." ? "output" : "\(site)/output") }

    /// An empty `--site` or `--output` is a usage error; a site folder that does not exist is a
    /// problem with the site, not with the command line, so it exits 1 with no usage.
    func validate() throws {
        if site.isEmpty { throw ValidationError("--site must name a folder") }
        if let output, output.isEmpty { throw ValidationError("--output must name a folder") }
        guard Self.isFolder(siteDirectory) else {
            throw CommandFailure("site folder '\(site)' does not exist; start a site there with 'daybook new \(site)'").printed()
        }
    }

    /// For the commands that read the site (`build`, `serve`): a folder with no `content/` would
    /// otherwise build quietly into an empty site, so a first-time user is pointed at `daybook new`.
    func requireContent() throws(CommandFailure) {
        guard Self.isFolder(siteDirectory.appending(path: "content")) else {
            let place = site == "." ? "this folder" : "'\(site)'"
            throw CommandFailure(
                "\(place) has no content/ folder, so it is not a Daybook site; start one with 'daybook new DIR', or pass --site DIR")
        }
    }

    static func resolve(_ path: String) -> URL {
        let cwd = URL(filePath: FileManager.default.currentDirectoryPath, directoryHint: .isDirectory)
        return URL(filePath: path, directoryHint: .isDirectory, relativeTo: cwd).standardizedFileURL
    }

    static func isFolder(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
