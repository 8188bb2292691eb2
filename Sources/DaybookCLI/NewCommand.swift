import ArgumentParser
import DaybookModel
import Foundation

/// `daybook new DIR`: starts a site that builds with `--strict` and no warnings.
struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a new site: site.yml, one item of each collection in content/, and a .gitignore.",
        discussion: "DIR must not exist yet, or be an empty folder."
    )

    @Argument(help: "The folder to create the site in.")
    var directory: String

    @Option(help: "The site's language, a BCP 47 tag such as pt, pt-BR or ar: its settings, theme words and first items. (default: en)")
    var language: String?

    func run() async throws {
        let folder = SiteOptions.resolve(directory)
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw CommandFailure("'\(directory)' exists and is not a folder; choose a new name") }
            let entries = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            guard entries.isEmpty else {
                throw CommandFailure("'\(directory)' is not empty; choose a new folder, or an empty one, so nothing in it is overwritten")
            }
        }
        var tag = LanguageTag.english
        if let language {
            guard let given = LanguageTag(language) else {
                throw CommandFailure("--language must be a BCP 47 language tag such as en, pt-BR or zh-Hant, found '\(language)'")
            }
            tag = given
        }
        let now = try NowResolver(environment: ProcessInfo.processInfo.environment, clock: { Date() }).resolveForCommand(nil)
        let starter = SiteStarter(now: now, language: tag)
        do {
            for file in starter.files {
                let url = folder.appending(path: file.path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url, options: .withoutOverwriting)
            }
        } catch {
            throw CommandFailure("could not write the new site in '\(directory)': \(error.localizedDescription)")
        }
        let items = starter.files.filter { $0.path.hasPrefix("content/") }.count
        DiagnosticPrinter.printSummary("Created a Daybook site in \(directory): site.yml, .gitignore and \(items) items in content/.")
        DiagnosticPrinter.printSummary("Next: cd \(directory) && daybook serve    (a preview at http://127.0.0.1:8000/)")
        DiagnosticPrinter.printSummary("Before you deploy, set baseURL in site.yml to the site's address.")
        if !starter.languageIsShipped {
            DiagnosticPrinter.printSummary(
                "Daybook has no words for '\(tag.text)': the theme and these first items are in English; add the theme's words in Templates/i18n/\(tag.text).yml.")
        }
    }
}
