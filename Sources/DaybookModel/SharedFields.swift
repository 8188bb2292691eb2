/// A model's fields behind one reference, copied when set while shared (copy on write).
///
/// A post or comment is copied by every order, grouping and list of a build; behind one
/// reference a copy is one reference count, where the fields themselves held five to ten.
/// Equal when the fields are, and hashed by them, so the model stays a plain value.
///
/// Reading a field is inlinable, down to the box: the feeds, the page keys and the triage read
/// posts' ids and dates from other modules some hundreds of thousands of times per `serve`
/// rebuild, and each read was a call, with the post's box retained and released around it.
@usableFromInline
struct SharedFields<Fields: Sendable & Hashable>: Sendable, Hashable {
    /// Mutated only while uniquely referenced (`set`), so never while another thread can see it.
    @usableFromInline final class Box: @unchecked Sendable {
        @usableFromInline var fields: Fields
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
        } else {
            var fields = box.fields
            change(&fields)
            box = Box(fields)
        }
    }

    @usableFromInline static func == (a: SharedFields, b: SharedFields) -> Bool { a.box === b.box || a.box.fields == b.box.fields }

    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(box.fields) }
}
