import DaybookModel

/// The decoded records of earlier loads, by a key of their file's path and bytes: a rebuild after
/// a one-post edit decodes that one file and reads every other file's records from here instead
/// of parsing 30 MB of JSON and YAML again.
///
/// Only files that decoded without a diagnostic are kept, so a cached file never hides a problem.
/// The archive lives in the site folder, which is untrusted: reading it checks every length, and
/// an archive that does not read whole is ignored. Written by hand because no listed package
/// encodes these types compactly; Foundation's coders cost more than the parsers they would replace.
package struct RecordCache: Sendable {
    package static let magic = Array("daybook-records-3\n".utf8)
    /// Encoded records by key.
    var entries: [UInt64: ArraySlice<UInt8>] = [:]
    /// Keys used by the latest load: the next archive holds only these.
    var used: Set<UInt64> = []
    /// Whether the latest load added or dropped an entry, so the archive needs writing.
    package internal(set) var changed = false
    /// Whether loads keep each entry decoded (`decoded`) for the next: set by a long-lived process
    /// (`serve`), where decoding 7,500 files' records on every save was a twentieth of a rebuild,
    /// and where the records kept are the very values the next load hands on, so orders built
    /// from them can be compared by reference (`InputMemo`). Never archived.
    package var keepsDecoded = false
    /// The records of the latest load's entries, when `keepsDecoded`.
    var decoded: [UInt64: DecodedRecords] = [:]
    /// The latest load's checks across records, for the next load to take what still holds.
    var keptChecks: ContentValidator.KeptChecks?
    /// Whether the latest load's checks differ from the ones it was handed, so `checksArchive`
    /// needs writing.
    package internal(set) var checksChanged = false

    /// The first line of `checksArchive`.
    package static let checksMagic = ContentValidator.KeptChecks.magic

    /// `keptChecks` as bytes, for `.daybook-cache/checks`; set it to hand a load the checks a
    /// build before saved (bytes that do not read whole are none).
    package var checksArchive: [UInt8]? {
        get { keptChecks?.bytes }
        set { keptChecks = newValue.flatMap { ContentValidator.KeptChecks(bytes: $0[...]) } }
    }
    /// The keys whose entries the latest load added, in the order it added them: what a save
    /// appends to the archive it read (`appendix`).
    package internal(set) var added: [UInt64] = []
    /// The status of the archive file this cache was read from, as it was then (a save may add to
    /// it only while it is still that file); `nil` when it was not read from one.
    package var archiveStatus: FileStatus?

    package init() {}

    /// Reads an archive; one that is damaged or from another version gives an empty cache.
    package init(archive: [UInt8]) { self.init(archive: archive[...]) }

    /// Reads an archive in place: entries stay slices of `archive`.
    package init(archive: ArraySlice<UInt8>) {
        guard archive.starts(with: Self.magic) else { return }
        var reader = ByteReader(archive, at: archive.startIndex + Self.magic.count)
        guard let entries = reader.keyedEntries() else { return }
        self.entries = entries
    }

    /// The entries the latest load used, as an archive.
    package var archive: [UInt8] {
        var bytes: [UInt8] = []
        writeArchive { bytes += $0 }
        return bytes
    }

    /// Whether no entry is held: so for an archive that did not read whole.
    package var isEmpty: Bool { entries.isEmpty }

    /// The bytes an archive of the latest load's entries takes.
    package var liveBytes: Int {
        used.reduce(Self.magic.count) { total, key in total + Self.entryHeaderBytes + (entries[key]?.count ?? 0) }
    }

    static let entryHeaderBytes = ByteWriter.entryHeader(key: 0, length: 0).count

    /// The entries the latest load added, as they go after the last of the archive it was read
    /// from: an archive read later takes the last entry of each key, so one edited file costs
    /// its own entry, not the whole archive written again (27 MB for a 20,000-post site).
    package func appendix(_ write: (ArraySlice<UInt8>) -> Void) {
        for key in added {
            guard used.contains(key), let payload = entries[key] else { continue }
            write(ByteWriter.entryHeader(key: key, length: payload.count)[...])
            write(payload)
        }
    }

    /// Hands the archive to `write` piece by piece, so saving a large site's cache never holds a
    /// second copy of it.
    package func writeArchive(_ write: (ArraySlice<UInt8>) -> Void) {
        write(Self.magic[...])
        for key in used.sorted() {
            guard let payload = entries[key] else { continue }
            write(ByteWriter.entryHeader(key: key, length: payload.count)[...])
            write(payload)
        }
    }

    /// The key of one file's decoding: everything `ContentLoader.decodeFile` reads.
    /// - Parameter contentKey: `StableHash.ofContent(bytes)` when the caller has it.
    static func key(path: String, bytes: [UInt8], contentKey: UInt64? = nil, showsDrafts: Bool, images: UInt64) -> UInt64 {
        var hash = StableHash()
        hash.combine(magic)
        hash.combine(path)
        hash.combine(showsDrafts)
        hash.combine(String(images))
        hash.combine(String(contentKey ?? StableHash.ofContent(bytes)))
        return hash.value
    }

    /// What image fields are checked against: the files under `content/`, the links leading
    /// out, and the site's own address (`ImageReference.localPath`).
    static func imageContext(_ snapshot: ContentSnapshot, base: String?) -> UInt64 {
        var hash = StableHash()
        hash.combine(base ?? "")
        for path in snapshot.assets.sorted() { hash.combine(path) }
        hash.combine("\u{0}links")
        for path in snapshot.outsideLinks.sorted() { hash.combine(path) }
        return hash.value
    }

    func records(_ key: UInt64, path: String) -> DecodedRecords? {
        guard let payload = entries[key] else { return nil }
        var reader = ByteReader(payload, at: payload.startIndex)
        return reader.records(path: path)
    }

    /// Decodes every entry as a load would, whatever its key; how many decoded whole. For the
    /// fuzz target (`Fuzz/FuzzCache`): an archive is read from an untrusted folder.
    package func decodeEveryEntry(path: String = "content/posts.json") -> Int {
        entries.keys.count { records($0, path: path) != nil }
    }

    static func encode(_ records: DecodedRecords) -> [UInt8] {
        var writer = ByteWriter()
        writer.records(records)
        return writer.bytes
    }
}

// MARK: - Records as bytes

extension ByteWriter {
    mutating func sourced(_ values: [Sourced<String>]) {
        int(values.count)
        for value in values {
            string(value.value)
            location(value.location)
        }
    }

    mutating func records(_ records: DecodedRecords) {
        int(records.prompts.count)
        for prompt in records.prompts {
            location(prompt.origin)
            string(prompt.id)
            string(prompt.title)
            string(prompt.date?.description)
            string(prompt.body)
            instant(prompt.updatedAt)
            bool(prompt.isDraft)
        }
        int(records.sentPrompts.count)
        for sent in records.sentPrompts {
            location(sent.origin)
            string(sent.id)
            string(sent.promptID)
            instant(sent.sentAt)
        }
        int(records.users.count)
        for record in records.users {
            let user = record.user
            location(user.origin)
            string(user.id)
            string(user.name)
            string(user.bio)
            string(user.avatar)
            strings(user.follows)
            sourced(record.follows)
        }
        int(records.posts.count)
        for record in records.posts {
            let post = record.post
            location(post.origin)
            string(post.id)
            string(post.author)
            instant(post.createdAt)
            string(post.caption)
            strings(post.extraTags)
            string(post.image)
            string(post.imageAlt)
            bool(post.location != nil)
            if let place = post.location {
                string(place.name)
                double(place.latitude)
                double(place.longitude)
            }
            bool(post.isSensitive)
            string(post.sensitiveReason)
            instant(post.updatedAt)
            bool(post.isDraft)
            sourced(record.tags)
            uint64(post.contentKey)
        }
        int(records.comments.count)
        for comment in records.comments {
            location(comment.origin)
            string(comment.id)
            string(comment.postID)
            string(comment.author)
            instant(comment.createdAt)
            string(comment.text)
            instant(comment.updatedAt)
            bool(comment.isDraft)
            uint64(comment.contentKey)
        }
        int(records.responses.count)
        for response in records.responses {
            location(response.origin)
            string(response.id)
            string(response.promptID)
            instant(response.createdAt)
            string(response.text)
            instant(response.updatedAt)
            bool(response.isDraft)
        }
    }
}

extension ByteReader {
    mutating func sourced(path: String) -> [Sourced<String>]? {
        guard let count = count() else { return nil }
        var values: [Sourced<String>] = []
        for _ in 0..<count {
            guard let value = string(), let place = location(path: path), let place else { return nil }
            values.append(Sourced(value, at: place))
        }
        return values
    }

    mutating func records(path: String) -> DecodedRecords? {
        var records = DecodedRecords()
        guard let prompts = count() else { return nil }
        for _ in 0..<prompts {
            guard let origin = location(path: path), let id = string(), let title = string(), let date = optionalString(),
                let body = optionalString(), let updatedAt = optionalInstant(), let isDraft = bool()
            else { return nil }
            var prompt = Prompt(id: id, title: title, date: date.flatMap(CalendarDay.init), body: body, updatedAt: updatedAt, isDraft: isDraft)
            prompt.origin = origin
            records.prompts.append(prompt)
        }
        guard let sent = count() else { return nil }
        for _ in 0..<sent {
            guard let origin = location(path: path), let id = string(), let promptID = string(), let sentAt = instant() else { return nil }
            var prompt = SentPrompt(id: id, promptID: promptID, sentAt: sentAt)
            prompt.origin = origin
            records.sentPrompts.append(prompt)
        }
        guard let users = count() else { return nil }
        for _ in 0..<users {
            guard let origin = location(path: path), let id = string(), let name = optionalString(), let bio = optionalString(),
                let avatar = optionalString(), let follows = strings(), let sourced = sourced(path: path)
            else { return nil }
            var user = User(id: id, name: name, bio: bio, avatar: avatar, follows: follows)
            user.origin = origin
            records.users.append(UserRecord(user: user, follows: sourced))
        }
        guard let posts = count() else { return nil }
        for _ in 0..<posts {
            guard let origin = location(path: path), let id = string(), let author = string(), let createdAt = instant(),
                let caption = optionalString(), let extraTags = strings(), let image = optionalString(), let imageAlt = optionalString(),
                let hasPlace = bool()
            else { return nil }
            var place: Location?
            if hasPlace {
                guard let name = string(), let latitude = optionalDouble(), let longitude = optionalDouble() else { return nil }
                place = Location(name: name, latitude: latitude, longitude: longitude)
            }
            guard let isSensitive = bool(), let reason = optionalString(), let updatedAt = optionalInstant(), let isDraft = bool(),
                let tags = sourced(path: path), let key = uint64()
            else { return nil }
            var post = Post(
                id: id, author: author, createdAt: createdAt, caption: caption, extraTags: extraTags, image: image, imageAlt: imageAlt,
                location: place, updatedAt: updatedAt, isDraft: isDraft)
            post.origin = origin
            post.isSensitive = isSensitive
            post.sensitiveReason = reason
            // After the last field is set: setting one works the key out afresh.
            post.restoreContentKey(key)
            records.posts.append(PostRecord(post: post, tags: tags))
        }
        guard let comments = count() else { return nil }
        records.comments.reserveCapacity(comments)
        for _ in 0..<comments {
            guard let origin = location(path: path), let id = string(), let postID = string(), let author = string(),
                let createdAt = instant(), let text = string(), let updatedAt = optionalInstant(), let isDraft = bool(), let key = uint64()
            else { return nil }
            var comment = Comment(id: id, postID: postID, author: author, createdAt: createdAt, text: text, updatedAt: updatedAt, isDraft: isDraft)
            comment.origin = origin
            comment.restoreContentKey(key)
            records.comments.append(comment)
        }
        guard let responses = count() else { return nil }
        for _ in 0..<responses {
            guard let origin = location(path: path), let id = string(), let promptID = string(), let createdAt = instant(),
                let text = string(), let updatedAt = optionalInstant(), let isDraft = bool()
            else { return nil }
            var response = Response(id: id, promptID: promptID, createdAt: createdAt, text: text, updatedAt: updatedAt, isDraft: isDraft)
            response.origin = origin
            records.responses.append(response)
        }
        return atEnd ? records : nil
    }
}
