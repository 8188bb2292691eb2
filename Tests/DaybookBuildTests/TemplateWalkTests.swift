@testable import DaybookBuild
import DaybookModel
import DaybookTestSupport
import Foundation
import Testing

/// Daybook renders the theme through its own walk over swift-mustache's parsed templates
/// (`CompiledTemplate`). The example site, every page of it, must come out byte for byte as
/// swift-mustache renders it.
@Suite("The compiled templates against swift-mustache")
struct TemplateWalkTests {
    /// A copy of the repository's example site, so that neither build reuses the other's cards.
    static func exampleCopy() throws -> URL {
        let copy = SiteFixture.temporaryFolder("walk")
        for name in ["site.yml", "content", "Templates"] {
            try FileManager.default.copyItem(at: GoldenPagesTests.repository.appending(path: name), to: copy.appending(path: name))
        }
        return copy
    }

    static func files(under folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder.path) ?? FileManager.DirectoryEnumerator() {
            var isFolder: ObjCBool = false
            let full = folder.appending(path: path).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                result[path] = FileManager.default.contents(atPath: full)
            }
        }
        return result
    }

    @Test("every file of the example site is the same through both")
    func exampleSite() async throws {
        var outputs: [[String: Data]] = []
        for mustache in [false, true] {
            let site = try Self.exampleCopy()
            defer { try? FileManager.default.removeItem(at: site) }
            let options = BuildOptions(siteDirectory: site, outputDirectory: site.appending(path: "output"), now: Fixed.at("2026-11-21T12:00:00Z"))
            var builder = SiteBuilder()
            builder.rendersThroughSwiftMustache = mustache
            let result = await builder.build(options)
            #expect(result.errorCount == 0, "\(result.diagnostics)")
            outputs.append(Self.files(under: site.appending(path: "output")).filter { !$0.key.hasPrefix(".daybook") })
        }
        #expect(outputs[0].count > 60)
        #expect(outputs[0].keys.sorted() == outputs[1].keys.sorted())
        for (path, bytes) in outputs[0] where outputs[1][path] != bytes {
            Issue.record("\(path) differs between the compiled walk and swift-mustache")
        }
    }
}
