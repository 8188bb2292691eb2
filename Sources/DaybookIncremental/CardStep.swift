import DaybookModel
import DaybookRender

/// The post cards of the last build that rendered many (`CardStore`), kept in the memo for the
/// next build that moves many pages: a deleted post moves a thousand timeline pages, whose cards
/// are most likely there.
///
/// Kept as `cards`: `parts` values (ids 0 to 63, each post's card in the part its id's hash
/// names), under no version, since each card carries the versions of the facts it read and is
/// taken only while they hold. Parts, not one value, so that a build never holds all the cards
/// encoded at once (110 MB on a large site, at the end of its build). They are read only once a
/// build has missed `loadAfterMisses` cards, so a caption edit never pays for reading them (22 MB
/// on `medium`).
package enum CardStep {
    package static let cards = MemoStep("cards")
    static let parts = 64

    /// A store for one build over `memo`, which reads the kept cards once the build has missed
    /// `loadAfterMisses` of them.
    package static func store(memo: MemoTable, loadAfterMisses: Int) -> CardStore {
        CardStore(earlier: { (0..<parts).compactMap { memo.value(cards, UInt64($0), version: 0) } }, loadAfterMisses: loadAfterMisses)
    }

    /// A store for one `daybook build` of a site of `posts` posts: it reads the kept cards once it
    /// has missed a twentieth of them.
    package static func store(memo: MemoTable, posts: Int) -> CardStore { store(memo: memo, loadAfterMisses: posts / 20) }

    /// Keeps `store`'s cards for the next build when this one rendered at least as many as make it
    /// read them: a build that rendered a few leaves the kept cards as they are, since a card kept
    /// for an older version of its post is never taken. Each part is stored as it is made (a first
    /// build writes it to the memo's file at once). A table that keeps decoded values (`serve`'s,
    /// which holds the store itself) never stores them.
    package static func keep(_ store: CardStore, memo: inout MemoTable) {
        guard store.rendered >= store.loadAfterMisses, !memo.keepsDecoded else { return }
        store.writeArchives(count: parts) { part, bytes in memo.store(cards, UInt64(part), version: 0, value: bytes) }
    }
}
