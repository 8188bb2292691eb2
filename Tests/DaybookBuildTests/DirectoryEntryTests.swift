@testable import DaybookBuild
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A folder's entries as `readdir` hands them over: packed to the length of each name, so the
/// last one in glibc's buffer may end where the mapped memory does.
@Suite("Folder entries")
struct DirectoryEntryTests {
    @Test("an entry's name is read up to its end, never past it: the last entry before an unmapped page")
    func nameBeforeAnUnmappedPage() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapped = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(mapped != MAP_FAILED)
        defer { munmap(mapped, 2 * page) }
        // The second page unreadable: a read past the entry ends the test process.
        try #require(mprotect(mapped + page, page, PROT_NONE) == 0)
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let name = Array("index.html".utf8) + [0]
        // An entry as the kernel packs it: the header, the name and its terminator, to 8 bytes.
        let length = (offset + name.count + 7) / 8 * 8
        let entry = mapped + page - length
        (entry + offset).copyMemory(from: name, byteCount: name.count)
        #expect(FileInfo.entryName(entry.assumingMemoryBound(to: dirent.self)) == "index.html")
    }
}
