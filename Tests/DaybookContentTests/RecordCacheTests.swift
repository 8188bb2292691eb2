@testable import DaybookContent
@testable import DaybookModel
import Synchronization
import DaybookTestSupport
import Testing

/// Issue 14: decoded content cached by each file's bytes. A load from the cache must equal a
/// load from the sources, field for field and place for place, and a damaged cache must cost
/// nothing but time.
@Suite("Record cache")
struct RecordCacheTests {
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

    @Test("a load from the cache equals a load from the sources, origins included, and changes nothing")
    func roundTrip() throws {
        let snapshot = Self.snapshot()
        let fresh = ContentLoader.load(snapshot)
        let first = ContentLoader.load(snapshot, cache: RecordCache())
        let cache = try #require(first.cache)
        #expect(cache.changed)
        #expect(cache.used.count == 7)
        // Through the bytes of an archive, as the next build reads it.
        let second = ContentLoader.load(snapshot, cache: RecordCache(archive: cache.archive))
        #expect(fresh.diagnostics.isEmpty)
        #expect(second.content == fresh.content)
        #expect(second.content.posts.map(\.origin) == fresh.content.posts.map(\.origin))
        #expect(second.content.posts.first { $0.id == "x1" }?.isSensitive == true)
        #expect(second.content.comments.map(\.isDraft) == [true])
        #expect(second.cache?.changed == false)
    }

    @Test("posts and comments read from the cache come with their content keys, the very keys their fields give")
    func contentKeysKept() throws {
        let snapshot = Self.snapshot()
        let cache = try #require(ContentLoader.load(snapshot, cache: RecordCache()).cache)
        let second = ContentLoader.load(snapshot, cache: RecordCache(archive: cache.archive))
        #expect(!second.content.posts.isEmpty && !second.content.comments.isEmpty)
        // Stored in the box before anything asked for them, and equal to the fields' own.
        for post in second.content.posts where post.id != "x1" {
            #expect(post.box.box.key.load(ordering: .relaxed) == max(post.box.fields.contentKey, 1), "\(post.id)")
        }
        // x1's `tags` field joins its extra tags in the checks across records, after the cache:
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

    @Test("unread sources take their records from the cache by their keys, reading nothing; without the cache, their bytes are read")
    func unreadSources() throws {
        let snapshot = Self.snapshot()
        let fresh = ContentLoader.load(snapshot)
        let cache = try #require(ContentLoader.load(snapshot, cache: RecordCache()).cache)
        let fromCache = ContentLoader.load(Self.unread(snapshot) { _ in nil }, cache: RecordCache(archive: cache.archive))
        #expect(fromCache.diagnostics.isEmpty)
        #expect(fromCache.content == fresh.content)
        #expect(fromCache.content.posts.map(\.origin) == fresh.content.posts.map(\.origin))

        let sources = snapshot.sources
        let read = ContentLoader.load(Self.unread(snapshot) { sources[$0] }, cache: RecordCache())
        #expect(read.diagnostics.isEmpty)
        #expect(read.content == fresh.content)
        #expect(read.cache?.archive == cache.archive)
    }

    @Test("an unread source the cache lacks is keyed by the bytes read, not by its status's key; one that cannot be read is an error")
    func unreadSourceChangedSince() throws {
        let snapshot = Self.snapshot()
        let edited = Array(#"[{"id": "x9", "author": "ben", "createdAt": "2026-11-20T07:00:00Z"}]"#.utf8)
        // The status's key says the old bytes; the file holds new ones by the time it is read.
        let loaded = ContentLoader.load(Self.unread(snapshot) { $0 == "content/posts.json" ? edited : snapshot.sources[$0] }, cache: RecordCache())
        #expect(loaded.content.posts.map(\.id).sorted() == ["x3", "x9"])
        var now = snapshot
        now.sources["content/posts.json"] = edited
        let cache = try #require(loaded.cache)
        // A later load of the old bytes finds no records of the new ones under their key.
        let old = ContentLoader.load(snapshot, cache: RecordCache(archive: cache.archive))
        #expect(old.content.posts.map(\.id).sorted() == ["x1", "x2", "x3"])
        #expect(ContentLoader.load(now, cache: RecordCache(archive: cache.archive)).cache?.changed == false)

        let gone = ContentLoader.load(Self.unread(snapshot) { $0 == "content/comments.json" ? nil : snapshot.sources[$0] })
        #expect(gone.diagnostics.map(\.description) == ["content/comments.json: error: cannot read file"])
        #expect(gone.content.comments.isEmpty)
    }

    @Test("the cache keeps only the entries of the last load: an edited file's old entry goes")
    func keepsOnlyWhatWasUsed() throws {
        let snapshot = Self.snapshot()
        let first = try #require(ContentLoader.load(snapshot, cache: RecordCache()).cache)
        var edited = snapshot
        edited.sources["content/comments.json"] = Array(#"[{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "Edited"}]"#.utf8)
        // Held in memory, as `serve` holds it, without going through an archive.
        let second = try #require(ContentLoader.load(edited, cache: first).cache)
        #expect(second.changed)
        #expect(second.used.count == 7)
        #expect(second.entries.count == 7)
        #expect(Set(second.entries.keys) == second.used)
    }

    @Test("kept decoded (serve), the next load takes each unchanged file's records as they are, and decodes an edited one")
    func keptDecoded() throws {
        let snapshot = Self.snapshot()
        var start = RecordCache()
        start.keepsDecoded = true
        let first = try #require(ContentLoader.load(snapshot, cache: start).cache)
        #expect(Set(first.decoded.keys) == first.used)
        // Records planted under every key prove that a load takes them instead of decoding.
        var planted = first
        for key in planted.decoded.keys {
            planted.decoded[key]!.posts = planted.decoded[key]!.posts.map { record in
                var record = record
                record.post.caption = "planted"
                return record
            }
        }
        let second = ContentLoader.load(snapshot, cache: planted)
        #expect(second.content.posts.map(\.caption) == ["planted", "planted", "planted"])
        // An edited file is decoded, and only this load's entries stay decoded.
        var edited = snapshot
        edited.sources["content/posts/x3.md"] = Array("---\nid: x3\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nEdited.\n".utf8)
        let third = ContentLoader.load(edited, cache: planted)
        #expect(third.content.posts.map(\.caption) == ["planted", "planted", "Edited."])
        let kept = try #require(third.cache)
        #expect(Set(kept.decoded.keys) == kept.used && kept.decoded.count == 7)
        // Without `keepsDecoded` nothing is kept.
        #expect(try #require(ContentLoader.load(snapshot, cache: RecordCache()).cache).decoded.isEmpty)
    }

    @Test(
        "each load's checks across records report what a fresh load reports, edit after edit, kept in memory (serve) or read back from bytes (build)",
        arguments: [true, false])
    func keptChecks(inMemory: Bool) throws {
        var snapshot = Self.snapshot()
        var cache = RecordCache()
        cache.keepsDecoded = inMemory
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
            let kept = ContentLoader.load(snapshot, cache: cache)
            let fresh = ContentLoader.load(snapshot)
            #expect(kept.diagnostics.map(\.description) == fresh.diagnostics.map(\.description), "\(name)")
            #expect(kept.content == fresh.content, "\(name)")
            cache = try #require(kept.cache)
            if !inMemory {
                // As a build hands them to the next: the archive and the checks, as bytes.
                let checks = cache.checksArchive
                cache = RecordCache(archive: cache.archive)
                cache.checksArchive = checks
                #expect(cache.keptChecks != nil, "\(name)")
            }
        }
        // The edits above did report problems: the comparison was not between two empty lists.
        #expect(ContentLoader.load(snapshot).diagnostics.contains { $0.message.contains("duplicate user id 'ana'") })
    }

    @Test("kept checks are taken while the comment files and the ids are the same, and only then")
    func keptChecksTaken() throws {
        var snapshot = Self.snapshot()
        var cache = try #require(ContentLoader.load(snapshot, cache: RecordCache()).cache)
        // A problem planted in the kept checks proves that a load takes them instead of checking.
        var planted = try #require(cache.keptChecks)
        planted.duplicates.problems = [.error("planted", at: SourceLocation(path: "content/comments.json"))]
        cache.keptChecks = planted
        let checks = cache.checksArchive
        cache = RecordCache(archive: cache.archive)
        cache.checksArchive = checks
        #expect(ContentLoader.load(snapshot, cache: cache).diagnostics.map(\.message) == ["planted"])
        // A post's caption is not a comment file: still taken.
        snapshot.sources["content/posts/x3.md"] = Array("---\nid: x3\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nNew.\n".utf8)
        #expect(ContentLoader.load(snapshot, cache: cache).diagnostics.map(\.message) == ["planted"])
        // A comment file edited: checked again.
        snapshot.sources["content/comments.json"] = Array(#"[{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "Hi"}]"#.utf8)
        #expect(ContentLoader.load(snapshot, cache: cache).diagnostics.isEmpty)
    }

    @Test("a load says whether its checks differ from the ones it was handed, so they are saved only then")
    func checksChanged() throws {
        var snapshot = Self.snapshot()
        let first = try #require(ContentLoader.load(snapshot, cache: RecordCache()).cache)
        #expect(first.checksChanged)
        // As the next build reads them: through bytes.
        var cache = RecordCache(archive: first.archive)
        cache.checksArchive = first.checksArchive
        #expect(try #require(ContentLoader.load(snapshot, cache: cache).cache).checksChanged == false)
        // A caption edit leaves the checks as they were; a second comment with the same id does not.
        snapshot.sources["content/posts/x3.md"] = Array("---\nid: x3\nauthor: ben\ncreatedAt: 2026-11-19T07:00:00Z\n---\nNew.\n".utf8)
        #expect(try #require(ContentLoader.load(snapshot, cache: cache).cache).checksChanged == false)
        snapshot.sources["content/comments.json"] = Array(#"[{"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "a"}, {"id": "c1", "postId": "x1", "author": "ben", "createdAt": "2026-11-20T09:00:00Z", "text": "b"}]"#.utf8)
        #expect(try #require(ContentLoader.load(snapshot, cache: cache).cache).checksChanged)
    }

    @Test("kept checks read back from bytes as they were; damaged bytes are none, and a place past the records is checked again")
    func keptChecksBytes() throws {
        let snapshot = Self.snapshot()
        let kept = try #require(ContentLoader.load(snapshot, cache: RecordCache()).cache?.keptChecks)
        var checks = kept
        checks.duplicates = .init(places: [0, 2], problems: [.error("twice", at: SourceLocation(path: "content/comments.json", line: 3, column: 4))])
        checks.unknown = .init(places: [1], problems: [.warning("gone", at: SourceLocation(path: "content/comments/a.md"))])
        checks.soundIDs = .init(posts: 7, users: nil)
        #expect(ContentValidator.KeptChecks(bytes: checks.bytes[...]) == checks)
        let bytes = checks.bytes
        for cut in [0, 5, bytes.count / 2, bytes.count - 1] {
            #expect(ContentValidator.KeptChecks(bytes: bytes[..<cut]) == nil, "\(cut)")
        }
        #expect(ContentValidator.KeptChecks(bytes: (bytes + [0])[...]) == nil)
        var unordered = checks
        unordered.duplicates.places = [2, 0]
        #expect(ContentValidator.KeptChecks(bytes: unordered.bytes[...]) == nil)
        // Places past the last comment: the load checks the comments itself.
        var cache = RecordCache()
        var far = kept
        far.duplicates = .init(places: [5], problems: [.error("planted", at: SourceLocation(path: "content/comments.json"))])
        cache.keptChecks = far
        let reloaded = ContentLoader.load(snapshot, cache: cache)
        #expect(reloaded.diagnostics.isEmpty)
        #expect(reloaded.content == ContentLoader.load(snapshot).content)
    }

    @Test("a file with a problem is never cached: its warning comes back on every load")
    func problemsAreNotCached() throws {
        let snapshot = Self.snapshot(Self.archive.replacing(#""id": "x2", "author": "ben""#, with: #""id": "x2", "author": "ben", "colour": "red""#))
        let first = ContentLoader.load(snapshot, cache: RecordCache())
        let second = ContentLoader.load(snapshot, cache: RecordCache(archive: try #require(first.cache).archive))
        #expect(first.diagnostics.count == 1)
        #expect(second.diagnostics.map(\.description) == first.diagnostics.map(\.description))
        #expect(try #require(first.cache).used.count == 6)
    }

    @Test("an unchanged file that names a photo is decoded again when the photo goes")
    func imagesAreInTheKey() throws {
        let snapshot = Self.snapshot()
        let cache = try #require(ContentLoader.load(snapshot, cache: RecordCache()).cache)
        var gone = snapshot
        gone.assets.remove("content/images/a.png")
        let reloaded = ContentLoader.load(gone, cache: RecordCache(archive: cache.archive))
        #expect(reloaded.diagnostics.map(\.description) == [
            "content/posts.json:2:12: warning: image 'content/images/a.png' does not exist; the post is shown without it",
            "content/users.json:1:54: warning: avatar 'content/images/a.png' does not exist; the user is shown without it",
        ])
    }

    @Test("a damaged archive is an empty cache, whatever its bytes")
    func damaged() throws {
        let snapshot = Self.snapshot()
        let archive = try #require(ContentLoader.load(snapshot, cache: RecordCache()).cache).archive
        let fresh = ContentLoader.load(snapshot)
        var cases: [[UInt8]] = [[], Array("not an archive".utf8), Array(archive.dropLast()), archive + [1]]
        // An entry length, and then a record count, that claim more than the archive holds.
        let start = RecordCache.magic.count
        var longEntry = archive
        longEntry.replaceSubrange((start + 8)..<(start + 16), with: [UInt8](repeating: 0x7F, count: 8))
        cases.append(longEntry)
        var huge = archive
        huge.replaceSubrange((start + 16)..<(start + 24), with: [UInt8](repeating: 0x7F, count: 8))
        // Every byte of one entry's payload flipped in turn would be slow; flip a spread of them.
        for offset in stride(from: RecordCache.magic.count, to: archive.count, by: 97) {
            var flipped = archive
            flipped[offset] ^= 0x5A
            cases.append(flipped)
        }
        // A flipped byte inside a string may read as other text (the key covers the sources, not
        // the archive); any other damage must fall back to the sources. None may crash.
        for bytes in cases { _ = ContentLoader.load(snapshot, cache: RecordCache(archive: bytes)) }
        for bytes in cases.prefix(5) {
            #expect(RecordCache(archive: bytes).entries.isEmpty)
            #expect(ContentLoader.load(snapshot, cache: RecordCache(archive: bytes)).content == fresh.content)
        }
        #expect(RecordCache(archive: huge).entries.count == 7)
        #expect(ContentLoader.load(snapshot, cache: RecordCache(archive: huge)).content == fresh.content)
    }
}
