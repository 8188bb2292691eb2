import DaybookFeed
import DaybookModel

/// The tag, user and location indexes' shape as bytes, for `daybook build` to keep between builds
/// (`FeedStep.shapes`): grouping, slugging and sorting 20,000 posts again after a caption edit was
/// a fifth of loading. A group's places as the distance from the one before, so that a medium
/// site's 60,000 places take about a byte each. The bytes come back from the untrusted cache
/// folder: bytes that do not read whole, or a place past the build's posts, are no shape.
extension SiteIndexes.Shape {
    package var bytes: [UInt8] {
        var writer = MemoWriter(reserving: 64 * (tags.count + users.count + locations.count))
        for groups in [tags, users, locations] {
            writer.count(groups.count)
            for group in groups {
                writer.string(group.id)
                writer.string(group.name)
                writer.string(group.slug)
                writer.count(group.places.count)
                var last = -1
                for place in group.places {
                    writer.signed(place - last)
                    last = place
                }
            }
        }
        // Sorted, so that the same shape is the same bytes in every process.
        writer.count(locationSlugs.count)
        for (post, slug) in locationSlugs.sorted(by: { $0.key.scalarsPrecede($1.key) }) {
            writer.string(post)
            writer.string(slug)
        }
        writer.count(diagnostics.count)
        for diagnostic in diagnostics { writer.diagnostic(diagnostic) }
        return writer.bytes
    }

    /// Reads `bytes` as a shape over `postCount` posts; `nil` when they do not read whole.
    package init?(bytes: ArraySlice<UInt8>, postCount: Int) {
        var reader = MemoReader(bytes)
        func groups() -> [SiteIndexes.PlacedGroup]? {
            reader.elements { reader -> SiteIndexes.PlacedGroup? in
                guard let id = reader.string(), let name = reader.string(), let slug = reader.string(),
                    let places = Self.places(&reader, below: postCount)
                else { return nil }
                return SiteIndexes.PlacedGroup(id: id, name: name, slug: slug, places: places)
            }
        }
        self.init()
        guard let tags = groups(), let users = groups(), let locations = groups(),
            let slugs = reader.elements({ reader -> (String, String)? in reader.string().flatMap { post in reader.string().map { (post, $0) } } }),
            let diagnostics = reader.elements({ $0.diagnostic() }), reader.atEnd
        else { return nil }
        (self.tags, self.users, self.locations, self.diagnostics) = (tags, users, locations, diagnostics)
        locationSlugs = Dictionary(slugs, uniquingKeysWith: { first, _ in first })
    }

    /// A group's places, each one of `count` posts.
    private static func places(_ reader: inout MemoReader, below count: Int) -> [Int]? {
        guard let length = reader.count() else { return nil }
        var places: [Int] = []
        places.reserveCapacity(length)
        var last = -1
        for _ in 0..<length {
            guard let step = reader.signed() else { return nil }
            let (place, overflow) = last.addingReportingOverflow(step)
            guard !overflow, place >= 0, place < count else { return nil }
            places.append(place)
            last = place
        }
        return places
    }
}
