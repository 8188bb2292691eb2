@testable import DaybookRender
import DaybookModel
import Foundation
import Mustache
import Testing

/// The compiled theme must render the very bytes swift-mustache renders from the same templates
/// and view models: it replaces swift-mustache's walk, not its meaning.
@Suite("Compiled templates")
struct CompiledTemplateTests {
    /// The theme as `Theme.compile` makes it: each template behind the theme-escaping pragma.
    static func templates(_ sources: [String: String]) throws -> ThemeTemplates {
        ThemeEscaping.register()
        var library = MustacheLibrary()
        for (name, source) in sources { library.register(try MustacheTemplate(string: ThemeEscaping.pragma + source), named: name) }
        return ThemeTemplates(library: library, names: Array(sources.keys))
    }

    /// What the compiled walk and swift-mustache render of `model` through `name`.
    static func both(_ sources: [String: String], _ model: any ViewModel, _ name: String = "t") throws -> (compiled: String, mustache: String) {
        let theme = try templates(sources)
        #expect(theme.isCompiled)
        return (theme.render(model, template: name), theme.library.render(model, withTemplate: name) ?? "<none>")
    }

    /// `CompiledTemplate` reads swift-mustache's parsed tokens, which are internal, by reflection:
    /// what it reads was proven against 2.1.1 alone (this suite, and `TemplateWalkTests` byte for
    /// byte on the example site), and `Package.swift` asks for exactly that release. This fails
    /// the day another one resolves, so that the proof is made again before it is used.
    @Test("swift-mustache resolves to 2.1.1, the release the compiled walk was proven against")
    func provenRelease() throws {
        let resolved = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Package.resolved")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: resolved)) as? [String: Any]
        let pins = try #require(json?["pins"] as? [[String: Any]])
        let mustache = try #require(pins.first { $0["identity"] as? String == "swift-mustache" })
        #expect((mustache["state"] as? [String: Any])?["version"] as? String == "2.1.1")
    }

    @Test("the default theme compiles, every template of it")
    func defaultTheme() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Templates")
        var sources: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".mustache") {
            sources[String(file.dropLast(".mustache".count))] = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        }
        #expect(sources.count >= 20)
        let theme = try Self.templates(sources)
        #expect(theme.isCompiled)
        #expect(theme.compiled?.count == sources.count + 1)
    }

    @Test("every field of every view model, as a variable, unescaped, a section and an inverted section")
    func everyField() throws {
        for sample in FingerprintTests.samples {
            let names = Self.fieldNames(sample)
            let source = names.map { "\($0): [{{\($0)}}] [{{{\($0)}}}] {{#\($0)}}<{{.}}>{{/\($0)}}{{^\($0)}}none{{/\($0)}}\n" }.joined()
            let (compiled, mustache) = try Self.both(["t": source], sample)
            #expect(compiled == mustache, "\(type(of: sample))")
            #expect(!compiled.isEmpty)
        }
    }

    static func fieldNames(_ model: some ViewModel) -> [String] { type(of: model).fields.fields.map(\.name) }

    @Test("names: dotted, leading dot, the current context, climbing, inherited, unknown, reflected")
    func names() throws {
        let source = """
            {{author.name}}|{{author.avatar.src}}|{{author.nothing.src}}|{{.url}}|{{#image}}{{url}}/{{.url}}/{{src}}/{{size.width}}x{{size.height}}/{{size}}{{/image}}
            {{#author}}{{#avatar}}{{name}}:{{dataID}}:{{alt}}{{/avatar}}{{/author}}|{{#tags}}{{name}}@{{url}}[{{dataID}}]{{/tags}}|{{#dateLabel}}{{.}}{{length}}{{/dateLabel}}
            {{#location}}{{name}}{{^url}}(no page){{/url}}{{/location}}|{{#hasTags}}{{commentLabel}}{{/hasTags}}|{{^tags}}none{{/tags}}|{{notAField}}{{#notAField}}x{{/notAField}}{{^notAField}}y{{/notAField}}
            """
        let (compiled, mustache) = try Self.both(["t": source], FingerprintTests.post)
        #expect(compiled == mustache)
        #expect(compiled.hasPrefix("Ana|/i.png||/p/|/p/"))
        #expect(compiled.contains("/i.png/1x2/"))
    }

    @Test("escaping: the theme's, a TEXT pragma, and swift-mustache's HTML in a partial without the pragma")
    func escaping() throws {
        let link = LinkView(url: "/a?b=1&c=<2>", label: "Tom & \"Jerry\" 'café' <b>\u{7}")
        let sources = [
            "t": "{{label}}|{{{label}}}|{{>plain}}|{{% CONTENT_TYPE: TEXT }}{{label}}|{{#isCurrent}}x{{/isCurrent}}{{^isCurrent}}{{url}}{{/isCurrent}}",
            "plain": "{{url}}",
        ]
        let theme = try Self.templates(sources)
        // A partial registered without the pragma starts with swift-mustache's own escaping.
        var library = theme.library
        library.register(try MustacheTemplate(string: "{{url}}~{{label}}"), named: "plain")
        let mixed = ThemeTemplates(library: library, names: ["t", "plain"])
        for theme in [theme, mixed] {
            #expect(theme.isCompiled)
            #expect(theme.render(link, template: "t") == theme.library.render(link, withTemplate: "t"))
        }
        #expect(mixed.render(link, template: "t").contains("&amp;c=&lt;2&gt;~Tom &amp;"))
    }

    @Test("partials: indented standalone partials, nested, with CRLF lines, and partials named by a value")
    func partials() throws {
        let sources = [
            "t": "<ul>\n  {{>row}}\n{{#navigation}}\n    {{>row}}\n{{/navigation}}\n</ul>\r\n  {{>crlf}}\n{{#navigation}}{{>*label}}{{/navigation}}{{>missing}}.",
            "row": "<li>\n  {{>cell}}\n</li>\n",
            "cell": "{{label}}\n{{url}}\n",
            "crlf": "a\r\n{{title}}\r\nb\n{{title}}\n",
            "A": "[A {{url}}]",
            "B": "[B]\n",
        ]
        let layout = LayoutView(
            title: "T", siteTitle: "S", root: "/", bodyClass: "c",
            navigation: [LinkView(url: "/a/", label: "A"), LinkView(url: "/b/", label: "B"), LinkView(url: "/c/", label: "C")],
            feeds: [], footer: [], body: "", lang: "en", scriptWords: "{}")
        let (compiled, mustache) = try Self.both(sources, layout)
        #expect(compiled == mustache)
        #expect(compiled.contains("    <li>\n      A\n      /a/\n    </li>\n"))
        #expect(compiled.hasSuffix("[A /a/][B]\n."))
    }

    @Test("a template with a transform is left to swift-mustache, with the same output")
    func fallback() throws {
        let theme = try Self.templates(["t": "{{uppercased(label)}}{{#navigation}}{{#first()}}first {{/first()}}{{label}}{{/navigation}}"])
        #expect(!theme.isCompiled)
        let layout = LayoutView(
            title: "T", siteTitle: "S", root: "/", bodyClass: "c", navigation: [LinkView(url: "/a/", label: "a"), LinkView(url: "/b/", label: "b")],
            feeds: [], footer: [], body: "", lang: "en", scriptWords: "{}")
        #expect(theme.render(layout, template: "t") == "first ab")
        #expect(theme.render(LinkView(url: "/", label: "low"), template: "t") == "LOW")
    }

    @Test("parents and blocks, and transforms inside sections, are not compiled")
    func notCompiled() throws {
        #expect(!(try Self.templates(["t": "{{<base}}{{$title}}x{{/title}}{{/base}}", "base": "{{$title}}d{{/title}}"]).isCompiled))
        #expect(!(try Self.templates(["t": "{{#navigation}}{{lowercased(label)}}{{/navigation}}"]).isCompiled))
        #expect(try Self.templates(["t": "{{#navigation}}{{label}}{{/navigation}}"]).isCompiled)
    }
}
