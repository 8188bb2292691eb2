@testable import DaybookContent
@testable import DaybookIncremental
@testable import DaybookModel
import Synchronization
import DaybookTestSupport
import Testing

/// Each file's records and the comments' checks through the memo (`ContentStep`): a load through
/// the memo must equal a load from the sources, field for field and place for place, and a
/// damaged memo must cost nothing but time.
@Suite("Content through the memo")
struct ContentStepTests {
    static let archive = """
        -- content/prompts.json --
        [{"id": "p1", "title": "First", "date": "2026-11-21", "body": "Hello *you*", "updatedAt": "2026-11-22T08:00:00Z"},
         {"id": "p2", "title": "Draft", "draft": true}]
        -- content/sent-prompts.json --
        [{"id": "s1", "promptId": "p1", "sentAt": "2026-11-20T08:00:00Z"}]
        -- content/users.json --
        [{"id": "ana", "name": "Ana", "bio": "Hi", "avatar": "images/a.png", "follows": ["ben"]}, {"id": "ben"}]
        -- content/posts.json --
        [{"id": "x1", "author": "ana", "createdAt": "2026-11-20T08:00:00+01:00", "caption": "#Sea", "tags": ["Sky"],
          "image": "images/a.png", "imageAlt": "A", "sensitive": true,
          "location": {"name": "Lisbon", "lat": 38.72, "lon": -9.14}, "updatedAt": "2026-11-21T08:00:00Z"},
         {"id": "x2", "author": "ben", "createdAt": "2026-11-20T07:00:00Z", "location": {"name": "Porto"}}]
        -- content/posts/x3.md --
        ---
        id: x3
        author: ben
        createdAt: 2026-11-19T07:00:00Z
        ---
        A *caption* with é.
        -- content/comments.json --
        [{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "Lovely", "draft": true}]
        -- content/responses/r1.md --
        ---
        id: r1
        promptId: p1
        createdAt: 2026-11-21T09:00:00Z
        ---
        An answer.
        -- content/images/a.png --
        x
        """

    static func snapshot(_ archive: String = archive) -> ContentSnapshot {
        var snapshot = ContentSnapshot()
        for (path, text) in SiteFixture.parse(archive) {
            if ContentSnapshot.isSource(path) { snapshot.sources[path] = Array(text.utf8) } else { snapshot.assets.insert(path) }
        }
        return snapshot
    }

    /// A load through `memo`, and the memo as the next `daybook build` reads it: through its container.
    static func load(_ snapshot: ContentSnapshot, memo: inout MemoTable) -> ContentStep.Result {
        let result = ContentStep.load(snapshot, memo: &memo)
        if !memo.keepsDecoded { memo = MemoTable(container: memo.encoded()[...]) }
        return result
    }

    /// The files `memo` holds records of.
    static func recordFiles(_ memo: MemoTable) -> Int { memo.values(of: ContentStep.records).count }

    @Test("a load through the memo equals a load from the sources, origins included, and stores nothing the second time")
    func roundTrip() throws {
        let snapshot = Self.snapshot()
        let fresh = ContentLoader.load(snapshot)
        var memo = MemoTable()
        let first = Self.load(snapshot, memo: &memo)
        #expect(first.decodedFiles == 7 && Self.recordFiles(memo) == 7)
        let second = Self.load(snapshot, memo: &memo)
        #expect(second.decodedFiles == 0)
        #expect(!memo.changed, "nothing decoded, nothing stored")
        #expect(fresh.diagnostics.isEmpty)
        #expect(first.loaded.content == fresh.content)
        #expect(second.loaded.content == fresh.content)
        #expect(second.loaded.content.posts.map(\.origin) == fresh.content.posts.map(\.origin))
        #expect(second.loaded.content.posts.first { $0.id == "x1" }?.isSensitive == true)
        #expect(second.loaded.content.comments.map(\.isDraft) == [true])
        #expect(second.commentsKey != nil && second.commentsKey == first.commentsKey)
    }

    @Test("posts and comments read from the memo come with their content keys, the very keys their fields give")
    func contentKeysKept() throws {
        let snapshot = Self.snapshot()
        var memo = MemoTable()
        _ = Self.load(snapshot, memo: &memo)
        let second = Self.load(snapshot, memo: &memo).loaded
        #expect(!second.content.posts.isEmpty && !second.content.comments.isEmpty)
        // Stored in the box before anything asked for them, and equal to the fields' own.
        for post in second.content.posts where post.id != "x1" {
            #expect(post.box.box.key.load(ordering: .relaxed) == max(post.box.fields.contentKey, 1), "\(post.id)")
        }
        // x1's `tags` field joins its extra tags in the checks across records, after the memo:
        // its key is worked out afresh when asked, of the post as it is then.
        let x1 = try #require(second.content.posts.first { $0.id == "x1" })
        #expect(x1.box.box.key.load(ordering: .relaxed) == 0)
        #expect(x1.contentKey == max(x1.box.fields.contentKey, 1))
        for comment in second.content.comments {
            #expect(comment.box.box.key.load(ordering: .relaxed) == max(comment.box.fields.contentKey, 1), "\(comment.id)")
        }
        // An edit after the load works the key out again.
        var edited = try #require(second.content.posts.first)
        edited.caption = "Edited"
        #expect(edited.contentKey == max(edited.box.fields.contentKey, 1))
        #expect(edited.contentKey != second.content.posts.first?.contentKey)
    }

    /// The snapshot with every source but site.yml left unread, keyed as `daybook build`'s reader
    /// keys them, and `read` answering for their bytes.
    static func unread(_ snapshot: ContentSnapshot, read: @escaping @Sendable (String) -> [UInt8]?) -> ContentSnapshot {
        var unread = snapshot
        for (path, bytes) in snapshot.sources where path != "site.yml" {
            unread.sources[path] = nil
            unread.unreadSources.insert(path)
            unread.contentKeys[path] = StableHash.ofContent(bytes)
        }
        unread.readSource = read
        return unread
    }

    @Test("unread sources take their records from the memo by their keys, reading nothing; without the memo, their bytes are read")
    func unreadSources() throws {
        let snapshot = Self.snapshot()
        let fresh = ContentLoader.load(snapshot)
        var memo = MemoTable()
        _ = Self.load(snapshot, memo: &memo)
        let fromMemo = Self.load(Self.unread(snapshot) { _ in nil }, memo: &memo).loaded
        #expect(fromMemo.diagnostics.isEmpty)
        #expect(fromMemo.content == fresh.content)
        #expect(fromMemo.content.posts.map(\.origin) == fresh.content.posts.map(\.origin))

        let sources = snapshot.sources
        var empty = MemoTable()
        let read = Self.load(Self.unread(snapshot) { sources[$0] }, memo: &empty)
        #expect(read.loaded.diagnostics.isEmpty)
        #expect(read.loaded.content == fresh.content)
        #expect(read.decodedFiles == 7)
    }

    @Test("an unread source the memo lacks is keyed by the bytes read, not by its status's key; one that cannot be read is an error")
    func unreadSourceChangedSince() throws {
        let snapshot = Self.snapshot()
        let edited = Array(#"[{"id": "x9", "author": "ben", "createdAt": "2026-11-20T07:00:00Z"}]"#.utf8)
        // The status's key says the old bytes; the file holds new ones by the time it is read.
        var memo = MemoTable()
        let loaded = Self.load(Self.unread(snapshot) { $0 == "content/posts.json" ? edited : snapshot.sources[$0] }, memo: &memo)
        #expect(loaded.loaded.content.posts.map(\.id).sorted() == ["x3", "x9"])
        // A later load of the old bytes finds no records of the new ones under their key.
        var again = memo
        #expect(Self.load(snapshot, memo: &again).loaded.content.posts.map(\.id).sorted() == ["x1", "x2", "x3"])
        var now = snapshot
        now.sources["content/posts.json"] = edited
        #expect(Self.load(now, memo: &memo).decodedFiles == 0)

        var empty = MemoTable()
        let gone = Self.load(Self.unread(snapshot) { $0 == "content/comments.json" ? nil : snapshot.sources[$0] }, memo: &empty)
        #expect(gone.loaded.diagnostics.map(\.description) == ["content/comments.json: error: cannot read file"])
        #expect(gone.loaded.content.comments.isEmpty)
        #expect(gone.commentsKey == nil)
    }

    @Test("the memo keeps only the records of the last load: an edited file's old records go")
    func keepsOnlyWhatWasUsed() throws {
        let snapshot = Self.snapshot()
        var memo = MemoTable()
        _ = Self.load(snapshot, memo: &memo)
        var edited = snapshot
        edited.sources["content/comments.json"] = Array(#"[{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "Edited"}]"#.utf8)
        let second = Self.load(edited, memo: &memo)
        #expect(second.decodedFiles == 1)
        #expect(Self.recordFiles(memo) == 7)
    }

    @Test("kept decoded (serve), the next load takes each unchanged file's records as they are, and decodes an edited one")
    func keptDecoded() throws {
        let snapshot = Self.snapshot()
        var memo = MemoTable()
        memo.keepsDecoded = true
        _ = Self.load(snapshot, memo: &memo)
        // Records planted under every file prove that a load takes them instead of decoding.
        for file in ContentSources(snapshot, showsDrafts: true).files {
            let sources = ContentSources(snapshot, showsDrafts: true)
            let (id, version) = (ContentStep.id(of: file), try #require(sources.version(of: file)))
            var records = try #require(memo.decoded(ContentStep.records, id, version: version, as: DecodedRecords.self))
            records.posts = records.posts.map { record in
                var record = record
                record.post.caption = "planted"
                return record
            }
            memo.keepDecoded(ContentStep.records, id, version: version, records)
        }
        var planted = memo
        let second = Self.load(snapshot, memo: &planted)
        #expect(second.loaded.content.posts.map(\.caption) == ["planted", "planted", "planted"])
        // An edited file is decoded.
        var edited = snapshot
        edited.sources["content/posts/x3.md"] = Array("---\nid: x3\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nEdited.\n".utf8)
        let third = Self.load(edited, memo: &planted)
        #expect(third.loaded.content.posts.map(\.caption) == ["planted", "planted", "Edited."])
        // Without `keepsDecoded` nothing is kept decoded: the records come from their bytes.
        var plain = MemoTable()
        _ = Self.load(snapshot, memo: &plain)
        #expect(Self.load(snapshot, memo: &plain).loaded.content.posts.map(\.caption).contains("planted") == false)
    }

    @Test(
        "each load's checks across records report what a fresh load reports, edit after edit, kept in memory (serve) or read back from bytes (build)",
        arguments: [true, false])
    func keptChecks(inMemory: Bool) throws {
        var snapshot = Self.snapshot()
        var memo = MemoTable()
        memo.keepsDecoded = inMemory
        func set(_ path: String, _ text: String) { snapshot.sources[path] = Array(text.utf8) }
        let comments = #"[{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "Hi"}]"#
        let twice = #"[{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "Hi"},"#
            + #" {"id": "c2", "postId": "x9", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "Where?"},"#
            + #" {"id": "c1", "postId": "x1", "author": "ana", "createdAt": "2026-11-20T10:00:00Z", "text": "Again"},"#
            + #" {"id": "c3", "postId": "x1", "author": "zoe", "createdAt": "2026-11-20T10:00:00Z", "text": "Who?"}]"#
        let edits: [(String, () -> Void)] = [
            ("as it is", {}),
            ("a caption edited", { set("content/posts/x3.md", "---\nid: x3\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nNew.\n") }),
            ("the comment's post goes", { set("content/comments.json", comments.replacing("x1", with: "x3")); set("content/posts/x3.md", "") }),
            ("and comes back", { set("content/posts/x3.md", "---\nid: x3\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nBack.\n") }),
            ("its author leaves", { set("content/users.json", #"[{"id": "ana", "name": "Ana"}]"#) }),
            ("and returns", { set("content/users.json", #"[{"id": "ana", "name": "Ana"}, {"id": "ben"}]"#) }),
            ("a comment id repeated, a post and an author missing", { set("content/comments.json", twice) }),
            ("a caption edited beside them", { set("content/posts/x3.md", "---\nid: x3\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nBeside.\n") }),
            ("the missing post comes", { set("content/posts/x9.md", "---\nid: x9\nauthor: ana\ncreatedAt: 2026-11-19T07:00:00Z\n---\nHere.\n") }),
            ("the missing author comes", { set("content/users.json", #"[{"id": "ana", "name": "Ana"}, {"id": "ben"}, {"id": "zoe"}]"#) }),
            ("a post id repeated", { set("content/posts/x3.md", "---\nid: x2\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nTwin.\n") }),
            ("ids whose slugs collide", { set("content/posts/x3.md", "---\nid: X2\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nTwin.\n") }),
            ("made distinct again", { set("content/posts/x3.md", "---\nid: x3\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nOne.\n") }),
            ("a user id repeated", { set("content/users.json", #"[{"id": "ana", "name": "Ana"}, {"id": "ben"}, {"id": "ana"}]"#) }),
        ]
        for (name, edit) in edits {
            edit()
            let kept = Self.load(snapshot, memo: &memo)
            let fresh = ContentLoader.load(snapshot)
            #expect(kept.loaded.diagnostics.map(\.description) == fresh.diagnostics.map(\.description), "\(name)")
            #expect(kept.loaded.content == fresh.content, "\(name)")
        }
        // The edits above did report problems: the comparison was not between two empty lists.
        #expect(ContentLoader.load(snapshot).diagnostics.contains { $0.message.contains("duplicate user id 'ana'") })
    }

    /// `snapshot`'s memo with a problem planted in the kept verdict of the comments' duplicates.
    static func planted(_ snapshot: ContentSnapshot) throws -> MemoTable {
        var memo = MemoTable()
        _ = Self.load(snapshot, memo: &memo)
        let kept = try #require(memo.values(of: ContentStep.duplicates).first.flatMap(ContentValidator.Dropped.init(bytes:)))
        var planted = kept
        planted.problems = [.error("planted", at: SourceLocation(path: "content/comments.json"))]
        // Stored under the same version: the comment files' versions.
        let sources = ContentSources(snapshot, showsDrafts: true)
        var files = StableHash()
        for file in sources.files where file.holdsComments { files.combine(bits: try #require(sources.version(of: file))) }
        memo.store(ContentStep.duplicates, 0, version: files.value, value: planted.bytes)
        return MemoTable(container: memo.encoded()[...])
    }

    @Test("kept checks are taken while the comment files and the ids are the same, and only then")
    func keptChecksTaken() throws {
        var snapshot = Self.snapshot()
        var memo = try Self.planted(snapshot)
        #expect(Self.load(snapshot, memo: &memo).loaded.diagnostics.map(\.message) == ["planted"])
        // A post's caption is not a comment file: still taken.
        snapshot.sources["content/posts/x3.md"] = Array("---\nid: x3\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nNew.\n".utf8)
        #expect(Self.load(snapshot, memo: &memo).loaded.diagnostics.map(\.message) == ["planted"])
        // A comment file edited: checked again.
        snapshot.sources["content/comments.json"] = Array(#"[{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "Hi"}]"#.utf8)
        #expect(Self.load(snapshot, memo: &memo).loaded.diagnostics.isEmpty)
    }

    @Test("a caption edit stores no check; a second comment with the same id stores the new verdict")
    func checksStoredOnlyWhenChanged() throws {
        var snapshot = Self.snapshot()
        var memo = MemoTable()
        _ = Self.load(snapshot, memo: &memo)
        let verdicts = { (memo: MemoTable) in
            [ContentStep.duplicates, ContentStep.references, ContentStep.soundIDs].map { memo.values(of: $0).map(Array.init) }
        }
        let before = verdicts(memo)
        snapshot.sources["content/posts/x3.md"] = Array("---\nid: x3\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nNew.\n".utf8)
        _ = Self.load(snapshot, memo: &memo)
        #expect(verdicts(memo) == before)
        snapshot.sources["content/comments.json"] = Array(#"[{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "a"}, {"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "b"}]"#.utf8)
        let twice = Self.load(snapshot, memo: &memo)
        #expect(twice.loaded.diagnostics.map(\.message) == ["duplicate comment id 'c1' (first defined at content/comments.json:1:9)"])
        #expect(verdicts(memo) != before)
    }

    @Test("a verdict reads back from bytes as it was; damaged bytes are none, and places past the comments are checked again")
    func verdictBytes() throws {
        let dropped = ContentValidator.Dropped(
            places: [0, 2], problems: [.error("twice", at: SourceLocation(path: "content/comments.json", line: 3, column: 4)),
                                       .warning("gone", at: SourceLocation(path: "content/comments/a.md"))])
        #expect(ContentValidator.Dropped(bytes: dropped.bytes[...]) == dropped)
        let bytes = dropped.bytes
        for cut in [0, 5, bytes.count / 2, bytes.count - 1] {
            #expect(ContentValidator.Dropped(bytes: bytes[..<cut]) == nil, "\(cut)")
        }
        #expect(ContentValidator.Dropped(bytes: (bytes + [0])[...]) == nil)
        #expect(ContentValidator.Dropped(bytes: ContentValidator.Dropped(places: [2, 0]).bytes[...]) == nil)
        // Places past the last comment: the load checks the comments itself.
        let snapshot = Self.snapshot()
        var memo = MemoTable()
        _ = Self.load(snapshot, memo: &memo)
        let sources = ContentSources(snapshot, showsDrafts: true)
        var files = StableHash()
        for file in sources.files where file.holdsComments { files.combine(bits: try #require(sources.version(of: file))) }
        memo.store(ContentStep.duplicates, 0, version: files.value, value: ContentValidator.Dropped(places: [5], problems: [.error("planted", at: SourceLocation(path: "content/comments.json"))]).bytes)
        let reloaded = Self.load(snapshot, memo: &memo)
        #expect(reloaded.loaded.diagnostics.isEmpty)
        #expect(reloaded.loaded.content == ContentLoader.load(snapshot).content)
    }

    @Test("a file with a problem is never kept: its warning comes back on every load")
    func problemsAreNotKept() throws {
        let snapshot = Self.snapshot(Self.archive.replacing(#""id": "x2", "author": "ben""#, with: #""id": "x2", "author": "ben", "colour": "red""#))
        var memo = MemoTable()
        let first = Self.load(snapshot, memo: &memo)
        let second = Self.load(snapshot, memo: &memo)
        #expect(first.loaded.diagnostics.count == 1)
        #expect(second.loaded.diagnostics.map(\.description) == first.loaded.diagnostics.map(\.description))
        #expect(Self.recordFiles(memo) == 6)
        #expect(second.decodedFiles == 1)
    }

    @Test("an unchanged file that names a photo is decoded again when the photo goes")
    func imagesAreInTheVersion() throws {
        let snapshot = Self.snapshot()
        var memo = MemoTable()
        _ = Self.load(snapshot, memo: &memo)
        var gone = snapshot
        gone.assets.remove("content/images/a.png")
        let reloaded = Self.load(gone, memo: &memo)
        #expect(reloaded.loaded.diagnostics.map(\.description) == [
            "content/posts.json:2:12: warning: image 'content/images/a.png' does not exist; the post is shown without it",
            "content/users.json:1:54: warning: avatar 'content/images/a.png' does not exist; the user is shown without it",
        ])
    }

    @Test("records whose bytes do not read whole are decoded from the file again")
    func damagedRecords() throws {
        let snapshot = Self.snapshot()
        let fresh = ContentLoader.load(snapshot)
        var memo = MemoTable()
        _ = Self.load(snapshot, memo: &memo)
        let sources = ContentSources(snapshot, showsDrafts: true)
        for file in sources.files {
            let version = try #require(sources.version(of: file))
            let bytes = try #require(memo.value(ContentStep.records, ContentStep.id(of: file), version: version))
            memo.store(ContentStep.records, ContentStep.id(of: file), version: version, value: Array(bytes.dropLast()))
        }
        let reloaded = Self.load(snapshot, memo: &memo)
        #expect(reloaded.decodedFiles == 7)
        #expect(reloaded.loaded.content == fresh.content)
        #expect(reloaded.loaded.content.posts.map(\.origin) == fresh.content.posts.map(\.origin))
    }
}
