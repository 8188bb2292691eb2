@testable import DaybookRender
import Mustache
import Testing

/// The theme's `{{ }}` escaping is Daybook's own (for speed); it must give the bytes
/// swift-mustache's HTML escaping gives, and a template must not show the pragma that selects it.
@Suite("Theme escaping")
struct ThemeEscapingTests {
    @Test("the same bytes as Mustache's HTML escaping, for plain, special and non-ASCII text")
    func sameAsMustache() throws {
        ThemeEscaping.register()
        let source = "<p title=\"{{x}}\">{{x}}</p>\n{{#list}}[{{.}}]{{/list}}\n"
        let plain = try MustacheTemplate(string: source)
        let themed = try MustacheTemplate(string: ThemeEscaping.pragma + source)
        for text in ["", "plain ascii, 100%", "<b>&amp; \"q\" 'a'</b>", "café ☕️ 日本 & <é>", "a\u{301}>", "tab\tand\nline"] {
            let context: [String: Any] = ["x": text, "list": [text, "<"]]
            #expect(themed.render(context) == plain.render(context), "\(text)")
        }
        #expect(themed.render(["x": "<"]) == "<p title=\"&lt;\">&lt;</p>\n\n")
    }
}
