import ArgumentParser
import DaybookModel
import Foundation

/// CONTRACT §3: "now" is `--now` when given, else `SOURCE_DATE_EPOCH` when set, else the clock.
///
/// The only place Daybook reads the clock; everything below receives the instant.
struct NowResolver {
    enum Failure: Error, CustomStringConvertible {
        case badNow(String)
        case badEpoch(String)

        var description: String {
            switch self {
            case .badNow(let text): "--now '\(text)' is not an RFC 3339 date-time such as 2026-11-21T08:00:00Z"
            case .badEpoch(let text): "SOURCE_DATE_EPOCH '\(text)' is not a whole number of seconds since 1970"
            }
        }
    }

    var environment: [String: String]
    var clock: @Sendable () -> Date

    func resolve(_ option: String?) throws(Failure) -> Instant {
        if let option {
            guard let instant = Instant(rfc3339: option) else { throw .badNow(option) }
            return instant
        }
        if let epoch = environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty {
            guard let seconds = Int64(epoch) else { throw .badEpoch(epoch) }
            return Instant(secondsSince1970: Double(seconds))
        }
        return Instant(secondsSince1970: clock().timeIntervalSince1970)
    }
}

extension NowResolver {
    /// `resolve`, with each failure as the command line reports it: a bad `--now` is a usage
    /// error (exit 64, with the usage); a bad `SOURCE_DATE_EPOCH` is not, since no argument is wrong.
    func resolveForCommand(_ option: String?) throws -> Instant {
        do {
            return try resolve(option)
        } catch .badNow(let text) {
            throw ValidationError(Failure.badNow(text).description)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
