import DaybookModel
import Foundation

/// Dates, times and numbers as the site's language writes them (CONTRACT §11): CLDR's long date
/// (`21 de novembro de 2026`, `2026年11月21日`), the language's clock (`3:04 PM`, `15:04`) and its
/// digit grouping (`1,234`, `1.234`, `1 234`), all from Foundation's ICU and CLDR data.
///
/// Every post and comment on every page carries a date and a time label, hundreds of thousands
/// a build, and one Foundation format costs about 1.5 µs, so each text is made once:
/// - times: all 1,440 minutes of the day are formatted when the value is made, since the text
///   depends only on the hour and minute on the site's clock. Measured in a release build on
///   Linux: 1.7-2.0 ms for the 1,440 (en, pt, ar, fa), plus 2-4 ms of ICU data loading that the
///   first format of the process pays anyway; within the 5 ms allowed, and no lock on the path.
/// - days: by their day number, in locked tables shared by every copy of the value.
/// - numbers: below 1,000 a language that writes ASCII digits gets them without Foundation
///   (no grouping applies yet); a language with its own digits (`fa`, `ar-EG`, `ne`) goes
///   through Foundation, its small numbers remembered.
package struct LocalDates: Sendable {
    /// Everything behind one reference: the page builder holding this is copied for every page,
    /// and a format style's locale, calendar and zone were a dozen retains a copy (measured: the
    /// builder's copies went from nothing to 1% of a full build's CPU).
    private let storage: Storage

    package var language: String { storage.language }
    package var timeZone: TimeZone { storage.timeZone }
    private var dateStyle: Date.FormatStyle { storage.dateStyle }
    private var numberStyle: IntegerFormatStyle<Int> { storage.numberStyle }
    private var plainSmallNumbers: Bool { storage.plainSmallNumbers }
    private var times: [String] { storage.times }
    private var memo: Memo { storage.memo }

    /// `@unchecked Sendable`: every stored property is a constant, and `Memo` locks its own tables.
    private final class Storage: @unchecked Sendable {
        let language: String
        let timeZone: TimeZone
        let dateStyle: Date.FormatStyle
        let numberStyle: IntegerFormatStyle<Int>
        /// `language` writes 0...999 exactly as `String(n)` does.
        let plainSmallNumbers: Bool
        /// The time text of each minute of the day, by minutes since midnight.
        let times: [String]
        let memo = Memo()

        init(language: String, timeZone: TimeZone, dateStyle: Date.FormatStyle, numberStyle: IntegerFormatStyle<Int>, plainSmallNumbers: Bool, times: [String]) {
            (self.language, self.timeZone, self.dateStyle, self.numberStyle) = (language, timeZone, dateStyle, numberStyle)
            (self.plainSmallNumbers, self.times) = (plainSmallNumbers, times)
        }
    }

    private static let smallNumbers = 1000

    /// - Parameters:
    ///   - language: a BCP 47 tag, as `site.yml` gives it. Unicode extensions are honoured
    ///     (`ar-u-nu-latn` for Western digits, `en-u-ca-buddhist`, `en-u-hc-h23`).
    ///   - timeZone: the site's zone, the clock times are read on.
    package init(language: String, timeZone: TimeZone) {
        let locale = Locale(identifier: language)
        // Every text is made from an instant read in UTC: a day at its noon, a time at its minute
        // of 1970-01-01. The site's zone is applied before, in plain arithmetic (`timeOfDay`).
        let utc = TimeZone(secondsFromGMT: 0)!
        // The locale's own calendar, as CLDR's long date for the language uses it: Persian for
        // `fa`, Buddhist for `th`, Gregorian for most.
        let dateStyle = Date.FormatStyle(date: .long, time: .omitted, locale: locale, calendar: locale.calendar, timeZone: utc)
        let timeStyle = Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, calendar: locale.calendar, timeZone: utc)
        let times = (0..<1440).map { timeStyle.format(Date(timeIntervalSince1970: Double($0 * 60))) }
        let numberStyle = IntegerFormatStyle<Int>(locale: locale)
        // Between them 0, 123, 456 and 987 hold every digit: if each comes out as ASCII, so does
        // every number below 1,000 (grouping starts at four digits, in every CLDR locale).
        let probes = [0, 123, 456, 987]
        let plainSmallNumbers = probes.allSatisfy { numberStyle.format($0) == String($0) }
        storage = Storage(
            language: language, timeZone: timeZone, dateStyle: dateStyle, numberStyle: numberStyle, plainSmallNumbers: plainSmallNumbers,
            times: times)
    }

    /// CLDR's long date of `day` in the language. A `CalendarDay` has no zone, and it is
    /// formatted at its noon in UTC, so no zone, here or on the machine, moves it to a
    /// neighbouring day.
    package func longDate(_ day: CalendarDay) -> String {
        let number = day.daysSince1970
        if let text = memo.day(number) { return text }
        let text = dateStyle.format(Date(timeIntervalSince1970: Double(number) * 86_400 + 43_200))
        memo.setDay(number, text)
        return text
    }

    /// The hour and minute of `instant` on the site's clock, in the language's 12 or 24 hour habit.
    package func time(_ instant: Instant) -> String {
        let (hour, minute) = instant.timeOfDay(in: timeZone)
        return times[hour * 60 + minute]
    }

    /// `n` with the digits and grouping of the language.
    package func number(_ n: Int) -> String {
        guard n >= 0, n < Self.smallNumbers else { return numberStyle.format(n) }
        if plainSmallNumbers { return String(n) }
        if let text = memo.number(n) { return text }
        let text = numberStyle.format(n)
        memo.setNumber(n, text)
        return text
    }
}

/// The texts a `LocalDates` has made, shared by all its copies and all the threads of a build.
///
/// Days are spread over 16 tables, each with its own lock, by day number: the pages rendered at
/// once on different cores mostly show different days, and with one lock every core's every call
/// met on the same one. Measured in a release build, 2 cores asking for remembered days at once:
/// 0.33-0.60 µs a call with one lock, 0.11-0.13 µs with 16 (0.07 µs on one thread alone).
///
/// `@unchecked Sendable`: every read and write of a table holds its lock. Two threads may format
/// the same day at once; both make the same text, and the second write is harmless.
private final class Memo: @unchecked Sendable {
    private final class Shard: @unchecked Sendable {
        let lock = NSLock()
        var texts: [Int: String] = [:]
    }

    private let days = (0..<16).map { _ in Shard() }
    private let numbers = Shard()

    private func shard(_ number: Int) -> Shard { days[number & 15] }

    func day(_ number: Int) -> String? {
        let shard = shard(number)
        return shard.lock.withLock { shard.texts[number] }
    }

    func setDay(_ number: Int, _ text: String) {
        let shard = shard(number)
        shard.lock.withLock { shard.texts[number] = text }
    }

    func number(_ n: Int) -> String? { numbers.lock.withLock { numbers.texts[n] } }
    func setNumber(_ n: Int, _ text: String) { numbers.lock.withLock { numbers.texts[n] = text } }
}
