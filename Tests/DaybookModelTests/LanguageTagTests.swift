import DaybookModel
import Testing

/// CONTRACT §11: `language` and `lang` are BCP 47 tags, checked for form only, with a direction.
@Suite("Language tags")
struct LanguageTagTests {
    @Test("well-formed tags, as RFC 5646 writes them", arguments: [
        "en", "pt", "pt-BR", "zh-Hant", "zh-Hant-TW", "sr-Latn-RS", "es-419", "de-CH-1996", "sl-rozaj-biske", "en-US-x-twain",
        "x-private", "i-klingon", "ar-u-nu-latn", "tlh", "EN-gb", "zh-yue-HK", "sgn-BE-FR",
    ])
    func wellFormed(tag: String) {
        #expect(LanguageTag(tag)?.text == tag)
    }

    @Test("malformed tags", arguments: [
        "", "en_US", "e", "en-", "-en", "en--US", "123", "en-US-x", "de-1996-1996", "en-a-bb-a-cc", "en-a", "english language",
        "ñu", "en-US-" + String(repeating: "abcdefgh-", count: 7) + "x",
    ])
    func malformed(tag: String) {
        #expect(LanguageTag(tag) == nil)
    }

    @Test("direction: by the script subtag when there is one, else by the language")
    func direction() {
        let rtl = ["ar", "he", "fa", "ur", "yi", "ps", "az-Arab", "pa-Arab", "ar-EG", "HE-il"]
        let ltr = ["en", "pt", "ja", "zh-Hant", "ar-Latn", "ru", "hi"]
        #expect(rtl.filter { LanguageTag($0)?.isRightToLeft != true } == [])
        #expect(ltr.filter { LanguageTag($0)?.isRightToLeft != false } == [])
        #expect(LanguageTag("ar")?.direction == "rtl")
        #expect(LanguageTag("en")?.direction == "ltr")
    }

    @Test("the lookup chain drops one subtag at a time, and a singleton with what follows it")
    func lookupChain() {
        #expect(LanguageTag("zh-Hant-TW")?.lookupChain == ["zh-Hant-TW", "zh-Hant", "zh"])
        #expect(LanguageTag("en-US-x-twain")?.lookupChain == ["en-US-x-twain", "en-US", "en"])
        #expect(LanguageTag("pt")?.lookupChain == ["pt"])
    }

    @Test("tags compare without case, and keep the case they were written in")
    func equality() {
        #expect(LanguageTag("pt-BR") == LanguageTag("PT-br"))
        #expect(LanguageTag("PT-br")?.text == "PT-br")
        #expect(LanguageTag("pt-BR")?.language == "pt")
    }
}
