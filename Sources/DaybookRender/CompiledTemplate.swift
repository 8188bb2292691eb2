import Mustache

/// A template as swift-mustache parsed it, rewritten for rendering typed view models.
///
/// Written by hand because swift-mustache has no typed rendering: its renderer hands every value
/// around as `Any` and asks the runtime, per name, whether it is a lambda, a parent, a custom
/// representation, a renderable, an optional: 53% of a full build's CPU in the `medium` bench,
/// two fifths of it in those casts. Parsing stays swift-mustache's (its whitespace and
/// standalone-tag rules, its errors); only the walk over the parsed tokens is ours. Its tokens
/// are internal to the package, so they are read by reflection once per template, when the
/// theme is compiled. That is why Package.swift pins swift-mustache to one exact release (the
/// alternative, a Mustache parser of our own, would duplicate the whitespace and error rules
/// the theme's authors rely on): a release that changed the tokens would make the default theme
/// fall back to swift-mustache's renderer, which `CompiledTemplateTests` fails on. A template
/// using anything this walk does not reproduce exactly (transforms, lambdas, parents and
/// blocks) is not compiled, and the theme then renders through swift-mustache as before
/// (`ThemeTemplates`).
struct CompiledTemplate: Sendable {
    indirect enum Node: Sendable {
        case text([UInt8])
        /// `{{name}}` (escaped) or `{{{name}}}`; `path` is the name split at its dots.
        case variable(path: NamePath, escaped: Bool)
        case section(path: NamePath, body: CompiledTemplate)
        case invertedSection(path: NamePath, body: CompiledTemplate)
        case partial(name: String, indentation: String?)
        /// `{{>*name}}`: the partial named by the value of `name` (a page's items, each by its kind).
        case dynamicPartial(path: NamePath, indentation: String?)
        /// A `{{% CONTENT_TYPE: … }}` pragma: the escaping of the tokens after it.
        case escaping(Escaping)
    }

    /// How `{{ }}` escapes, as chosen by the template's content type.
    enum Escaping: Sendable {
        /// `ThemeEscaping`, done on bytes.
        case theme
        /// Any other content type (`TEXT`, swift-mustache's `HTML`, one a site registered).
        case custom(any MustacheContentType)

        static let mustacheDefault = Escaping.custom(defaultHTML)
        /// swift-mustache's own `HTML` type, which a partial starts with.
        private static let defaultHTML: any MustacheContentType = {
            // The content type a template without a pragma gets is not public; a one-tag
            // template with the pragma hands it over.
            let probe = try? MustacheTemplate(string: "{{% CONTENT_TYPE: HTML }}")
            return probe.flatMap { CompiledTemplate.reflectTokens(of: $0)?.first }.flatMap {
                if case .escaping(.custom(let type)) = CompiledTemplate.node(from: $0) { return type }
                return nil
            } ?? ThemeEscaping()
        }()
    }

    /// A name split at its dots, with where its lookup starts.
    struct NamePath: Sendable {
        /// `.`: the current context itself.
        var isCurrent: Bool
        /// A name written with a leading dot (`.name`) is looked up in the current context only.
        var currentOnly: Bool
        var parts: [String]

        init(_ name: String) {
            isCurrent = name == "."
            currentOnly = name.first == "."
            parts = name.split(separator: ".").map(String.init)
        }
    }

    var nodes: [Node]

    /// The template's nodes, or `nil` when it uses something only swift-mustache renders.
    init?(_ template: MustacheTemplate) {
        guard let tokens = Self.reflectTokens(of: template) else { return nil }
        // Adjacent texts stay apart: inside an indented partial, each token that starts a line
        // is indented, so merging two would change the output.
        var nodes: [Node] = []
        for token in tokens {
            guard let node = Self.node(from: token) else { return nil }
            nodes.append(node)
        }
        self.nodes = nodes
    }

    /// `MustacheTemplate.tokens`, each as reflection shows an enum case: its name and payload.
    fileprivate static func reflectTokens(of template: MustacheTemplate) -> [(String, Any)]? {
        guard let tokens = Mirror(reflecting: template).children.first(where: { $0.label == "tokens" })?.value else { return nil }
        var cases: [(String, Any)] = []
        for token in Mirror(reflecting: tokens).children {
            guard let payload = Mirror(reflecting: token.value).children.first, let name = payload.label else { return nil }
            cases.append((name, payload.value))
        }
        return cases
    }

    /// One token's node; `nil` for a token this walk does not render (or a shape it does not know).
    fileprivate static func node(from token: (String, Any)) -> Node? {
        let (name, payload) = token
        let fields = Mirror(reflecting: payload).children.map(\.value)
        func noTransforms(_ index: Int) -> Bool { fields.count > index && (fields[index] as? [String])?.isEmpty == true }
        switch name {
        case "text":
            return (payload as? String).map { .text(Array($0.utf8)) }
        case "variable", "unescapedVariable":
            guard fields.count == 2, let variable = fields[0] as? String, noTransforms(1) else { return nil }
            return .variable(path: NamePath(variable), escaped: name == "variable")
        case "section", "invertedSection":
            guard fields.count == 3, let variable = fields[0] as? String, noTransforms(1),
                let template = fields[2] as? MustacheTemplate, let body = CompiledTemplate(template)
            else { return nil }
            return name == "section" ? .section(path: NamePath(variable), body: body) : .invertedSection(path: NamePath(variable), body: body)
        case "partial", "dynamicNamePartial":
            // A parent (`{{<name}}`) is a partial with blocks to inherit: not compiled.
            guard fields.count == 3, let partial = fields[0] as? String, !hasValue(fields[2]) else { return nil }
            let indentation = fields[1] as? String
            guard indentation != nil || !hasValue(fields[1]) else { return nil }
            return name == "partial" ? .partial(name: partial, indentation: indentation) : .dynamicPartial(path: NamePath(partial), indentation: indentation)
        case "contentType":
            guard let type = payload as? any MustacheContentType else { return nil }
            return .escaping(type is ThemeEscaping ? .theme : .custom(type))
        default:
            return nil
        }
    }

    /// Whether an optional held as `Any` holds a value.
    private static func hasValue(_ optional: Any) -> Bool {
        let mirror = Mirror(reflecting: optional)
        return mirror.displayStyle != .optional || !mirror.children.isEmpty
    }
}
