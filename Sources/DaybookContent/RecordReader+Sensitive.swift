import DaybookModel
import Foundation

extension RecordReader {
    /// A post's `sensitive` (CONTRACT §2): `true`, or a non-empty string giving the reason.
    /// `false` and `null` mean not sensitive; anything else is an error at the value.
    mutating func sensitivity() -> (isSensitive: Bool, reason: String?) {
        guard let member = members["sensitive"] else { return (false, nil) }
        switch member.value.kind {
        case .bool(let flag): return (flag, nil)
        case .null: return (false, nil)
        case .string(let text) where !text.trimmingCharacters(in: .whitespaces).isEmpty:
            return (true, text.trimmingCharacters(in: .whitespaces))
        case .string:
            diagnostics.append(Diagnostic(.emptySensitiveReason, at: location(member.value.position)))
            return (false, nil)
        default:
            diagnostics.append(Diagnostic(.notSensitive(found: member.value.kindDescription), at: location(member.value.position)))
            return (false, nil)
        }
    }
}
