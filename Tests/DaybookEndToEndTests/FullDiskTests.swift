import DaybookTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real full disk: the output folder on a small tmpfs (CONTRACT §6, issue 37's reproduction).
/// Needs `mount`, which CI has as root; where mounting is refused the tests are skipped, saying so.
@Suite("Full disk", .serialized, .enabled(if: SmallDisk.canMount, "mounting a tmpfs is refused here (not root, or no CAP_SYS_ADMIN): the full-disk tests are skipped"))
struct FullDiskTests {
    let binary = DaybookBinaryTests()

    /// Four hundred posts with captions long enough that their pages outgrow the disk, as
    /// records to put at the head of a `posts.json` array.
    static func manyPosts() -> String {
        let caption = String(repeating: "A long caption about the river and the light on the water. ", count: 20)
        let posts = (0..<400).map { index in
            #"{"id": "n\#(index)", "author": "ana", "createdAt": "2026-11-0\#(index % 9 + 1)T10:00:00Z", "caption": "\#(caption) #many"}"#
        }
        return posts.joined(separator: ",\n") + ",\n"
    }

    @Test("out of bytes: a rebuild that does not fit fails before it stages a byte too many, and the output stays byte for byte as it was")
    func outOfBytes() throws {
        try check(mountOptions: "size=1500k")
    }

    @Test("out of inodes: the kernel's ENOSPC while staging leaves the output byte for byte as it was")
    func outOfInodes() throws {
        try check(mountOptions: "size=64m,nr_inodes=84")
    }

    func check(mountOptions: String) throws {
        let site = try SiteFixture(MiniSite.archive)
        defer { try? FileManager.default.removeItem(at: site.directory) }
        let disk = try SmallDisk(options: mountOptions)
        defer { disk.unmount() }
        let output = disk.folder.appending(path: "out")
        let arguments = ["build", "--site", site.directory.path, "--output", output.path, "--now", MiniSite.now]
        let first = try binary.run(arguments)
        try #require(first.status == 0, "\(first.stderr)")
        let before = FolderState(output)

        let posts = try #require(site.read("content/posts.json"))
        try site.write("content/posts.json", "[\n" + Self.manyPosts() + posts.drop { $0 != "{" })
        let failed = try binary.run(arguments)
        #expect(failed.status == 1)
        let lines = failed.stderr.split(separator: "\n")
        let errors = lines.filter { $0.contains(": error: ") }
        #expect(errors.count == 1, "\(failed.stderr)")
        #expect(errors.first.map { $0.contains("No space left on device") || $0.contains("free some space") } == true, "\(failed.stderr)")
        #expect(lines.last?.hasSuffix("the output folder was not changed") == true, "\(failed.stderr)")
        let after = FolderState(output)
        #expect(after == before, "\(after.differences(from: before))")

        // With room again, the build goes through and equals a fresh one.
        disk.remount("size=64m,nr_inodes=100000")
        #expect(try binary.run(arguments).status == 0)
        let fresh = try site.copy(leaving: ["output", ".daybook-cache"])
        defer { try? FileManager.default.removeItem(at: fresh.directory) }
        #expect(try binary.run(["build", "--site", fresh.directory.path, "--now", MiniSite.now]).status == 0)
        #expect(FolderState(output).recordByContent == FolderState(fresh.directory.appending(path: "output")).recordByContent)
    }
}

/// A tmpfs mounted on a fresh temporary folder.
struct SmallDisk {
    let folder: URL

    init(options: String) throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "daybook-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard Self.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", folder.path]) else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    func remount(_ options: String) { _ = Self.run(["mount", "-o", "remount," + options, folder.path]) }

    func unmount() {
        _ = Self.run(["umount", folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Whether this machine lets the tests mount a tmpfs: tried once.
    static let canMount: Bool = {
        guard getuid() == 0, let disk = try? SmallDisk(options: "size=64k") else { return false }
        disk.unmount()
        return true
    }()

    static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
