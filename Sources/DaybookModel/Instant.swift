import Foundation

/// A point in time, parsed from an RFC 3339 date-time.
///
/// Seconds since 1970-01-01T00:00:00Z. Parsing is done by hand rather than with
/// `ISO8601DateFormatter` because that formatter is not `Sendable`, accepts forms RFC 3339
/// does not, and costs microseconds per call on a path that runs once per post and comment.
package struct Instant: Sendable, Hashable, Comparable {
    package var secondsSince1970: Double

    package init(secondsSince1970: Double) { self.secondsSince1970 = secondsSince1970 }

    package static func < (a: Instant, b: Instant) -> Bool { a.secondsSince1970 < b.secondsSince1970 }

    package var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `nil` for anything else.
    package init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for i in start..<(start + count) {
                let c = b[i]
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
            let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
            b[16] == UInt8(ascii: ":"), let second = digits(17, 2)
        else { return nil }
        guard CalendarDay.isValid(year: year, month: month, day: day), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        var index = 19
        var fraction = 0.0
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, b[index] >= 48, b[index] <= 57 {
                fraction += Double(b[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offsetSeconds = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let oh = digits(index + 1, 2), index + 3 < b.count, b[index + 3] == UInt8(ascii: ":"),
                let om = digits(index + 4, 2), oh < 24, om < 60
            else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (b[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == b.count else { return nil }
        let days = CalendarDay(year: year, month: month, day: day).daysSince1970
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + min(second, 59)) + fraction
        self.secondsSince1970 = local - Double(offsetSeconds)
    }

    /// The calendar day this instant falls on in `zone`.
    package func day(in zone: TimeZone) -> CalendarDay {
        let offset = zone.secondsFromGMT(for: date)
        let local = Int((secondsSince1970 + Double(offset)).rounded(.down))
        return CalendarDay(daysSince1970: local.floorDiv(86_400))
    }

    /// Hours and minutes on the wall clock of `zone`.
    package func timeOfDay(in zone: TimeZone) -> (hour: Int, minute: Int) {
        let offset = zone.secondsFromGMT(for: date)
        let local = Int((secondsSince1970 + Double(offset)).rounded(.down))
        let secondOfDay = local - local.floorDiv(86_400) * 86_400
        return (secondOfDay / 3600, (secondOfDay % 3600) / 60)
    }

    /// RFC 3339 in UTC with a `Z`, as Atom and sitemaps want it.
    package var utcText: String {
        let whole = Int(secondsSince1970.rounded(.down))
        let day = CalendarDay(daysSince1970: whole.floorDiv(86_400))
        let s = whole - whole.floorDiv(86_400) * 86_400
        return "\(day.description)T\(pad2(s / 3600)):\(pad2((s % 3600) / 60)):\(pad2(s % 60))Z"
    }
}

extension Int {
    /// Division rounding towards negative infinity, so days before 1970 land on the right date.
    func floorDiv(_ divisor: Int) -> Int {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}

func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
