import DaybookModel
import Testing

@Suite("Characters content may carry into HTML and XML")
struct DocumentCharacterTests {
    @Test(
        "refused: C0 but tab and line breaks, DEL, C1, noncharacters",
        arguments: [0x00, 0x01, 0x0B, 0x0C, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9F, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF] as [UInt32])
    func refused(value: UInt32) {
        #expect(!DocumentCharacter.isAllowed(Unicode.Scalar(value)!))
        #expect(DocumentCharacter.cleaned("a\(Character(Unicode.Scalar(value)!))b") == "a\u{FFFD}b")
    }

    @Test("kept: tab, line breaks, text, the neighbours of refused ranges", arguments: [0x09, 0x0A, 0x0D, 0x20, 0x7E, 0xA0, 0xFDCF, 0xFDF0, 0xFFFD, 0x1F600, 0x10FFFD] as [UInt32])
    func kept(value: UInt32) {
        #expect(DocumentCharacter.isAllowed(Unicode.Scalar(value)!))
        let text = "a\(Character(Unicode.Scalar(value)!))b"
        #expect(DocumentCharacter.cleaned(text) == text)
    }
}
