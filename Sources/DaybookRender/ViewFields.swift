import DaybookModel
import Mustache

/// Stands for a field that has no value. Mustache looks a missing name up in the enclosing
/// contexts, so a post without a location would otherwise pick up the post's own `url`; this
/// value is present but renders as nothing and counts as false in sections.
struct Absent: MustacheCustomRenderable, Sendable {
    var renderText: String { "" }
    var isNull: Bool { true }
}

/// One name a template can read from a view model.
///
/// A field is either stored (it reads a stored property, and feeds the page fingerprint) or
/// derived (computed from stored fields, so the fingerprint already covers it), or inherited (a
/// name the model deliberately leaves to the enclosing context, such as an image's `url`, which
/// is the post's link).
struct ViewField<Model>: Sendable {
    enum Kind: Sendable { case stored, derived, inherited }

    let name: String
    let kind: Kind
    /// The value a template sees; `nil` means "no value" and renders as nothing.
    let read: @Sendable (Model) -> Any?
    /// The same value, typed, for the compiled theme; `nil` only for an inherited name.
    let value: @Sendable (Model) -> TemplateValue?

    init(name: String, kind: Kind, read: @escaping @Sendable (Model) -> Any?, value: @escaping @Sendable (Model) -> TemplateValue?) {
        (self.name, self.kind, self.read, self.value) = (name, kind, read, value)
    }

    /// A field whose value the caller reads itself (a list of mixed items, a value shown only
    /// under a condition).
    init<Value: TemplateReadable>(name: String, kind: Kind, _ read: @escaping @Sendable (Model) -> Value?) {
        self.init(name: name, kind: kind, read: { model in read(model).map { $0 as Any } }, value: { read($0).templateValue })
    }

    /// A stored property that always has a value, read by a closure rather than a key path:
    /// projecting a key path looked up type metadata at run time, 3% of a full build.
    static func stored<Value: TemplateReadable>(_ name: String, _ read: @escaping @Sendable (Model) -> Value) -> ViewField {
        ViewField(name: name, kind: .stored, read: { read($0) }, value: { read($0).templateValue })
    }

    /// A stored optional property: `nil` renders as nothing and never falls through to an outer context.
    static func stored<Value: TemplateReadable>(_ name: String, _ read: @escaping @Sendable (Model) -> Value?) -> ViewField {
        ViewField(name: name, kind: .stored, read)
    }

    /// A value computed from stored fields, for templates (`hasTags`, `initial`).
    static func derived<Value: TemplateReadable>(_ name: String, _ read: @escaping @Sendable (Model) -> Value) -> ViewField {
        ViewField(name: name, kind: .derived, read: { read($0) }, value: { read($0).templateValue })
    }

    /// A value computed from stored fields that may be missing (`width` of an image without a size).
    static func derived<Value: TemplateReadable>(_ name: String, _ read: @escaping @Sendable (Model) -> Value?) -> ViewField {
        ViewField(name: name, kind: .derived, read)
    }

    /// A name this model leaves to the enclosing context on purpose.
    static func inherited(_ name: String) -> ViewField {
        ViewField(name: name, kind: .inherited, read: { _ in nil }, value: { _ in nil })
    }
}

/// A view model's one list of fields: it answers Mustache's lookups and makes the fingerprint.
struct ViewFieldTable<Model>: Sendable {
    let fields: [ViewField<Model>]
    /// The fields' names, in table order, searched from the front: a table has a few dozen at
    /// most, and comparing short names costs less than hashing one (a dictionary lookup per
    /// `{{name}}` was 2% of a full build).
    private let names: [String]
    private let stored: [ViewField<Model>]

    init(_ fields: [ViewField<Model>]) {
        self.fields = fields
        self.names = fields.map(\.name)
        self.stored = fields.filter { $0.kind == .stored }
    }

    /// The first field named `name`.
    private func index(of name: String) -> Int? { names.firstIndex(of: name) }

    /// The names of the stored fields, in table order: what a completeness test compares against `Mirror`.
    var storedNames: [String] { stored.map(\.name) }

    /// The theme's words (`WordsView`): a name every table leaves to the outermost context.
    static var wordsName: String { "words" }

    /// What a template reads under `name`. A name the table does not list renders as nothing
    /// rather than silently picking up a field of the same name from an enclosing model.
    func lookup(_ name: String, in model: Model) -> Any? {
        guard let index = index(of: name) else { return name == Self.wordsName ? nil : Absent() }
        let field = fields[index]
        if field.kind == .inherited { return nil }
        return field.read(model) ?? Absent()
    }

    /// The typed twin of `lookup`: `nil` for an inherited name, `.absent` for one not listed.
    func value(_ name: String, in model: Model) -> TemplateValue? {
        guard let index = index(of: name) else { return name == Self.wordsName ? nil : .absent }
        return fields[index].value(model)
    }

    /// Every stored field's value, in table order, `nil` for an absent optional.
    func fingerprintValues(of model: Model) -> [Any?] {
        stored.map { $0.read(model) }
    }
}

/// A value a template can read: its fields come from one table, which drives both the template
/// lookup and the fingerprint that decides whether a page is re-rendered.
protocol ViewModel: Sendable, MustacheParent, TemplateReadable {
    static var fields: ViewFieldTable<Self> { get }
    /// A requirement, not only an extension method, so that a lookup through `any ViewModel`
    /// (the compiled walk's) reaches each type's own copy, specialised for it: the generic one
    /// looked up the table's type metadata at run time on every lookup, 3% of a full build.
    func templateChild(named name: String) -> TemplateValue?
}

extension ViewModel {
    func child(named name: String) -> Any? { Self.fields.lookup(name, in: self) }

    /// What the compiled theme reads under `name`: `nil` sends the lookup to the enclosing context.
    func templateChild(named name: String) -> TemplateValue? { Self.fields.value(name, in: self) }

    var templateValue: TemplateValue { .model(self) }

    /// Every stored field, for the fingerprint.
    var fingerprintFields: [Any?] { Self.fields.fingerprintValues(of: self) }
}
