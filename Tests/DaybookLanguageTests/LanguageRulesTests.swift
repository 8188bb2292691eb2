import DaybookLanguage
import DaybookModel
import Foundation
import Testing

/// CONTRACT §11: plural forms by CLDR's rules and dates as the language writes them. The
/// expected texts are what ICU 72 (plurals) and Foundation's ICU (dates, numbers) give, checked
/// against CLDR; the invisible spaces are written out (U+202F narrow no-break, U+00A0 no-break).
@Suite("Language rules")
struct LanguageRulesTests {
    // MARK: Plurals

    @Test("plural categories by CLDR's rules", arguments: [
        ("en", [(1, PluralCategory.one), (0, .other), (2, .other), (21, .other)]),
        // Portuguese (Brazil) counts 0 and 1 as one; a million and its multiples are many.
        ("pt", [(0, .one), (1, .one), (2, .other), (1_000_000, .many)]),
        // European Portuguese does not: 0 is other.
        ("pt-PT", [(0, .other), (1, .one), (2, .other)]),
        ("fr", [(0, .one), (1, .one), (2, .other), (1_000_000, .many), (2_000_000, .many), (1_000_001, .other)]),
        ("ru", [(1, .one), (2, .few), (5, .many), (21, .one), (11, .many), (0, .many), (22, .few), (111, .many), (201, .one), (212, .many), (1_000_022, .few)]),
        ("pl", [(1, .one), (2, .few), (5, .many), (12, .many), (21, .many), (22, .few), (0, .many), (222, .few)]),
        ("ar", [(0, .zero), (1, .one), (2, .two), (3, .few), (10, .few), (11, .many), (99, .many), (100, .other), (102, .other), (103, .few), (211, .many)]),
        ("he", [(1, .one), (2, .two), (0, .other), (3, .other), (20, .other), (200, .other)]),
        ("ja", [(0, .other), (1, .other), (2, .other), (1_000, .other)]),
    ])
    func categories(language: String, expected: [(Int, PluralCategory)]) {
        let rules = PluralRules(language: language)
        for (count, category) in expected {
            #expect(rules.category(count) == category, "\(language) \(count)")
        }
    }

    @Test("the categories each language uses, in CLDR's order", arguments: [
        ("en", [PluralCategory.one, .other]),
        ("pt", [.one, .many, .other]),
        ("fr", [.one, .many, .other]),
        ("ru", [.one, .few, .many, .other]),
        ("ar", [.zero, .one, .two, .few, .many, .other]),
        ("he", [.one, .two, .other]),
        ("ja", [.other]),
    ])
    func languageCategories(language: String, expected: [PluralCategory]) {
        #expect(PluralRules(language: language).categories == expected)
    }

    @Test("a language ICU has no rules for counts like the root: everything is other", arguments: ["xx", "und", "", "not a tag"])
    func unknownLanguage(language: String) {
        let rules = PluralRules(language: language)
        #expect(rules.categories == [.other])
        for count in [0, 1, 2, 5, 11, 199, 200, 1_000_000] {
            #expect(rules.category(count) == .other, "\(count)")
        }
    }

    @Test("BCP 47 tags with a script or region, and ICU's own underscore form, find the language's rules")
    func tagForms() {
        #expect(PluralRules(language: "zh-Hant-TW").categories == [.other])
        #expect(PluralRules(language: "sr-Latn").category(22) == .few)
        #expect(PluralRules(language: "pt_PT").category(0) == .other)
        #expect(PluralRules(language: "ru-RU").category(21) == .one)
    }

    @Test("counts past the remembered ones agree with the rules across the edge")
    func pastTheCache() {
        let russian = PluralRules(language: "ru")
        // 190...199 from the table, 200...203 from ICU.
        let expected: [PluralCategory] = [.many, .one, .few, .few, .few, .many, .many, .many, .many, .many, .many, .one, .few, .few]
        #expect((190...203).map(russian.category) == expected)
        #expect(russian.category(-1) == .one)
    }

    // MARK: Dates

    static let day = CalendarDay(year: 2026, month: 11, day: 21)

    @Test("CLDR's long date in each language", arguments: [
        ("en", "November 21, 2026"),
        ("pt", "21 de novembro de 2026"),
        ("de", "21. November 2026"),
        ("ja", "2026年11月21日"),
        ("fr", "21 novembre 2026"),
        ("ru", "21 ноября 2026\u{202F}г."),
        ("ar", "21 نوفمبر، 2026"),
        ("he", "21 בנובמבר 2026"),
        ("zh-Hans", "2026年11月21日"),
        // A language's own calendar and digits: the Persian calendar for `fa`, Buddhist years for
        // `th`, Arabic-Indic digits for Egyptian Arabic.
        ("fa", "۳۰ آبان ۱۴۰۵"),
        ("th", "21 พฤศจิกายน 2569"),
        ("ar-EG", "٢١ نوفمبر، ٢٠٢٦"),
    ])
    func longDates(language: String, expected: String) {
        let dates = LocalDates(language: language, timeZone: TimeZone(identifier: "UTC")!)
        #expect(dates.longDate(Self.day) == expected)
        // Again, from the remembered text.
        #expect(dates.longDate(Self.day) == expected)
    }

    @Test("a day is the same day in every zone, however far from UTC", arguments: [
        "Pacific/Kiritimati", "Pacific/Pago_Pago", "Pacific/Chatham", "America/St_Johns", "Asia/Kathmandu",
    ])
    func dayDoesNotShift(zone: String) {
        for language in ["en", "ja"] {
            let dates = LocalDates(language: language, timeZone: TimeZone(identifier: zone)!)
            let utc = LocalDates(language: language, timeZone: TimeZone(identifier: "UTC")!)
            #expect(dates.longDate(Self.day) == utc.longDate(Self.day), "\(language) \(zone)")
            // The first and last days of a year, where a shift would change the year too.
            #expect(dates.longDate(CalendarDay(year: 2026, month: 1, day: 1)) == utc.longDate(CalendarDay(year: 2026, month: 1, day: 1)))
            #expect(dates.longDate(CalendarDay(year: 2026, month: 12, day: 31)) == utc.longDate(CalendarDay(year: 2026, month: 12, day: 31)))
        }
        #expect(LocalDates(language: "en", timeZone: TimeZone(identifier: zone)!).longDate(CalendarDay(year: 2026, month: 12, day: 31)) == "December 31, 2026")
    }

    // MARK: Times

    @Test("15:04 in the language's 12 or 24 hour habit", arguments: [
        ("en", "3:04\u{202F}PM"),
        ("pt", "15:04"),
        ("de", "15:04"),
        ("ja", "15:04"),
        ("ar", "3:04\u{A0}م"),
        ("fa", "۱۵:۰۴"),
        ("en-u-hc-h23", "15:04"),
    ])
    func times(language: String, expected: String) {
        let dates = LocalDates(language: language, timeZone: TimeZone(identifier: "UTC")!)
        #expect(dates.time(Instant(rfc3339: "2026-11-21T15:04:00Z")!) == expected)
        #expect(dates.time(Instant(rfc3339: "2026-11-21T15:04:59.9Z")!) == expected)
    }

    @Test("times are read on the site's clock, summer time included")
    func timesInTheSiteZone() {
        let lisbon = LocalDates(language: "pt", timeZone: TimeZone(identifier: "Europe/Lisbon")!)
        #expect(lisbon.time(Instant(rfc3339: "2026-11-21T15:04:00Z")!) == "15:04")
        #expect(lisbon.time(Instant(rfc3339: "2026-07-21T15:04:00Z")!) == "16:04")
        let kiritimati = LocalDates(language: "en", timeZone: TimeZone(identifier: "Pacific/Kiritimati")!)
        #expect(kiritimati.time(Instant(rfc3339: "2026-11-21T23:30:00Z")!) == "1:30\u{202F}PM")
        let kathmandu = LocalDates(language: "en", timeZone: TimeZone(identifier: "Asia/Kathmandu")!)
        #expect(kathmandu.time(Instant(rfc3339: "2026-11-21T18:14:00Z")!) == "11:59\u{202F}PM")
        #expect(kathmandu.time(Instant(rfc3339: "2026-11-21T18:15:00Z")!) == "12:00\u{202F}AM")
    }

    // MARK: Numbers

    @Test("numbers grouped as the language writes them", arguments: [
        ("en", "1,234", "1,234,567"),
        ("de", "1.234", "1.234.567"),
        ("fr", "1\u{202F}234", "1\u{202F}234\u{202F}567"),
        ("pt", "1.234", "1.234.567"),
        // European Portuguese and Polish group four digits only from five on (CLDR's minimum grouping).
        ("pt-PT", "1234", "1\u{A0}234\u{A0}567"),
        ("fa", "۱٬۲۳۴", "۱٬۲۳۴٬۵۶۷"),
    ])
    func numbers(language: String, thousands: String, millions: String) {
        let dates = LocalDates(language: language, timeZone: TimeZone(identifier: "UTC")!)
        #expect(dates.number(1234) == thousands)
        #expect(dates.number(1_234_567) == millions)
    }

    @Test("small numbers in the language's own digits, the same whether remembered or not", arguments: [
        ("en", [0: "0", 7: "7", 42: "42", 999: "999"]),
        ("ar", [0: "0", 7: "7", 42: "42", 999: "999"]),
        ("fa", [0: "۰", 7: "۷", 42: "۴۲", 999: "۹۹۹"]),
        ("ar-EG", [0: "٠", 7: "٧", 42: "٤٢", 999: "٩٩٩"]),
    ])
    func smallNumbers(language: String, expected: [Int: String]) {
        let dates = LocalDates(language: language, timeZone: TimeZone(identifier: "UTC")!)
        let locale = Locale(identifier: language)
        for (n, text) in expected {
            #expect(dates.number(n) == text, "\(language) \(n)")
            #expect(dates.number(n) == text, "\(language) \(n), remembered")
            #expect(dates.number(n) == n.formatted(.number.locale(locale)), "\(language) \(n), as Foundation")
        }
    }

    @Test("one value used from many threads gives every thread the same texts")
    func concurrentUse() {
        let dates = LocalDates(language: "ru", timeZone: TimeZone(identifier: "Europe/Moscow")!)
        let rules = PluralRules(language: "ru")
        let start = CalendarDay(year: 2026, month: 1, day: 1).daysSince1970
        let serial = (0..<400).map { (dates.longDate(CalendarDay(daysSince1970: start + $0 % 50)), rules.category($0 * 7)) }
        let fresh = LocalDates(language: "ru", timeZone: TimeZone(identifier: "Europe/Moscow")!)
        let results = Results(count: 400)
        DispatchQueue.concurrentPerform(iterations: 400) { i in
            results.set(i, (fresh.longDate(CalendarDay(daysSince1970: start + i % 50)), rules.category(i * 7)))
        }
        for i in 0..<400 {
            #expect(results.get(i)?.0 == serial[i].0 && results.get(i)?.1 == serial[i].1, "\(i)")
        }
    }
}

/// The answers of `concurrentUse`, filled in from many threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [(String, PluralCategory)?]
    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: (String, PluralCategory)) { lock.withLock { values[i] = value } }
    func get(_ i: Int) -> (String, PluralCategory)? { lock.withLock { values[i] } }
}
