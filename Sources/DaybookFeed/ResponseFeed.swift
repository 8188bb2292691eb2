import DaybookModel

/// CONTRACT §5 and §8: the responses each journal entry shows.
///
/// A response is shown on its prompt's entry page when that entry exists; one whose prompt does
/// not exist, or has no entry, is a warning and is not shown. A response a draft prompt takes
/// with it, a draft response and one after now are left out without a word.
package enum ResponseFeed {
    /// Oldest `createdAt` first, ties by id; after now only with `--future`, drafts only with `--drafts`.
    package static func query(_ moment: BuildMoment) -> FeedQuery<Response> {
        FeedQuery(
            includes: { moment.isVisible($0.createdAt, draft: $0.isDraft) }, key: { $0.createdAt.secondsSince1970 }, id: \.id)
    }

    /// The shown responses of each listed entry, by prompt id, in entry-page order, with the
    /// warnings for the responses that have nowhere to go. O(r log r).
    package static func shown(
        _ responses: [Response], prompts: [Prompt], entries: [JournalEntry], moment: BuildMoment
    ) -> (byPrompt: [String: [Response]], diagnostics: [Diagnostic]) {
        let promptsByID = Dictionary(prompts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let listed = Set(entries.filter { !$0.isSkeleton }.map(\.promptID))
        var byPrompt: [String: [Response]] = [:]
        var diagnostics: [Diagnostic] = []
        for response in query(moment).run(responses) {
            let at = response.origin ?? SourceLocation(path: "content/responses")
            guard let prompt = promptsByID[response.promptID] else {
                diagnostics.append(Diagnostic(.responseToMissingPrompt(response: response.id, prompt: response.promptID), at: at))
                continue
            }
            guard moment.isShown(draft: prompt.isDraft) else { continue }
            guard listed.contains(prompt.id) else {
                diagnostics.append(Diagnostic(.responseWithoutEntry(response: response.id, prompt: prompt.id), at: at))
                continue
            }
            byPrompt[prompt.id, default: []].append(response)
        }
        return (byPrompt, diagnostics)
    }
}
