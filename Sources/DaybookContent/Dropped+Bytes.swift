import DaybookModel

/// A check's verdict as bytes, for the incremental layer to keep between builds (`ContentStep`):
/// a `daybook build` after an edit reads the comments' checks the last one made instead of
/// checking 100,000 comments again. The bytes come back from the untrusted site folder: every
/// read is bounded, and bytes that do not read whole are no verdict (the load then checks).
extension ContentValidator.Dropped {
    package var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.dropped(self)
        return writer.bytes
    }

    package init?(bytes: ArraySlice<UInt8>) {
        var reader = ByteReader(bytes, at: bytes.startIndex)
        guard let dropped = reader.dropped(), reader.atEnd else { return nil }
        self = dropped
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
}
