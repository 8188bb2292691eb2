import CICU

/// The cardinal plural rules of one language, from the system's ICU (Debian's ICU 72, CLDR 42).
///
/// Dates and numbers come from Foundation's own ICU instead (`LocalDates`), which is newer but
/// offers no plural rules to Swift; plural rules change rarely between CLDR versions.
///
/// Made once per build and asked for every count label of every page (30,000 pages, several
/// labels each), so the categories of 0...199 are worked out when it is made (40-60 µs, 0.3 ms
/// for the first rules of the process) and read from an array, 0.01 µs a count; larger counts
/// ask ICU, 0.2 µs.
///
/// A language ICU has no rules for (`xx`, `und`, `qaa`, an empty or malformed tag) gets the
/// root's rules, in which every count is `other`: ICU 72 answers so itself, without an error, so
/// nothing here tells a known language from an unknown one (the tag is checked where `site.yml`
/// is read).
package struct PluralRules: Sendable {
    /// The categories the language uses, in `PluralCategory`'s order: the forms its words need.
    package let categories: [PluralCategory]
    private let small: [PluralCategory]
    private let rules: ICUPluralRules?

    private static let cached = 200

    /// - Parameter language: a BCP 47 tag (`pt`, `pt-PT`, `zh-Hant`); ICU's `pt_PT` form is read too.
    package init(language: String) {
        let rules = ICUPluralRules(language: language)
        self.rules = rules
        guard let rules else {
            // Only when ICU itself fails (no memory, no data): every count `other`, as in the root.
            categories = [.other]
            small = Array(repeating: .other, count: Self.cached)
            return
        }
        let listed = Set(rules.keywords.compactMap(PluralCategory.init(rawValue:)))
        categories = PluralCategory.allCases.filter { listed.contains($0) }
        small = (0..<Self.cached).map { rules.category(Double($0)) }
    }

    /// The category of `count` in this language: which form of a word goes after it.
    package func category(_ count: Int) -> PluralCategory {
        if count >= 0, count < Self.cached { return small[count] }
        return rules?.category(Double(count)) ?? .other
    }
}

/// Owns ICU's rules object, so it is closed exactly once, when the last `PluralRules` copy goes.
///
/// `@unchecked Sendable`: the object is never changed after it is opened, and ICU's select and
/// keyword listing are const methods, which ICU allows on one object from many threads at once.
private final class ICUPluralRules: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer

    init?(language: String) {
        guard let handle = daybook_plural_open(language) else { return nil }
        self.handle = handle
    }

    deinit { daybook_plural_close(handle) }

    func category(_ n: Double) -> PluralCategory {
        // The longest keyword is "other": 5 bytes and a NUL.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 16) { buffer in
            let length = daybook_plural_select(handle, n, buffer.baseAddress, Int32(buffer.count))
            guard length > 0 else { return .other }
            return PluralCategory(rawValue: String(cString: buffer.baseAddress!)) ?? .other
        }
    }

    var keywords: [String] {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer in
            let length = daybook_plural_keywords(handle, buffer.baseAddress, Int32(buffer.count))
            guard length > 0 else { return ["other"] }
            return String(cString: buffer.baseAddress!).split(separator: ",").map(String.init)
        }
    }
}
