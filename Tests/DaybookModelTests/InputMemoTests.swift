import DaybookModel
import Testing

/// `serve` keeps values worked out per record (`InputMemo`), found by position first, then by id.
@Suite("Input memo")
struct InputMemoTests {
    let memo = InputMemo<String, Int>([(id: "a", inputs: "A", value: 1), (id: "b", inputs: "B", value: 2), (id: "c", inputs: "C", value: 3)])

    @Test("a record in place or moved gets its own value while its inputs are equal; changed or unknown, none")
    func lookups() {
        #expect(memo.value("b", inputs: "B", at: 1) == 2)
        // Moved: another record stands at the position asked.
        #expect(memo.value("b", inputs: "B", at: 0) == 2)
        #expect(memo.value("c", inputs: "C", at: 7) == 3)
        #expect(memo.value("a", inputs: "A") == 1)
        #expect(memo.value("b", inputs: "B, edited", at: 1) == nil)
        #expect(memo.value("d", inputs: "A", at: 0) == nil)
        #expect(InputMemo<String, Int>().value("a", inputs: "A", at: 0) == nil)
    }

    @Test("of an id given twice, either entry serves when its inputs are equal")
    func duplicates() {
        let twice = InputMemo<String, Int>([(id: "a", inputs: "A", value: 1), (id: "a", inputs: "A2", value: 2)])
        #expect(twice.value("a", inputs: "A2", at: 1) == 2)
        #expect(twice.value("a", inputs: "A", at: 5) == 1)
        #expect(twice.value("a", inputs: "A2", at: 5) == nil)
    }
}
