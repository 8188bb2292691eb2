/// Values worked out for each record of a build (a post's version, its hashtags), by the record's
/// id, each with the inputs it was worked out from: the next build of a long-lived process
/// (`serve`) takes a value again when its inputs are equal, and works out only the rest. Records
/// that did not change are the very same values from build to build (decoded once and kept), so
/// comparing them costs little where working the values out again was a tenth of a rebuild.
///
/// Kept in the order the values came (the order of the posts), and looked up by position first:
/// after an edit nearly every record is where it was, and finding it there needs no hashing of
/// its id. The ids are indexed too, for records that moved.
///
/// Inlinable so that each client specializes it for its own inputs: called generically across the
/// module boundary, making and consulting the memos of a `serve` rebuild went through key paths and
/// value witnesses, and took an eighth of its CPU.
package struct InputMemo<Inputs: Equatable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline var ids: [String] = []
    @usableFromInline var inputs: [Inputs] = []
    @usableFromInline var values: [Value] = []
    /// The position of each id (the first, when one comes twice).
    @usableFromInline var positions: [String: Int] = [:]

    @inlinable package init() {}

    /// A memo of `values`, in their order; of two with the same id, the first is found by id.
    @inlinable package init(_ values: [(id: String, inputs: Inputs, value: Value)]) {
        ids.reserveCapacity(values.count)
        inputs.reserveCapacity(values.count)
        self.values.reserveCapacity(values.count)
        positions.reserveCapacity(values.count)
        for (position, entry) in values.enumerated() {
            ids.append(entry.id)
            inputs.append(entry.inputs)
            self.values.append(entry.value)
            if positions[entry.id] == nil { positions[entry.id] = position }
        }
    }

    /// The value stored under `id`, when it was worked out from inputs equal to `inputs`.
    /// - Parameter position: where the record stands in this build's order; the memo looks there first.
    @inlinable package func value(_ id: String, inputs: Inputs, at position: Int? = nil) -> Value? {
        // A value is a function of its inputs, so whichever entry of an id is found serves.
        let found: Int? = if let position, position < ids.count, ids[position] == id { position } else { positions[id] }
        guard let found, self.inputs[found] == inputs else { return nil }
        return values[found]
    }
}
