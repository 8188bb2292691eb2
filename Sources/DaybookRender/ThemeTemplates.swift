import Mustache

/// A compiled theme: the templates swift-mustache parsed, and, when every one of them can be,
/// the same templates compiled for typed rendering (`CompiledTemplate`).
///
/// Both render the same bytes; the compiled walk only skips the runtime casts. A site whose own
/// templates use transforms, lambdas, parents or blocks renders through swift-mustache.
package struct ThemeTemplates: Sendable {
    let library: MustacheLibrary
    /// `nil` when a template uses something only swift-mustache renders.
    let compiled: [String: CompiledTemplate]?
    /// `{{words.key}}`: the outermost context of every rendering (`WordsView`).
    var words = WordsRoot(view: WordsView(words: .english))

    /// - Parameters:
    ///   - names: every template the library holds.
    ///   - compiling: `false` renders through swift-mustache whatever the templates.
    init(library: MustacheLibrary, names: [String], compiling: Bool = true) {
        var library = library
        // `{{{html}}}` is valid Mustache; registering it cannot fail.
        try? library.register("{{{html}}}", named: TemplateName.prerendered.rawValue)
        self.library = library
        guard compiling else {
            self.compiled = nil
            return
        }
        var compiled: [String: CompiledTemplate] = [:]
        for name in names + [TemplateName.prerendered.rawValue] {
            guard let template = library.getTemplate(named: name).flatMap(CompiledTemplate.init) else {
                self.compiled = nil
                return
            }
            compiled[name] = template
        }
        self.compiled = compiled
    }

    /// Whether pages render through the compiled walk (false: through swift-mustache).
    package var isCompiled: Bool { compiled != nil }

    /// The page or item `model` rendered through the template `name`; nothing for a template the
    /// theme does not have (`Theme.compile` reports those).
    func render(_ model: any ViewModel, template name: String) -> String {
        guard let compiled else { return library.render(WordsAndView(root: words, view: model), withTemplate: name) ?? "" }
        return String(decoding: renderBytes(model, template: name, compiled: compiled), as: UTF8.self)
    }

    /// The same, as the bytes of a file.
    func renderBytes(_ model: any ViewModel, template name: String) -> [UInt8] {
        guard let compiled else { return Array((library.render(WordsAndView(root: words, view: model), withTemplate: name) ?? "").utf8) }
        return renderBytes(model, template: name, compiled: compiled)
    }

    private func renderBytes(_ model: any ViewModel, template name: String, compiled: [String: CompiledTemplate]) -> [UInt8] {
        guard let template = compiled[name] else { return [] }
        var walk = TemplateWalk(templates: compiled, root: .model(model), words: words)
        walk.render(template, escaping: .mustacheDefault, indentation: nil)
        return walk.out
    }
}

/// One rendering: the output so far and the stack of contexts, as swift-mustache's
/// `MustacheContext` keeps them, but pushed and popped in place.
struct TemplateWalk {
    let templates: [String: CompiledTemplate]
    var out: [UInt8] = []
    var stack: [TemplateValue]

    init(templates: [String: CompiledTemplate], root: TemplateValue, words: WordsRoot) {
        self.templates = templates
        self.stack = [.model(words), root]
        out.reserveCapacity(4096)
    }

    /// Renders `template`'s nodes. With an indentation (inside an indented partial), each node's
    /// output that starts a line of this template's output is indented, as swift-mustache does.
    mutating func render(_ template: CompiledTemplate, escaping start: CompiledTemplate.Escaping, indentation: String?) {
        var escaping = start
        guard let indentation, !indentation.isEmpty else {
            for node in template.nodes { render(node, escaping: &escaping, indentation: indentation) }
            return
        }
        let templateStart = out.count
        for node in template.nodes {
            let nodeStart = out.count
            let atLineStart = endsWithNewline(since: templateStart)
            render(node, escaping: &escaping, indentation: indentation)
            if atLineStart && out.count > nodeStart { out.insert(contentsOf: indentation.utf8, at: nodeStart) }
        }
    }

    /// Whether the output since `start` ends with a "\n" character: a "\r\n" is one character
    /// and does not count, as `String.last == "\n"` does not.
    private func endsWithNewline(since start: Int) -> Bool {
        guard out.count > start, out[out.count - 1] == 0x0A else { return false }
        return !(out.count - 2 >= start && out[out.count - 2] == 0x0D)
    }

    private mutating func render(_ node: CompiledTemplate.Node, escaping: inout CompiledTemplate.Escaping, indentation: String?) {
        switch node {
        case .text(let bytes):
            out.append(contentsOf: bytes)
        case .variable(let path, let escaped):
            guard let value = lookup(path) else { return }
            if case .absent = value { return }
            append(value.described, escaping: escaped ? escaping : nil)
        case .section(let path, let body):
            switch lookup(path) {
            case nil, .absent: return
            case .flag(let flag): if flag { render(body, escaping: escaping, indentation: indentation) }
            case .list(let list):
                for index in 0..<list.count {
                    stack.append(list.element(at: index))
                    render(body, escaping: escaping, indentation: indentation)
                    stack.removeLast()
                }
            case let value?:
                stack.append(value)
                render(body, escaping: escaping, indentation: indentation)
                stack.removeLast()
            }
        case .invertedSection(let path, let body):
            switch lookup(path) {
            case nil, .absent: render(body, escaping: escaping, indentation: indentation)
            case .flag(let flag): if !flag { render(body, escaping: escaping, indentation: indentation) }
            case .list(let list) where list.count == 0:
                // swift-mustache renders an empty list's inverted section with the list as context.
                stack.append(.list(list))
                render(body, escaping: escaping, indentation: indentation)
                stack.removeLast()
            case .some: return
            }
        case .partial(let name, let indented):
            renderPartial(name, indented: indented, indentation: indentation)
        case .dynamicPartial(let path, let indented):
            guard case .text(let name)? = lookup(path) else { return }
            renderPartial(name, indented: indented, indentation: indentation)
        case .escaping(let chosen):
            escaping = chosen
        }
    }

    /// A partial renders in the same contexts, indented further, with Mustache's own escaping
    /// until its first pragma.
    private mutating func renderPartial(_ name: String, indented: String?, indentation: String?) {
        guard let partial = templates[name] else { return }
        render(partial, escaping: .mustacheDefault, indentation: indented.map { (indentation ?? "") + $0 } ?? indentation)
    }

    private mutating func append(_ text: String, escaping: CompiledTemplate.Escaping?) {
        switch escaping {
        case nil: out.append(contentsOf: text.utf8)
        // `escape` hands plain text back as it is, without a copy.
        case .theme?: out.append(contentsOf: HTML.escape(text).utf8)
        case .custom(let type)?: out.append(contentsOf: type.escapeText(text).utf8)
        }
    }

    /// swift-mustache's name resolution: `.` is the current context; the first part of a name is
    /// looked for from the innermost context out (only in the current one for `.name`), the
    /// other parts in what the part before found.
    private func lookup(_ path: CompiledTemplate.NamePath) -> TemplateValue? {
        if path.isCurrent { return stack.last }
        guard let first = path.parts.first else { return stack.last }
        var found: TemplateValue?
        if path.currentOnly {
            found = Self.child(first, of: stack[stack.count - 1])
        } else if first == ViewFieldTable<WordsRoot>.wordsName {
            // Every view passes `words` outwards, so it is the outermost context's: looked for
            // there at once, not in each context of a deep partial first.
            found = Self.child(first, of: stack[0])
        } else {
            for context in stack.reversed() {
                if let child = Self.child(first, of: context) {
                    found = child
                    break
                }
            }
        }
        for part in path.parts.dropFirst() {
            guard let parent = found else { return nil }
            found = Self.child(part, of: parent)
        }
        return found
    }

    /// A context's value under `name`: through the field table for a view model, by reflection
    /// (as swift-mustache's `Mirror` lookup) for anything else.
    private static func child(_ name: String, of context: TemplateValue) -> TemplateValue? {
        switch context {
        case .model(let model): return model.templateChild(named: name)
        // A string, a number or a flag reflects with no children, and an array's children have no
        // labels: swift-mustache's `Mirror` lookup finds nothing in them (`{{url}}` inside
        // `{{#url}}` climbs to the model), so neither is reflected here.
        case .text, .number, .flag, .absent, .list: return nil
        case .other(let value): return reflectedChild(name, of: value)
        }
    }

    private static func reflectedChild(_ name: String, of value: Any) -> TemplateValue? {
        guard let child = Mirror(reflecting: value).children.first(where: { $0.label == name })?.value else { return nil }
        let mirror = Mirror(reflecting: child)
        guard mirror.displayStyle == .optional else { return TemplateValue(any: child) }
        return mirror.children.first.map { TemplateValue(any: $0.value) }
    }
}
