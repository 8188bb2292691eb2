import DaybookImages
import Testing

@Suite("Responsive widths")
struct ResponsiveWidthsTests {
    @Test("candidates follow CONTRACT §7", arguments: [
        (1200, [480, 960, 1200]),
        (400, [400]),
        (2000, [480, 960, 1600]),
        (960, [480, 960]),
        (1600, [480, 960]),  // as wide as the widest: neither narrower nor "narrower than the widest"
        (1601, [480, 960, 1600]),
        (480, [480]),
    ])
    func candidates(width: Int, expected: [Int]) {
        #expect(ResponsiveWidths.candidates(uprightWidth: width, configured: [480, 960, 1600]) == expected)
    }

    @Test("configured widths in any order, repeated or not positive")
    func unsorted() {
        #expect(ResponsiveWidths.candidates(uprightWidth: 1000, configured: [1600, 480, 480, 0, -5, 960]) == [480, 960, 1000])
        #expect(ResponsiveWidths.candidates(uprightWidth: 1000, configured: []) == [])
    }

    @Test("heights keep the aspect ratio to the nearest pixel")
    func heights() {
        #expect(ResponsiveWidths.height(forWidth: 480, uprightWidth: 4000, uprightHeight: 3000) == 360)
        #expect(ResponsiveWidths.height(forWidth: 480, uprightWidth: 1201, uprightHeight: 799) == 319)  // 319.33
        #expect(ResponsiveWidths.height(forWidth: 960, uprightWidth: 1201, uprightHeight: 799) == 639)  // 638.67
        #expect(ResponsiveWidths.height(forWidth: 480, uprightWidth: 5000, uprightHeight: 3) == 1)
    }
}

@Suite("Source digest")
struct SourceDigestTests {
    @Test("XXH64 reference values")
    func reference() {
        #expect(SourceDigest.xxh64([]) == 0xEF46_DB37_51D8_E999)
        #expect(SourceDigest.xxh64(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
    }
}

@Suite("Dominant colour")
struct DominantColorTests {
    @Test("the fullest box wins over the average")
    func fullestBox() {
        let sky = Array([[UInt8]](repeating: [30, 90, 200], count: 60).joined())
        let field = Array([[UInt8]](repeating: [40, 160, 40], count: 40).joined())
        #expect(DominantColor.of(rgb: sky + field) == "#1e5ac8")
    }

    @Test("mean within the box, rounded")
    func mean() {
        #expect(DominantColor.of(rgb: [0, 0, 0, 1, 1, 1, 1, 1, 1]) == "#010101")
        #expect(DominantColor.of(rgb: []) == nil)
    }
}
