import DaybookContent
import DaybookModel
import DaybookParallel

/// The content through the memo: each file's records, and the checks of the comments, are taken
/// from an earlier build while what they read is the same. A one-post edit then decodes that one
/// file (not 30 MB of JSON and YAML) and neither checks nor matches 100,000 comments again.
///
/// Kept as `content.records` (a file's records, under the version of its decoding: its path, its
/// bytes, and what image fields are checked against), `content.comment-duplicates` (under the
/// comment files' versions), `content.comment-references` (those, and the user and post ids in
/// order) and `content.sound-ids` (a list of user or post ids found unique with distinct slugs).
package enum ContentStep {
    static let records = MemoStep("content.records")
    static let duplicates = MemoStep("content.comment-duplicates")
    static let references = MemoStep("content.comment-references")
    static let soundIDs = MemoStep("content.sound-ids")

    package struct Result: Sendable {
        package var loaded: LoadedSite
        /// Names the loaded comments across builds: their files' versions and the ids they were
        /// checked against, which make the same comments in the same order (`FeedStep` keeps the
        /// comment orders under it). `nil` when a comment file could not be read.
        package var commentsKey: UInt64?
        /// How many files were decoded, not taken from the memo.
        package var decodedFiles = 0
    }

    /// The same load as `ContentLoader.load`, through the memo.
    package static func load(_ snapshot: ContentSnapshot, showsDrafts: Bool = true, memo: inout MemoTable) -> Result {
        let sources = ContentSources(snapshot, showsDrafts: showsDrafts)
        let (table, decoded) = (memo, memo.decodedResults(of: records, as: DecodedRecords.self))
        /// Where a file's records came from this build.
        enum Origin { case decodedBefore, bytes, made }
        let found = Parallel.mapBlocking(sources.files, costlyFirst: \.holdsCollection) {
            file -> (version: UInt64?, decoded: ContentSources.Decoded, origin: Origin) in
            let id = Self.id(of: file)
            if let version = sources.version(of: file) {
                if let kept = decoded.value(id, version: version) {
                    return (version, ContentSources.Decoded(records: kept), .decodedBefore)
                }
                if let bytes = table.value(records, id, version: version), let kept = DecodedRecords(bytes: bytes, path: file.path) {
                    return (version, ContentSources.Decoded(records: kept), .bytes)
                }
            }
            guard let bytes = sources.bytes(of: file) else { return (nil, sources.decode(file), .made) }
            // Versioned by the bytes read now, not the status's key: the file may have changed since.
            return (sources.version(of: file, bytes: bytes), sources.decode(file, bytes: bytes), .made)
        }
        var decodedFiles = 0
        var commentFiles: StableHash? = StableHash()
        // The files whose records stay kept: a file gone, or with a problem now, leaves with its records.
        var kept = Set<UInt64>()
        for (file, entry) in zip(sources.files, found) {
            if file.holdsComments {
                if let version = entry.version { commentFiles?.combine(bits: version) } else { commentFiles = nil }
            }
            guard let version = entry.version else { continue }
            let id = Self.id(of: file)
            switch entry.origin {
            case .decodedBefore:
                kept.insert(id)
            case .bytes:
                kept.insert(id)
                memo.keepDecoded(records, id, version: version, entry.decoded.records)
            case .made:
                decodedFiles += 1
                // Only a file that decoded without a word is kept, so a kept file never hides a problem.
                guard entry.decoded.isClean else { continue }
                kept.insert(id)
                memo.store(records, id, version: version, value: entry.decoded.records.bytes)
                memo.keepDecoded(records, id, version: version, entry.decoded.records)
            }
        }
        memo.retain(records, ids: kept)
        let merged = sources.merged(found.map(\.decoded))
        let checked = validate(merged.records, config: sources.config, commentFiles: commentFiles?.value, memo: &memo)
        let loaded = sources.loaded(merged, content: checked.content, diagnostics: checked.diagnostics)
        return Result(loaded: loaded, commentsKey: checked.commentsKey, decodedFiles: decodedFiles)
    }

    /// `ContentValidator.validate`, its costly stages through the memo: the comments' duplicates
    /// while the comment files are the same, their references while the user and post ids are
    /// too, and each id list's checks while it is a list found sound before.
    static func validate(_ records: DecodedRecords, config: SiteConfig, commentFiles: UInt64?, memo: inout MemoTable)
        -> (content: SiteContent, diagnostics: [Diagnostic], commentsKey: UInt64?)
    {
        let keptDuplicates = commentFiles.flatMap { memo.value(duplicates, 0, version: $0) }.flatMap(ContentValidator.Dropped.init(bytes:))
        let (userIDs, postIDs) = (ContentValidator.digest(records.users.map(\.id)), ContentValidator.digest(records.posts.map(\.id)))
        let (usersSound, postsSound) = (memo.value(soundIDs, 0, version: userIDs) != nil, memo.value(soundIDs, 1, version: postIDs) != nil)
        let userCheck = usersSound ? ContentValidator.Dropped() : ContentValidator.ids(of: records.users)
        let postCheck = postsSound ? ContentValidator.Dropped() : ContentValidator.ids(of: records.posts)
        // An id list whose checks said nothing is sound: the same list is not checked again.
        if !usersSound && userCheck.problems.isEmpty { memo.store(soundIDs, 0, version: userIDs, value: []) }
        if !postsSound && postCheck.problems.isEmpty { memo.store(soundIDs, 1, version: postIDs, value: []) }
        let stages = ContentValidator.stages(
            records,
            duplicates: { keptDuplicates ?? ContentValidator.commentDuplicates(records.comments) },
            people: { ContentValidator.people(users: userCheck, posts: postCheck, records: records, config: config) })
        // Kept places that do not fit these comments (a damaged memo) are worked out again.
        var duplicated = stages.duplicates
        var comments = duplicated.applied(to: records.comments)
        if comments == nil {
            duplicated = ContentValidator.commentDuplicates(records.comments)
            comments = duplicated.applied(to: records.comments)
        }
        let unique = comments ?? []
        if let commentFiles, keptDuplicates == nil || duplicated != keptDuplicates {
            memo.store(duplicates, 0, version: commentFiles, value: duplicated.bytes)
        }
        // What the comments are checked against: the ids of the users and posts that stand.
        let (users, posts) = (stages.people.users, stages.people.posts)
        let commentsKey = commentFiles.map { files in
            var key = StableHash()
            key.combine(bits: files)
            key.combine(bits: ContentValidator.digest(users.map(\.id)))
            key.combine(bits: ContentValidator.digest(posts.map(\.id)))
            return key.value
        }
        let keptReferences = commentsKey.flatMap { memo.value(references, 0, version: $0) }.flatMap(ContentValidator.Dropped.init(bytes:))
        let referenced: ContentValidator.Dropped
        if let keptReferences, keptReferences.applied(to: unique) != nil {
            referenced = keptReferences
        } else {
            referenced = ContentValidator.references(of: unique, users: users, posts: posts)
            if let commentsKey { memo.store(references, 0, version: commentsKey, value: referenced.bytes) }
        }
        let checked = ContentValidator.content(
            duplicates: duplicated, comments: unique, references: referenced, journal: stages.journal, people: stages.people)
        return (checked.content, checked.diagnostics, commentsKey)
    }

    /// A file's id: a hash of its path.
    static func id(of file: ContentSources.File) -> UInt64 { MemoStep.id(file.path) }
}
