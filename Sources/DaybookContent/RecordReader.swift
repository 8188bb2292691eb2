import DaybookModel

/// Reads the fields of one raw record, turning each problem into a diagnostic at the value's position.
///
/// Every collection's decoding goes through these few typed accessors, so "required", "wrong type",
/// "bad date" and "unknown key" read the same everywhere.
struct RecordReader {
    let path: String
    let collection: ContentCollection
    let recordPosition: TextPosition
    private(set) var members = RecordMembers()
    var diagnostics: [Diagnostic] = []
    /// Set when a required field is missing or invalid: the record is then dropped. An optional
    /// field that is invalid is reported and left out, and the record is kept, so one bad value
    /// never cascades (a user dropped for a bad `follows` would make each of their posts an error).
    private(set) var isInvalid = false

    init(path: String, collection: ContentCollection, members: [RawMember], at position: TextPosition) {
        self.path = path
        self.collection = collection
        self.recordPosition = position
        for member in members {
            if let first = self.members.insert(member) {
                diagnostics.append(Diagnostic(.duplicateKey(key: member.key, firstLine: first.keyPosition.line), at: location(member.keyPosition)))
                continue
            }
            if !collection.knownKeys.contains(member.key) {
                let problem = ContentProblem.unknownKey(key: member.key, record: collection.singular, known: collection.knownKeys.sorted())
                diagnostics.append(Diagnostic(problem, at: location(member.keyPosition)))
            }
        }
    }

    func location(_ position: TextPosition) -> SourceLocation {
        SourceLocation(path: path, line: position.line, column: position.column)
    }

    /// Where the record is: its `id` value when it has one, so messages about the record point there.
    var origin: SourceLocation { location(members["id"]?.value.position ?? recordPosition) }

    /// Reports an invalid value; when its field is required, the record is dropped.
    private mutating func fail(_ problem: ContentProblem, at position: TextPosition, required: Bool) {
        diagnostics.append(Diagnostic(problem, at: location(position)))
        if required { isInvalid = true }
    }

    private mutating func value(_ key: String, required: Bool) -> RawValue? {
        guard let member = members[key] else {
            if required { fail(.missingField(item: collection.singular, field: key), at: recordPosition, required: true) }
            return nil
        }
        if case .null = member.value.kind {
            if required { fail(.requiredButNull(field: key), at: member.value.position, required: true) }
            return nil
        }
        return member.value
    }

    mutating func string(_ key: String, required: Bool = false) -> String? {
        guard let raw = value(key, required: required) else { return nil }
        if case .string(let text) = raw.kind { return text }
        let problem: ContentProblem
        if case .number = raw.kind { problem = .unquotedNumber(field: key) } else { problem = .notAString(field: key, found: raw.kindName) }
        fail(problem, at: raw.position, required: required)
        return nil
    }

    mutating func nonEmptyString(_ key: String, required: Bool = false) -> String? {
        guard let text = string(key, required: required) else { return nil }
        if text.isEmpty, let position = members[key]?.value.position {
            fail(.emptyField(field: key), at: position, required: required)
            return nil
        }
        return text
    }

    mutating func instant(_ key: String, required: Bool = false) -> Instant? {
        guard let text = string(key, required: required) else { return nil }
        if let instant = Instant(rfc3339: text) { return instant }
        fail(.notADateTime(field: key, text: text), at: members[key]!.value.position, required: required)
        return nil
    }

    /// `lang` (CONTRACT §11): an item written in another language than the site's. A tag that is
    /// not well formed is reported and left out, and the item is shown in the site's language.
    mutating func languageTag(_ key: String = "lang") -> LanguageTag? {
        guard let text = string(key) else { return nil }
        if let tag = LanguageTag(text) { return tag }
        fail(.badLanguageTag(field: key, found: text), at: members[key]!.value.position, required: false)
        return nil
    }

    mutating func day(_ key: String) -> CalendarDay? {
        guard let text = string(key) else { return nil }
        if let day = CalendarDay(text) { return day }
        fail(.notADay(field: key, text: text), at: members[key]!.value.position, required: false)
        return nil
    }

    /// An optional array of strings, each carrying its own place for the checks made after
    /// decoding. An element that is not a string is reported and left out.
    mutating func strings(_ key: String) -> [Sourced<String>] {
        guard let raw = value(key, required: false) else { return [] }
        guard case .array(let items) = raw.kind else {
            fail(.notAnArrayOfStrings(field: key, found: raw.kindName), at: raw.position, required: false)
            return []
        }
        var result: [Sourced<String>] = []
        for item in items {
            if case .string(let text) = item.kind {
                result.append(Sourced(text, at: location(item.position)))
            } else {
                fail(.notOnlyStrings(field: key, found: item.kindName), at: item.position, required: false)
            }
        }
        return result
    }

    mutating func location(_ key: String) -> DaybookModel.Location? {
        guard let raw = value(key, required: false) else { return nil }
        guard case .object(let fields) = raw.kind else {
            fail(.notALocation(field: key, found: raw.kindName), at: raw.position, required: false)
            return nil
        }
        var name: String?
        var lat: Double?
        var lon: Double?
        for field in fields {
            switch (field.key, field.value.kind) {
            case ("name", .string(let text)): name = text
            case ("lat", .number(let n)) where (-90...90).contains(n): lat = n
            case ("lon", .number(let n)) where (-180...180).contains(n): lon = n
            case ("lat", .null), ("lon", .null): break
            case ("name", _): fail(.notAString(field: key + ".name", found: field.value.kindName), at: field.value.position, required: false)
            case ("lat", _): fail(.latitudeOutOfRange(field: key), at: field.value.position, required: false)
            case ("lon", _): fail(.longitudeOutOfRange(field: key), at: field.value.position, required: false)
            default:
                diagnostics.append(
                    Diagnostic(.unknownKey(key: field.key, record: "location", known: ["lat", "lon", "name"]), at: location(field.keyPosition)))
            }
        }
        guard let name else {
            // A bad name was reported above; a missing one is reported here. Either way the post
            // keeps no location, and the rest of it stands.
            if !fields.contains(where: { $0.key == "name" }) {
                fail(.missingNestedField(field: key, nested: "name"), at: raw.position, required: false)
            }
            return nil
        }
        return DaybookModel.Location(name: name, latitude: lat, longitude: lon)
    }
}

/// A record's members by key, in the order written.
///
/// Searched in order: a record has a dozen keys at most, and hashing each into a dictionary cost
/// more than the rest of its decoding. A record with many more keys (a hostile file) gets an
/// index, so reading it stays linear.
struct RecordMembers {
    private var list: [RawMember] = []
    /// The keys of `list`, searched without copying a member out for each comparison.
    private var keys: [String] = []
    private var index: [String: Int]?
    private static let indexedFrom = 32

    subscript(key: String) -> RawMember? {
        let found = index.map { $0[key] } ?? keys.firstIndex(of: key)
        return found.map { list[$0] }
    }

    /// Adds `member` unless its key is taken; the member holding the key when it is.
    mutating func insert(_ member: RawMember) -> RawMember? {
        if let taken = self[member.key] { return taken }
        list.append(member)
        keys.append(member.key)
        if index != nil {
            index?[member.key] = list.count - 1
        } else if list.count == Self.indexedFrom {
            index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        }
        return nil
    }
}
