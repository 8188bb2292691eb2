import DaybookModel
import Foundation

/// One thing a page's view read from the site, named so that a later build can ask whether it
/// changed. `PageBuilder` records every fact it reads while it builds a page (`PageReads`), the
/// way a view observes the properties it reads: a page's key is then made of what it read
/// (`FactVersions`), never of a second, hand-written description of the builder that could drift
/// from it.
package enum PageFact: Hashable, Sendable {
    /// A post as a card shows it: its record, its comment count, its place's page and the tags
    /// that put it on a tag page.
    case post(String)
    /// A post's comments, in the order its page shows them.
    case comments(String)
    /// The posts before and after a post by the same author.
    case neighbours(String)
    /// A person as an author or a link shows them: whether they exist, their name, their avatar.
    case person(String)
    /// A person's profile: their record, their bio's dropped links and their followers.
    case profile(String)
    /// An image as content names it: its size and the copies the build made.
    case image(String)
    /// A journal entry: its prompt, its sending, whether it is today's, its responses, and the
    /// links their Markdown drops.
    case entry(String)
    /// Whether `#tag` or `@id`, named in a caption or comment, has a page to link to.
    case linkTarget(String)

    package var kind: UInt8 {
        switch self {
        case .post: 0
        case .comments: 1
        case .neighbours: 2
        case .person: 3
        case .profile: 4
        case .image: 5
        case .entry: 6
        case .linkTarget: 7
        }
    }

    package var name: String {
        switch self {
        case .post(let id), .comments(let id), .neighbours(let id), .person(let id), .profile(let id), .image(let id), .entry(let id),
            .linkTarget(let id):
            id
        }
    }

    package init?(kind: UInt8, name: String) {
        switch kind {
        case 0: self = .post(name)
        case 1: self = .comments(name)
        case 2: self = .neighbours(name)
        case 3: self = .person(name)
        case 4: self = .profile(name)
        case 5: self = .image(name)
        case 6: self = .entry(name)
        case 7: self = .linkTarget(name)
        default: return nil
        }
    }
}

/// The facts one page (or one card) read, in the order first read. A page is built on one
/// thread; the lock makes a recorder safe to hand on all the same, and costs little against
/// building the page.
package final class PageReads: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [PageFact] = []
    private var seen: Set<PageFact> = []

    init() {}

    var facts: [PageFact] { lock.withLock { recorded } }

    func record(_ fact: PageFact) {
        lock.withLock {
            if seen.insert(fact).inserted { recorded.append(fact) }
        }
    }

    func record(_ facts: [PageFact]) {
        for fact in facts { record(fact) }
    }
}
