import CVips
import CVipsLoader
@testable import DaybookImages
import Testing

/// `CVipsLoader` reads no libvips header: the values it passes are spelled out, and must be the
/// ones libvips's own headers give. It opens the library the build links in these tests.
@Suite("libvips, loaded on first use")
struct VipsLoaderTests {
    @Test("the enumeration values the loader passes are libvips's")
    func values() {
        #expect(Int(DBVIPS_SIZE_DOWN) == Int(VIPS_SIZE_DOWN.rawValue))
        #expect(Int(DBVIPS_SIZE_FORCE) == Int(VIPS_SIZE_FORCE.rawValue))
        #expect(Int(DBVIPS_SIZE_BOTH) == Int(VIPS_SIZE_BOTH.rawValue))
        #expect(Int(DBVIPS_INTERESTING_CENTRE) == Int(VIPS_INTERESTING_CENTRE.rawValue))
        #expect(Int(DBVIPS_INTERESTING_NONE) == Int(VIPS_INTERESTING_NONE.rawValue))
        #expect(Int(DBVIPS_INTERESTING_ATTENTION) == Int(VIPS_INTERESTING_ATTENTION.rawValue))
        #expect(Int(DBVIPS_ACCESS_SEQUENTIAL) == Int(VIPS_ACCESS_SEQUENTIAL.rawValue))
        #expect(Int(DBVIPS_INTERPRETATION_SRGB) == Int(VIPS_INTERPRETATION_sRGB.rawValue))
        #expect(Int(DBVIPS_FORMAT_UCHAR) == Int(VIPS_FORMAT_UCHAR.rawValue))
        #expect(Int(VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE) == Int(DBVIPS_ABI))
    }

    @Test("started once, it names its version and no reason it is unavailable")
    func started() {
        #expect(Vips.start())
        #expect(dbvips_unavailable() == nil)
        #expect(Vips.version.hasPrefix("8."))
        #expect(Vips.version == String(cString: vips_version_string()))
        // Orc, libvips's run-time code generator, is off: it crashed under the tests once.
        #expect(vips_vector_isenabled() == 0)
    }
}
