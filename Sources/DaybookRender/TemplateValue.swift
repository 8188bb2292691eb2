import DaybookModel
import Mustache

/// What a template name resolves to, typed, so the compiled theme (`CompiledTemplate`) renders
/// a view model without asking the Swift runtime what each value is.
///
/// swift-mustache receives every value as `Any` and tries half a dozen protocol casts on each
/// one (custom representation, parent, renderable, lambda, optional, stream), which were a fifth
/// of a full build's CPU. A view model's field table says each value's kind once, when the table
/// is made (`TemplateReadable`).
enum TemplateValue {
    /// Present but empty: renders as nothing, is false in a section, and stops the lookup from
    /// climbing to an enclosing context (`Absent`).
    case absent
    case text(String)
    case number(Int)
    case flag(Bool)
    case model(any ViewModel)
    case list(any TemplateList)
    /// A value of no kind above (an image's size, a post): read by reflection, as swift-mustache does.
    case other(Any)

    /// The kind of a value that arrives untyped, from reflection: the rare path.
    init(any value: Any) {
        switch value {
        case let text as String: self = .text(text)
        case let number as Int: self = .number(number)
        case let flag as Bool: self = .flag(flag)
        case is Absent: self = .absent
        case let model as any ViewModel: self = .model(model)
        case let sequence as any MustacheSequence: self = .list(AnyTemplateList(Self.elements(of: sequence)))
        default: self = .other(value)
        }
    }

    private static func elements<S: Sequence>(of sequence: S) -> [Any] { sequence.map { $0 } }

    /// The value as swift-mustache would hand it to `String(describing:)`.
    var described: String {
        switch self {
        case .absent: ""
        case .text(let text): text
        case .number(let number): String(number)
        case .flag(let flag): String(flag)
        case .model(let model): String(describing: model)
        case .list(let list): list.described
        case .other(let value): String(describing: value)
        }
    }
}

/// A list a section iterates: each element is pushed as the context of one pass.
protocol TemplateList {
    var count: Int { get }
    func element(at index: Int) -> TemplateValue
    /// The list as `String(describing:)` prints the value swift-mustache would have.
    var described: String { get }
}

extension Array: TemplateList where Element: TemplateReadable {
    func element(at index: Int) -> TemplateValue { self[index].templateValue }
    var described: String { String(describing: self) }
}

/// The items of a section, of mixed kinds: `[any ItemView]` cannot conform through its element.
struct ItemList: TemplateList {
    var items: [any ItemView]
    var count: Int { items.count }
    func element(at index: Int) -> TemplateValue { .model(items[index]) }
    var described: String { String(describing: items.map { $0 as Any }) }
}

/// Elements of unknown kinds, from reflection.
struct AnyTemplateList: TemplateList {
    var elements: [Any]
    init(_ elements: [Any]) { self.elements = elements }
    var count: Int { elements.count }
    func element(at index: Int) -> TemplateValue { TemplateValue(any: elements[index]) }
    var described: String { String(describing: elements) }
}

/// A type a view model's field may hold, with its kind for templates. Its metatype is
/// `Sendable`: the view fields' closures (`ViewField`), called from every core, capture it.
protocol TemplateReadable: SendableMetatype {
    var templateValue: TemplateValue { get }
}

extension String: TemplateReadable {
    var templateValue: TemplateValue { .text(self) }
}

extension Int: TemplateReadable {
    var templateValue: TemplateValue { .number(self) }
}

extension Bool: TemplateReadable {
    var templateValue: TemplateValue { .flag(self) }
}

extension Optional: TemplateReadable where Wrapped: TemplateReadable {
    /// `nil` is `Absent`: a field without a value never falls through to an outer context.
    var templateValue: TemplateValue { map(\.templateValue) ?? .absent }
}

extension Array: TemplateReadable where Element: TemplateReadable {
    var templateValue: TemplateValue { .list(self) }
}

extension ImageSize: TemplateReadable {
    var templateValue: TemplateValue { .other(self) }
}

extension Post: TemplateReadable {
    var templateValue: TemplateValue { .other(self) }
}
