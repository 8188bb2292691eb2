import DaybookModel

extension RecordReader {
    /// The fields CONTRACT §8 adds to prompts, posts, comments and responses: `updatedAt` (the last
    /// edit) and `draft`. An `updatedAt` before `createdAt` is a warning and is ignored, so an
    /// impossible edit date never moves a feed.
    mutating func editFields(createdAt: Instant?) -> (updatedAt: Instant?, isDraft: Bool) {
        var updatedAt = instant("updatedAt")
        if let edited = updatedAt, let createdAt, edited < createdAt, let position = members["updatedAt"]?.value.position {
            diagnostics.append(Diagnostic(.updatedBeforeCreated(updatedAt: edited, createdAt: createdAt), at: location(position)))
            updatedAt = nil
        }
        return (updatedAt, flag("draft"))
    }

    /// A boolean field that defaults to `false`; anything but `true`, `false` or null is an error.
    mutating func flag(_ key: String) -> Bool {
        guard let raw = members[key]?.value else { return false }
        switch raw.kind {
        case .bool(let value): return value
        case .null: return false
        default:
            diagnostics.append(Diagnostic(.notABoolean(field: key, found: raw.kindName), at: location(raw.position)))
            return false
        }
    }
}
