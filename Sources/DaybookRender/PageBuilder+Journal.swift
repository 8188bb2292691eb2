import DaybookFeed
import DaybookMarkdown
import DaybookModel
import Foundation

extension PageBuilder {
    func entryPage(_ entry: JournalEntry) -> BuiltPage {
        let title = entry.prompt?.title ?? "Prompt not available"
        let day = entryDay(entry)
        let item = JournalEntryView(
            partial: .journalEntryFull, isToday: entry.isToday, isSkeleton: entry.isSkeleton, title: title,
            url: urls.link(SiteURLs.entry(entry.promptID)), dateISO: day.description, dateLabel: day.longText,
            headingLevel: 2, bodyHTML: entry.prompt?.body.map(Markdown.html(from:)))
        return BuiltPage(
            body: PageBodyView(kicker: "Journal", heading: title, sections: [SectionView(style: "entry", isList: false, items: [item])], root: urls.root),
            title: "\(title) · \(siteTitle)", bodyClass: "page-entry", current: .journal, feeds: [journalFeed])
    }

    /// The day an entry is shown under: today for today's prompt, else the day it was sent.
    func entryDay(_ entry: JournalEntry) -> CalendarDay {
        if entry.isToday { return input.moment.today }
        return entry.sentAt.map { $0.day(in: zone) } ?? input.moment.today
    }

    func entryItem(_ entry: JournalEntry, headingLevel: Int, inList: Bool) -> JournalEntryView {
        let day = entryDay(entry)
        return JournalEntryView(
            partial: entry.isSkeleton ? .skeleton : .journalEntry, dataID: inList ? entry.promptID : nil,
            isToday: entry.isToday, isSkeleton: entry.isSkeleton, title: entry.prompt?.title ?? "Prompt not available",
            url: urls.link(SiteURLs.entry(entry.promptID)), dateISO: day.description, dateLabel: day.longText, headingLevel: headingLevel,
            excerptHTML: entry.prompt?.body.flatMap(Markdown.firstParagraph(of:)).map(Markdown.html(from:)))
    }
}
