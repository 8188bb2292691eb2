import Foundation

/// Reads the few facts tests assert about rendered pages, without a full HTML parser.
package enum HTMLProbe {
    /// The `data-id` values in document order.
    package static func dataIDs(_ html: String) -> [String] {
        attributeValues("data-id", in: html)
    }

    /// Every value of `name="…"` in document order.
    package static func attributeValues(_ name: String, in html: String) -> [String] {
        var values: [String] = []
        var rest = html[...]
        let marker = " \(name)=\""
        while let start = rest.range(of: marker) {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: "\"") else { break }
            values.append(String(after[..<end]))
            rest = after[end...]
        }
        return values
    }

    package static func count(_ needle: String, in html: String) -> Int {
        html.components(separatedBy: needle).count - 1
    }
}
