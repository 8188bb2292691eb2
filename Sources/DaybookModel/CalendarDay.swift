import Foundation

/// A day on the calendar, with no time and no zone: what a prompt's `date` names.
package struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var year: Int
    package var month: Int
    package var day: Int

    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`, rejecting days that do not exist (2026-02-30).
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            Self.isValid(year: y, month: m, day: d)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    package static func < (a: CalendarDay, b: CalendarDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    package var description: String {
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + pad2(month) + "-" + pad2(day)
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    package var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The inverse of `daysSince1970` (civil_from_days).
    package init(daysSince1970 z0: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// The first instant of this day in `zone` (midnight, or the first hour after a DST gap).
    package func start(in zone: TimeZone) -> Instant {
        let localMidnight = Double(daysSince1970 * 86_400)
        var guess = localMidnight - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: localMidnight)))
        // A second pass settles days whose offset differs from the one at UTC midnight.
        guess = localMidnight - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: guess)))
        if Instant(secondsSince1970: guess).day(in: zone) < self { guess += 3600 }
        return Instant(secondsSince1970: guess)
    }
}
