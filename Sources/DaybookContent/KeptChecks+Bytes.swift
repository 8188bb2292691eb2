import DaybookModel

/// The kept checks as bytes, for `.daybook-cache/checks`: a `daybook build` after an edit reads
/// the checks the last one made instead of checking 100,000 comments again. The file lives in the
/// site folder, which is untrusted: every read is bounded, and bytes that do not read whole are
/// no checks at all (the load then checks everything).
extension ContentValidator.KeptChecks {
    static let magic = Array("daybook-checks-2\n".utf8)

    var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.bytes = Self.magic
        writer.uint64(commentFiles)
        writer.dropped(duplicates)
        writer.uint64(userIDs)
        writer.uint64(postIDs)
        writer.dropped(unknown)
        writer.digest(soundIDs.posts)
        writer.digest(soundIDs.users)
        return writer.bytes
    }

    init?(bytes: ArraySlice<UInt8>) {
        guard bytes.starts(with: Self.magic) else { return nil }
        var reader = ByteReader(bytes, at: bytes.startIndex + Self.magic.count)
        guard let commentFiles = reader.uint64(), let duplicates = reader.dropped(), let userIDs = reader.uint64(),
            let postIDs = reader.uint64(), let unknown = reader.dropped(), let posts = reader.digest(), let users = reader.digest(),
            reader.atEnd
        else { return nil }
        self.init(
            commentFiles: commentFiles, duplicates: duplicates, userIDs: userIDs, postIDs: postIDs, unknown: unknown,
            soundIDs: ContentValidator.SoundIDs(posts: posts, users: users))
    }
}

extension ByteWriter {
    fileprivate mutating func dropped(_ value: ContentValidator.Dropped) {
        int(value.places.count)
        for place in value.places { int(place) }
        int(value.problems.count)
        for problem in value.problems {
            bool(problem.severity == .error)
            string(problem.message)
            string(problem.location.path)
            location(problem.location)
        }
    }

    fileprivate mutating func digest(_ value: UInt64?) {
        bool(value != nil)
        if let value { uint64(value) }
    }
}

extension ByteReader {
    /// Places ascending, as a check gives them; anything else is damage.
    fileprivate mutating func dropped() -> ContentValidator.Dropped? {
        guard let places = Self.elements(count(), { int() }), zip(places, places.dropFirst()).allSatisfy({ $0 < $1 }),
            places.first.map({ $0 >= 0 }) ?? true
        else { return nil }
        let problems = Self.elements(count()) { () -> Diagnostic? in
            guard let isError = bool(), let message = string(), let path = string(), let location = location(path: path) else { return nil }
            return Diagnostic(isError ? .error : .warning, message, at: location ?? SourceLocation(path: path))
        }
        return problems.map { ContentValidator.Dropped(places: places, problems: $0) }
    }

    fileprivate mutating func digest() -> UInt64?? {
        guard let present = bool() else { return nil }
        return present ? uint64().map { $0 } : .some(nil)
    }
}
