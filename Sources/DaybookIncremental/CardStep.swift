import DaybookModel
import DaybookRender

/// The post cards of the last build that rendered many (`CardStore`), kept in the memo for the
/// next build that moves many pages: a deleted post moves a thousand timeline pages, whose cards
/// are most likely there.
///
/// Kept as `cards`: one value, under no version, since each card carries the versions of the
/// facts it read and is taken only while they hold. It is read only once a build has missed
/// `loadAfterMisses` cards, so a caption edit never pays for reading it (22 MB on `medium`).
package enum CardStep {
    package static let cards = MemoStep("cards")

    /// A store for one build over `memo`, which reads the kept cards once the build has missed
    /// `loadAfterMisses` of them.
    package static func store(memo: MemoTable, loadAfterMisses: Int) -> CardStore {
        CardStore(earlier: { memo.value(cards, 0, version: 0) }, loadAfterMisses: loadAfterMisses)
    }

    /// A store for one `daybook build` of a site of `posts` posts: it reads the kept cards once it
    /// has missed a twentieth of them.
    package static func store(memo: MemoTable, posts: Int) -> CardStore { store(memo: memo, loadAfterMisses: posts / 20) }

    /// Keeps `store`'s cards for the next build when this one rendered at least as many as make it
    /// read them: a build that rendered a few leaves the kept cards as they are, since a card kept
    /// for an older version of its post is never taken. A table that keeps decoded values
    /// (`serve`'s, which holds the store itself) never encodes them.
    package static func keep(_ store: CardStore, memo: inout MemoTable) {
        guard store.rendered >= store.loadAfterMisses else { return }
        memo.store(cards, 0, version: 0, decoded: store) { store.archive }
    }
}
