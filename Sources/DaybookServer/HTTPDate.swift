import DaybookModel

/// HTTP dates (RFC 9110 IMF-fixdate: `Sat, 21 Nov 2026 08:00:00 GMT`), by hand: the format is
/// fixed and English, and DateFormatter is neither Sendable nor cheap.
enum HTTPDate {
    static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(_ instant: Instant) -> String {
        let seconds = Int(instant.secondsSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let day = CalendarDay(daysSince1970: days)
        let rest = seconds - days * 86_400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let weekday = weekdays[((days % 7) + 7) % 7]
        return "\(weekday), \(two(day.day)) \(months[day.month - 1]) \(day.year) \(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60)) GMT"
    }

    static func parse(_ text: String) -> Instant? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        let days = CalendarDay(year: year, month: month + 1, day: day).daysSince1970
        return Instant(secondsSince1970: Double(days * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]))
    }
}
