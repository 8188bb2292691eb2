import DaybookFeed
import DaybookModel

/// Suggested people (CONTRACT §13) for every profile, through the memo. They are made of the
/// follow graph alone, which a caption, a comment or a prompt leaves as it was, while working
/// them out for a thousand profiles (the follows of each one's follows) was a twentieth of a
/// rebuild under `serve`.
///
/// Kept as `people.suggestions`: one table, under the follow graph's version
/// (`PeopleSuggestions.graphVersion`).
package enum SuggestionStep {
    static let suggestions = MemoStep("people.suggestions")

    /// Each person's suggestions that has any, by id, as `PeopleSuggestions.all` makes them.
    package static func suggestions(of usersByID: [String: User], memo: inout MemoTable) -> [String: [PeopleSuggestions.Suggestion]] {
        let version = PeopleSuggestions.graphVersion(of: usersByID)
        if let kept = memo.decoded(suggestions, 0, version: version, as: [String: [PeopleSuggestions.Suggestion]].self) { return kept }
        if let bytes = memo.value(suggestions, 0, version: version), let kept = decode(bytes) {
            memo.keepDecoded(suggestions, 0, version: version, kept)
            return kept
        }
        let made = PeopleSuggestions(usersByID: usersByID).all()
        memo.store(suggestions, 0, version: version, decoded: made) { encode(made) }
        return made
    }

    static func encode(_ table: [String: [PeopleSuggestions.Suggestion]]) -> [UInt8] {
        var writer = MemoWriter()
        writer.count(table.count)
        for (id, found) in table.sorted(by: { $0.key < $1.key }) {
            writer.string(id)
            writer.count(found.count)
            for suggestion in found {
                writer.string(suggestion.id)
                writer.count(suggestion.followedBy.count)
                suggestion.followedBy.forEach { writer.string($0) }
            }
        }
        return writer.bytes
    }

    static func decode(_ bytes: ArraySlice<UInt8>) -> [String: [PeopleSuggestions.Suggestion]]? {
        var reader = MemoReader(bytes)
        let people = reader.elements { reader -> (String, [PeopleSuggestions.Suggestion])? in
            guard let id = reader.string(),
                let found = reader.elements({ reader -> PeopleSuggestions.Suggestion? in
                    guard let id = reader.string(), let followedBy = reader.elements({ $0.string() }), !followedBy.isEmpty else { return nil }
                    return PeopleSuggestions.Suggestion(id: id, followedBy: followedBy)
                })
            else { return nil }
            return (id, found)
        }
        guard let people, reader.atEnd else { return nil }
        return Dictionary(people, uniquingKeysWith: { first, _ in first })
    }
}
