/// Values worked out for each record of a build (a post's version, its hashtags), by the record's
/// id, each with the inputs it was worked out from: the next build of a long-lived process
/// (`serve`) takes a value again when its inputs are equal, and works out only the rest. Records
/// that did not change are the very same values from build to build (decoded once and kept), so
/// comparing them costs little where working the values out again was a tenth of a rebuild.
public struct InputMemo<Inputs: Equatable & Sendable, Value: Sendable>: Sendable {
    struct Entry: Sendable {
        var inputs: Inputs
        var value: Value
    }

    private var entries: [String: Entry] = [:]

    public init() {}

    /// A memo of `values`; of two with the same id, the first stays.
    public init(_ values: [(id: String, inputs: Inputs, value: Value)]) {
        entries = Dictionary(values.map { ($0.id, Entry(inputs: $0.inputs, value: $0.value)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The value stored under `id`, when it was worked out from inputs equal to `inputs`.
    public func value(_ id: String, inputs: Inputs) -> Value? {
        guard let entry = entries[id], entry.inputs == inputs else { return nil }
        return entry.value
    }
}
