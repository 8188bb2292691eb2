import DaybookModel

// A view model says everything a template could read from it through its field table.
//
// Pages are re-rendered only when their fingerprint changes. A template reads nothing but its
// view model (and other templates, which the theme fingerprint covers), so equal fingerprints
// mean equal pages. The fingerprint hashes the table's stored fields, the same table the
// templates read through; a test holds each table to the type's stored properties by name.

extension StableHash {
    /// Hashes a view-model value: strings, numbers, flags, nested view models and arrays of them.
    mutating func combine(viewValue value: Any?) {
        switch value {
        case .none: combine("\u{0}nil")
        case let text as String: combine(text)
        case let number as Int: combine(number)
        case let flag as Bool: combine(flag)
        case let size as ImageSize: combine("\(size.width)x\(size.height)")
        case let post as Post: combine(post)
        case let model as any ViewModel:
            // A field count, not the type's name: String(describing:) of a type costs more than the fields.
            let fields = model.fingerprintFields
            combine("{\(fields.count)")
            for field in fields { combine(viewValue: field) }
        case let items as [any ItemView]:
            combine("[\(items.count)")
            for item in items { combine(viewValue: item) }
        case let list as [Any]:
            combine("[\(list.count)")
            for element in list { combine(viewValue: element) }
        case let optional as any OptionalValue where optional.isNone:
            combine("\u{0}nil")
        default:
            // Every type a view model holds is listed above; anything else is a bug to see in tests.
            assertionFailure("no fingerprint for \(type(of: value))")
            combine(String(describing: value))
        }
    }
}

extension Theme {
    /// A hash of every template and asset, so a theme edit re-renders every page.
    package var fingerprint: UInt64 {
        var hash = StableHash()
        hash.combine("daybook-render-1")
        for name in templates.keys.sorted() {
            hash.combine(name)
            hash.combine(templates[name]!.source)
        }
        for path in assets.keys.sorted() {
            hash.combine(path)
            hash.combine(assets[path]!)
        }
        for language in words.keys.sorted() {
            hash.combine(language)
            for file in words[language]! { hash.combine(file.bytes) }
        }
        return hash.value
    }
}

/// Tells a `nil` held in an `Any` apart: `value as Any?` is always true, whatever `value` holds.
private protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    fileprivate var isNone: Bool { self == nil }
}
