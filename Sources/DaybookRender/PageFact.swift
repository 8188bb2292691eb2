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

    /// Facts compare and hash by their names' bytes, not as Unicode text: a build files a
    /// million of them, and hashing a `String` checks its normalization first. A name written
    /// two ways is two facts of the same version, which costs a few bytes and is never wrong.
    package static func == (lhs: PageFact, rhs: PageFact) -> Bool {
        lhs.kind == rhs.kind && lhs.name.utf8.elementsEqual(rhs.name.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        var name = name
        name.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
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

/// The facts one page (or one card) read, in the order read. A fact read again at once (a
/// post's author, named by its title and then its byline) is kept once; one read again later
/// stays, since looking every fact up in a set cost more than the few repeats it saves. A page
/// is built on one thread; the lock makes a recorder safe to hand on all the same, and costs
/// little against building the page.
///
/// The recorder of the page being built is bound to the task building it (`recording`), the way
/// Observation's `withObservationTracking` tracks the properties a view reads: a builder handed a
/// recorder as a field was copied for every page and card, its thirty shared references retained
/// and released from both cores each time (a tenth of a second of a 5.8 s full build).
package final class PageReads: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [PageFact] = []

    /// The recorder of the page or card being built on this task, if any.
    @TaskLocal static var current: PageReads?

    init() {}

    /// What `body` read, recorded into this recorder.
    func recording<Result>(_ body: () -> Result) -> Result { Self.$current.withValue(self, operation: body) }

    var facts: [PageFact] { lock.withLock { recorded } }

    func record(_ fact: PageFact) {
        lock.withLock {
            if recorded.last != fact { recorded.append(fact) }
        }
    }

    func record(_ facts: [PageFact]) {
        lock.withLock {
            for fact in facts where recorded.last != fact { recorded.append(fact) }
        }
    }
}
