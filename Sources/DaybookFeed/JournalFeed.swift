import DaybookModel

/// One place in the journal: a prompt, pinned as today's or listed because it was sent.
package struct JournalEntry: Sendable, Hashable, Identifiable {
    package var promptID: String
    /// `nil` when the prompt does not exist: the entry renders as a placeholder ("skeleton").
    package var prompt: Prompt?
    package var isToday: Bool
    /// When the listed sending happened; for today's entry, a sending earlier today if there was one.
    package var sentAt: Instant?
    /// The sent prompt that put this entry in the list, for a skeleton's warning and the feed id.
    package var sentPromptID: String?

    package var id: String { promptID }
    package var isSkeleton: Bool { prompt == nil }
}

/// CONTRACT §3: the journal's order.
///
/// 1. today's prompt (a prompt dated today; several: the smallest id, and a warning);
/// 2. then sent prompts with `sentAt` ≤ now (all with `--future`), newest first, ties by sent-prompt id;
/// 3. each prompt once, at its first place.
package struct JournalFeed: Sendable {
    package var prompts: [Prompt]
    package var sentPrompts: [SentPrompt]

    package init(prompts: [Prompt], sentPrompts: [SentPrompt]) {
        self.prompts = prompts
        self.sentPrompts = sentPrompts
    }

    /// The sending order of step 2, as a query like any other list's.
    package static func sendingQuery(_ moment: BuildMoment) -> FeedQuery<SentPrompt> {
        FeedQuery(
            includes: { moment.isVisible($0.sentAt) }, key: { -$0.sentAt.secondsSince1970 }, id: \.id)
    }

    /// The ordered entries, with the warnings the order raised. O((p + s) log s).
    ///
    /// A draft prompt (without `--drafts`) takes its sendings with it: no entry, no placeholder.
    package func entries(at moment: BuildMoment) -> (entries: [JournalEntry], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let shown = prompts.filter { moment.isShown(draft: $0.isDraft) }
        let hidden = Set(prompts.filter { !moment.isShown(draft: $0.isDraft) }.map(\.id))
        let promptsByID = Dictionary(shown.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let today = moment.today

        let todays = shown.filter { $0.date == today }.sorted { $0.id.scalarsPrecede($1.id) }
        if todays.count > 1, let chosen = todays.first {
            for other in todays.dropFirst() {
                diagnostics.append(
                    Diagnostic(.alsoToday(prompt: other.id, day: today, chosen: chosen.id), at: other.origin ?? SourceLocation(path: "content/prompts")))
            }
        }

        let sendings = Self.sendingQuery(moment).narrowed { !hidden.contains($0.promptID) }.run(sentPrompts)
        var entries: [JournalEntry] = []
        var listed = Set<String>()
        if let pinned = todays.first {
            let startOfToday = today.start(in: moment.timeZone)
            let sentToday = sendings.first { $0.promptID == pinned.id && $0.sentAt >= startOfToday }
            entries.append(
                JournalEntry(
                    promptID: pinned.id, prompt: pinned, isToday: true, sentAt: sentToday?.sentAt,
                    sentPromptID: sentToday?.id))
            listed.insert(pinned.id)
        }
        for sending in sendings where listed.insert(sending.promptID).inserted {
            let prompt = promptsByID[sending.promptID]
            if prompt == nil {
                diagnostics.append(
                    Diagnostic(
                        .sentPromptToMissingPrompt(sentPrompt: sending.id, prompt: sending.promptID),
                        at: sending.origin ?? SourceLocation(path: "content/sent-prompts")))
            }
            entries.append(
                JournalEntry(
                    promptID: sending.promptID, prompt: prompt, isToday: false, sentAt: sending.sentAt,
                    sentPromptID: sending.id))
        }
        return (entries, diagnostics)
    }
}
