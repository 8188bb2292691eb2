import Testing

@testable import DaybookModel

/// The caches' numbers come back from an untrusted folder: a NaN or an infinity is no number a
/// record holds (the readers bound every one), so reading one back is damage, refused.
@Suite("Numbers in the caches' bytes")
struct ByteCodingTests {
    @Test("a finite number and instant read back as written; a NaN or an infinity reads as none", arguments: [1e9, -0.5, .nan, .infinity, -.infinity])
    func finite(value: Double) throws {
        var writer = ByteWriter()
        writer.double(value)
        writer.instant(Instant(secondsSince1970: value))
        var reader = ByteReader(writer.bytes[...], at: 0)
        let number = reader.optionalDouble()
        let instant = reader.instant()
        if value.isFinite {
            #expect(number == .some(value))
            #expect(instant == Instant(secondsSince1970: value))
        } else {
            #expect(number == nil)
            #expect(instant == nil)
        }
    }
}
