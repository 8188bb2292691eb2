import DaybookTheme
import Foundation
import Testing

@Suite("Default theme")
struct DefaultThemeTests {
    @Test("the theme embedded in the binary is exactly Templates/ (run scripts/embed-theme after editing)")
    func embeddedMatchesTemplates() throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let templates = root.appending(path: "Templates")
        let names = try FileManager.default.subpathsOfDirectory(atPath: templates.path).filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: templates.appending(path: $0).path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        #expect(Set(names) == Set(DefaultTheme.files.keys))
        for name in names {
            let onDisk = try String(contentsOf: templates.appending(path: name), encoding: .utf8)
            #expect(DefaultTheme.files[name] == onDisk, "Templates/\(name) differs from the embedded copy")
        }
    }
}
