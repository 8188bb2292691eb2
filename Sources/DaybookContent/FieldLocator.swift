import DaybookModel

/// Where a record's field stands in its source file, found again from the record's place (its
/// `id`'s, `RecordReader.origin`).
///
/// Most problems are found while a file is decoded, where every position is at hand; a photo is
/// found undecodable long after, when a record keeps only its own place. Such errors are rare, so
/// the file is parsed again for them, rather than every record of every build carrying the place
/// of each field.
package enum FieldLocator {
    /// The place of the value of `field` in the record whose `id` value stands at `origin`, in the
    /// file whose bytes are `bytes`; `nil` when the file no longer holds such a record.
    package static func location(of field: String, inRecordAt origin: SourceLocation, bytes: [UInt8]) -> SourceLocation? {
        guard ContentText.firstInvalidUTF8(in: bytes) == nil else { return nil }
        var records: [RawValue] = []
        if origin.path.hasSuffix(".md") {
            guard let text = String(validating: bytes, as: UTF8.self), let parts = try? FrontMatter.split(text),
                let yaml = try? YAMLReader.parse(parts.yaml, firstLine: parts.yamlFirstLine)
            else { return nil }
            records = [yaml]
        } else {
            guard let root = try? JSONReader.parse(bytes, cleaning: true, validUTF8: true, eachElement: nil) else { return nil }
            if case .array(let elements) = root.kind { records = elements } else { records = [root] }
        }
        for record in records {
            guard case .object(let members) = record.kind,
                let id = members.first(where: { $0.key == "id" }), id.value.position.line == origin.line, id.value.position.column == origin.column,
                let found = members.first(where: { $0.key == field })
            else { continue }
            return SourceLocation(path: origin.path, line: found.value.position.line, column: found.value.position.column)
        }
        return nil
    }
}
