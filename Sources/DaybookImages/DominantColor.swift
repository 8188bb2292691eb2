/// The colour most of a photo is, as `#rrggbb`: the page's placeholder until the photo loads.
///
/// An average of all pixels turns a blue sky over green fields into a muddy grey no part of the
/// photo has. Instead the pixels are put in 512 boxes (8 levels per channel) and the colour is the
/// mean of the fullest box. Ties go to the lower box, so the result is deterministic.
package enum DominantColor {
    /// `rgb` is 8-bit sRGB, three bytes per pixel; `nil` when there are no pixels.
    package static func of(rgb: [UInt8]) -> String? {
        let pixels = rgb.count / 3
        guard pixels > 0 else { return nil }
        var counts = [Int](repeating: 0, count: 512)
        var sums = [Int](repeating: 0, count: 512 * 3)
        for p in 0..<pixels {
            let r = Int(rgb[3 * p]), g = Int(rgb[3 * p + 1]), b = Int(rgb[3 * p + 2])
            let box = (r >> 5) << 6 | (g >> 5) << 3 | (b >> 5)
            counts[box] += 1
            sums[3 * box] += r
            sums[3 * box + 1] += g
            sums[3 * box + 2] += b
        }
        var best = 0
        for box in 1..<512 where counts[box] > counts[best] { best = box }
        let n = counts[best]
        return "#" + (0..<3).map { hex2((sums[3 * best + $0] + n / 2) / n) }.joined()
    }

    private static func hex2(_ value: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[value >> 4], digits[value & 15]])
    }
}
