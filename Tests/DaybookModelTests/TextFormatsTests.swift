import DaybookModel
import Testing

@Suite("Text formats")
struct TextFormatsTests {
    @Test("percent-decoding", arguments: [
        ("/caf%C3%A9/", "/café/"), ("/plain/", "/plain/"), ("%2e%2e", ".."), ("%252e", "%2e"), ("%41%61", "Aa"),
    ] as [(String, String?)])
    func decodes(text: String, expected: String?) {
        #expect(PercentEncoding.decode(text) == expected)
    }

    @Test("malformed escapes and invalid UTF-8 give nil", arguments: ["%", "%4", "%zz", "%c3%28", "%ff"])
    func rejects(text: String) {
        #expect(PercentEncoding.decode(text) == nil)
    }

    @Test("thousands are grouped", arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (1_234_567, "1,234,567"), (-4200, "-4,200")])
    func grouped(n: Int, text: String) {
        #expect(n.grouped == text)
    }
}
