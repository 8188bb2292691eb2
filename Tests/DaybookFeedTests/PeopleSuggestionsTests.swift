import DaybookFeed
import DaybookModel
import Testing

/// CONTRACT §13: suggested people, from the follow graph alone.
@Suite("Suggested people")
struct PeopleSuggestionsTests {
    static func users(_ follows: [String: [String]]) -> [String: User] {
        Dictionary(uniqueKeysWithValues: follows.map { ($0.key, User(id: $0.key, follows: $0.value)) })
    }

    @Test("followed by those one follows, without oneself or whom one follows; most followers first, ties by id; at most five")
    func order() {
        let graph = Self.users([
            "ana": ["ben", "cai", "dee"],
            "ben": ["ana", "eve", "fay", "cai", "gus"],
            "cai": ["eve", "fay", "hal"],
            "dee": ["eve", "ivy", "jo", "ben"],
            "eve": [], "fay": [], "gus": [], "hal": [], "ivy": [], "jo": [], "kim": ["ana"],
        ])
        let suggested = PeopleSuggestions(usersByID: graph).suggestions(for: "ana")
        #expect(suggested.map(\.id) == ["eve", "fay", "gus", "hal", "ivy"])
        #expect(suggested.map(\.followedBy) == [["ben", "cai", "dee"], ["ben", "cai"], ["ben"], ["cai"], ["dee"]])
        #expect(PeopleSuggestions(usersByID: graph).suggestions(for: "kim").map(\.id) == ["ben", "cai", "dee"])
    }

    @Test("no suggestions without follows, for an unknown person, or for a follow that is not a user")
    func empty() {
        let graph = Self.users(["ana": [], "ben": ["ghost", "ana"], "cai": ["ben"]])
        let people = PeopleSuggestions(usersByID: graph)
        #expect(people.suggestions(for: "ana").isEmpty)
        #expect(people.suggestions(for: "nobody").isEmpty)
        #expect(people.suggestions(for: "cai").map(\.id) == ["ana"], "ghost has no record; ana is followed by ben")
    }

    @Test("the whole table holds each person's suggestions that has any; the graph's version moves with a follow, not with a name")
    func table() {
        let graph = Self.users(["ana": ["ben"], "ben": ["cai"], "cai": ["ana"], "dee": []])
        let table = PeopleSuggestions(usersByID: graph).all()
        #expect(table.mapValues { $0.map(\.id) } == ["ana": ["cai"], "ben": ["ana"], "cai": ["ben"]])
        let version = PeopleSuggestions.graphVersion(of: graph)
        var renamed = graph
        renamed["dee"] = User(id: "dee", name: "Dee")
        #expect(PeopleSuggestions.graphVersion(of: renamed) == version)
        var followed = graph
        followed["dee"] = User(id: "dee", follows: ["ana"])
        #expect(PeopleSuggestions.graphVersion(of: followed) != version)
        // The order of follows is read: `followedBy` lists them in it.
        let both = Self.users(["ana": ["ben", "cai"], "ben": [], "cai": []])
        #expect(PeopleSuggestions.graphVersion(of: both) != PeopleSuggestions.graphVersion(of: Self.users(["ana": ["cai", "ben"], "ben": [], "cai": []])))
    }
}
