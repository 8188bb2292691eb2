@testable import DaybookIncremental
import DaybookFeed
import DaybookModel
import Testing

/// Suggested people, worked out once per follow graph and kept in the memo.
@Suite("Suggestion step")
struct SuggestionStepTests {
    static func users(_ follows: [String: [String]]) -> [String: User] {
        Dictionary(uniqueKeysWithValues: follows.map { ($0.key, User(id: $0.key, follows: $0.value)) })
    }

    @Test("made once per follow graph, then taken from the memo (in memory or through its container); a new follow makes them again")
    func kept() throws {
        let graph = Self.users(["ana": ["ben"], "ben": ["cai", "dee"], "cai": [], "dee": ["ana"]])
        var memo = MemoTable()
        let first = SuggestionStep.suggestions(of: graph, memo: &memo)
        #expect(first == PeopleSuggestions(usersByID: graph).all())
        #expect(first["ana"] == [PeopleSuggestions.Suggestion(id: "cai", followedBy: ["ben"]), PeopleSuggestions.Suggestion(id: "dee", followedBy: ["ben"])])
        var saved = MemoTable(container: memo.encoded()[...])
        #expect(SuggestionStep.suggestions(of: graph, memo: &saved) == first)
        #expect(!saved.changed, "nothing made, nothing stored")

        // What the memo holds under the graph's version is taken as it is.
        var planted = MemoTable()
        let version = PeopleSuggestions.graphVersion(of: graph)
        let told = ["cai": [PeopleSuggestions.Suggestion(id: "from-memo", followedBy: ["ana"])]]
        planted.store(SuggestionStep.suggestions, 0, version: version, value: SuggestionStep.encode(told))
        #expect(SuggestionStep.suggestions(of: graph, memo: &planted) == told)

        // A follow moves the version: made again, from the new graph.
        var followed = graph
        followed["cai"] = User(id: "cai", follows: ["dee"])
        let again = SuggestionStep.suggestions(of: followed, memo: &planted)
        #expect(again["cai"] == [PeopleSuggestions.Suggestion(id: "ana", followedBy: ["dee"])])
        #expect(planted.changed)
    }

    @Test("a damaged value is no result: made again")
    func damaged() {
        let graph = Self.users(["ana": ["ben"], "ben": ["cai"], "cai": []])
        var memo = MemoTable()
        let version = PeopleSuggestions.graphVersion(of: graph)
        memo.store(SuggestionStep.suggestions, 0, version: version, value: Array(SuggestionStep.encode(["ana": [.init(id: "from-memo", followedBy: ["ben"])]]).dropLast()))
        #expect(SuggestionStep.suggestions(of: graph, memo: &memo) == ["ana": [PeopleSuggestions.Suggestion(id: "cai", followedBy: ["ben"])]])
    }
}
