import DaybookFeed
import DaybookMarkdown
import DaybookLanguage
import DaybookModel
import Foundation

extension PageBuilder {
    func entryPage(_ entry: JournalEntry) -> BuiltPage {
        reads?.record(.entry(entry.promptID))
        let title = entry.prompt?.title ?? words["promptMissing"]
        let day = entryDay(entry)
        let item = JournalEntryView(
            partial: .journalEntryFull, isToday: entry.isToday, isSkeleton: entry.isSkeleton, title: title,
            url: urls.link(SiteURLs.entry(entry.promptID)), dateISO: day.description, dateLabel: dates.longDate(day),
            headingLevel: 2, bodyHTML: entry.prompt?.body.map(markdown), language: language(entry.prompt?.lang))
        var sections = [SectionView(style: "entry", isList: false, items: [item])]
        let responses = input.feeds.responses[entry.promptID] ?? []
        if !responses.isEmpty {
            sections.append(
                SectionView(
                    style: "responses", heading: count("responseCount", responses.count), headingID: "responses",
                    isList: true, items: responses.map(responseItem)))
        }
        return BuiltPage(
            body: PageBodyView(kicker: words["journal"], heading: title, sections: sections, root: urls.root, language: language(entry.prompt?.lang)),
            title: "\(title) · \(siteTitle)", bodyClass: "page-entry", current: .journal, feeds: [journalFeed],
            summary: entrySummary(entry, title: title))
    }

    /// The day an entry is shown under: today for today's prompt, else the day it was sent.
    func entryDay(_ entry: JournalEntry) -> CalendarDay {
        if entry.isToday { return input.moment.today }
        return entry.sentAt.map { $0.day(in: zone) } ?? input.moment.today
    }

    /// One response on an entry page, oldest first (CONTRACT §5: `data-response`).
    func responseItem(_ response: Response) -> ResponseView {
        ResponseView(
            dataResponse: response.id, dateISO: response.createdAt.utcText, dateLabel: longDate(response.createdAt),
            timeLabel: clock(response.createdAt), editedISO: response.updatedAt?.utcText,
            editedLabel: response.updatedAt.map(longDate), textHTML: markdown(response.text), language: language(response.lang))
    }

    func entryItem(_ entry: JournalEntry, headingLevel: Int, inList: Bool) -> JournalEntryView {
        reads?.record(.entry(entry.promptID))
        let day = entryDay(entry)
        let responses = input.feeds.responses[entry.promptID] ?? []
        let responseCount = inList && !responses.isEmpty ? responses.count : nil
        return JournalEntryView(
            partial: entry.isSkeleton ? .skeleton : .journalEntry, dataID: inList ? entry.promptID : nil,
            isToday: entry.isToday, isSkeleton: entry.isSkeleton, title: entry.prompt?.title ?? words["promptMissing"],
            url: urls.link(SiteURLs.entry(entry.promptID)), dateISO: day.description, dateLabel: dates.longDate(day), headingLevel: headingLevel,
            excerptHTML: entry.prompt?.body.flatMap(Markdown.firstParagraph(of:)).map(markdown),
            responseCount: responseCount,
            latestResponseHTML: responses.last.flatMap { Markdown.firstParagraph(of: $0.text) }.map(markdown),
            responseLabel: responseCount.map { $0 == 1 ? words["response"] : count("latestOfResponses", $0) } ?? words["latestResponse"],
            latestResponseLanguage: language(responses.last?.lang),
            language: language(entry.prompt?.lang))
    }
}
