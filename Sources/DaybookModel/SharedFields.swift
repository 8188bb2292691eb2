import Synchronization

/// A model's fields behind one reference, copied when set while shared (copy on write).
///
/// A post or comment is copied by every order, grouping and list of a build; behind one
/// reference a copy is one reference count, where the fields themselves held five to ten.
/// Equal when the fields are, and hashed by them, so the model stays a plain value.
///
/// The fields' getters are marked inlinable, down to the box, but Swift 6.3 serializes the bodies
/// of public declarations only (`ByteReader`), so from another module each read is still a call.
/// Measured on `medium`: the calls are under 2% of a full build's CPU and 5% of a `serve`
/// rebuild's, less than making the models and every type they name public would be worth.
@usableFromInline
struct SharedFields<Fields: KeyedFields>: Sendable, Hashable {
    /// Mutated only while uniquely referenced (`set`), so never while another thread can see it.
    /// The content key is the exception: worked out by whichever thread first asks, so atomic.
    @usableFromInline final class Box: @unchecked Sendable {
        @usableFromInline var fields: Fields
        /// `Fields.contentKey`, once asked for; 0 until then (a key of 0 is stored as 1).
        let key = Atomic<UInt64>(0)
        init(_ fields: Fields) { self.fields = fields }
    }

    @usableFromInline var box: Box

    init(_ fields: Fields) { box = Box(fields) }

    @inlinable var fields: Fields {
        _read { yield box.fields }
    }

    mutating func set(_ change: (inout Fields) -> Void) {
        if isKnownUniquelyReferenced(&box) {
            change(&box.fields)
            box.key.store(0, ordering: .relaxed)
        } else {
            var fields = box.fields
            change(&fields)
            box = Box(fields)
        }
    }

    /// The fields' content key, worked out once per box: the timeline's versions and the page
    /// keys both hash every post and its comments, and hashing each field again, with its text
    /// retained and released on two cores at once, was most of the plan of a one-post rebuild.
    var contentKey: UInt64 {
        let known = box.key.load(ordering: .relaxed)
        if known != 0 { return known }
        let key = max(box.fields.contentKey, 1)
        box.key.store(key, ordering: .relaxed)
        return key
    }

    /// Takes `key` as the fields' content key without working it out: a cache stored it beside
    /// the fields it was worked out from.
    func restoreContentKey(_ key: UInt64) { box.key.store(max(key, 1), ordering: .relaxed) }

    @usableFromInline static func == (a: SharedFields, b: SharedFields) -> Bool { a.box === b.box || a.box.fields == b.box.fields }

    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(box.fields) }
}

/// Fields with a stable hash of everything a page could show of them (`origin` left out).
@usableFromInline
protocol KeyedFields: Sendable, Hashable {
    var contentKey: UInt64 { get }
}
