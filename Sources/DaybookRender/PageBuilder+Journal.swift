import DaybookFeed
import DaybookMarkdown
import DaybookModel
import Foundation

extension PageBuilder {
    func entryPage(_ entry: JournalEntry) -> BuiltPage {
        reads?.record(.entry(entry.promptID))
        let title = entry.prompt?.title ?? "Prompt not available"
        let day = entryDay(entry)
        let item = JournalEntryView(
            partial: .journalEntryFull, isToday: entry.isToday, isSkeleton: entry.isSkeleton, title: title,
            url: urls.link(SiteURLs.entry(entry.promptID)), dateISO: day.description, dateLabel: day.longText,
            headingLevel: 2, bodyHTML: entry.prompt?.body.map(markdown))
        var sections = [SectionView(style: "entry", isList: false, items: [item])]
        let responses = input.feeds.responses[entry.promptID] ?? []
        if !responses.isEmpty {
            sections.append(
                SectionView(
                    style: "responses", heading: count(responses.count, "response", "responses"), headingID: "responses",
                    isList: true, items: responses.map(responseItem)))
        }
        return BuiltPage(
            body: PageBodyView(kicker: "Journal", heading: title, sections: sections, root: urls.root),
            title: "\(title) · \(siteTitle)", bodyClass: "page-entry", current: .journal, feeds: [journalFeed])
    }

    /// The day an entry is shown under: today for today's prompt, else the day it was sent.
    func entryDay(_ entry: JournalEntry) -> CalendarDay {
        if entry.isToday { return input.moment.today }
        return entry.sentAt.map { $0.day(in: zone) } ?? input.moment.today
    }

    /// One response on an entry page, oldest first (CONTRACT §5: `data-response`).
    func responseItem(_ response: Response) -> ResponseView {
        ResponseView(
            dataResponse: response.id, dateISO: response.createdAt.utcText, dateLabel: response.createdAt.day(in: zone).longText,
            timeLabel: clock(response.createdAt), editedISO: response.updatedAt?.utcText,
            editedLabel: response.updatedAt.map { $0.day(in: zone).longText }, textHTML: markdown(response.text))
    }

    func entryItem(_ entry: JournalEntry, headingLevel: Int, inList: Bool) -> JournalEntryView {
        reads?.record(.entry(entry.promptID))
        let day = entryDay(entry)
        let responses = input.feeds.responses[entry.promptID] ?? []
        return JournalEntryView(
            partial: entry.isSkeleton ? .skeleton : .journalEntry, dataID: inList ? entry.promptID : nil,
            isToday: entry.isToday, isSkeleton: entry.isSkeleton, title: entry.prompt?.title ?? "Prompt not available",
            url: urls.link(SiteURLs.entry(entry.promptID)), dateISO: day.description, dateLabel: day.longText, headingLevel: headingLevel,
            excerptHTML: entry.prompt?.body.flatMap(Markdown.firstParagraph(of:)).map(markdown),
            responseCount: inList && !responses.isEmpty ? responses.count : nil,
            latestResponseHTML: responses.last.flatMap { Markdown.firstParagraph(of: $0.text) }.map(markdown))
    }
}
