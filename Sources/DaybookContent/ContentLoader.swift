import DaybookModel
import DaybookParallel
import Foundation

/// A site's configuration and content after loading, with every problem found on the way.
package struct LoadedSite: Sendable {
    package var config: SiteConfig
    package var content: SiteContent
    /// Sorted; loading never stops at the first problem.
    package var diagnostics: [Diagnostic]

    package init(config: SiteConfig, content: SiteContent, diagnostics: [Diagnostic]) {
        (self.config, self.content, self.diagnostics) = (config, content, diagnostics)
    }
}

/// Turns a `ContentSnapshot` into validated content: decode each file, then check across records.
package enum ContentLoader {
    /// - Parameter showsDrafts: whether the build shows drafts (`--drafts`): a missing image is
    ///   said only of items the build shows, so a draft's does not fail `--strict` builds.
    package static func load(_ snapshot: ContentSnapshot, showsDrafts: Bool = true) -> LoadedSite {
        let sources = ContentSources(snapshot, showsDrafts: showsDrafts)
        // Files decode independently, so on all cores; they are merged in path order.
        let decoded = Parallel.mapBlocking(sources.files) { sources.decode($0) }
        let merged = sources.merged(decoded)
        let checked = ContentValidator.validate(merged.records, config: sources.config)
        return sources.loaded(merged, content: checked.content, diagnostics: checked.diagnostics)
    }

    /// The collection of a source (`ContentSnapshot.isSource`): `content/<collection>.json`, or a
    /// file anywhere in `content/<collection>/`. Read on the path's bytes, as `isSource` is: split
    /// into `Character`s, the site's 7,400 paths were most of listing the sources under `serve`.
    static func collection(of path: String) -> ContentCollection? {
        let prefix = "content/".utf8
        guard path.utf8.starts(with: prefix) else { return nil }
        let rest = path.utf8.dropFirst(prefix.count)
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
            return ContentCollection(rawValue: String(decoding: rest[..<slash], as: UTF8.self))
        }
        let suffix = ".json".utf8
        guard rest.count > suffix.count, rest.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        return ContentCollection(rawValue: String(decoding: rest.dropLast(suffix.count), as: UTF8.self))
    }

    /// Decodes one source file: a JSON array, a JSON object, or a Markdown item with front matter.
    /// `snapshot` tells which files the image fields may name.
    /// - Parameter siteBase: the site's absolute address (`SiteConfig.absoluteBase`): an image
    ///   field naming a URL under it names the file below it (`ImageReference.localPath`).
    static func decodeFile(
        path: String, bytes: [UInt8], collection: ContentCollection, snapshot: ContentSnapshot = ContentSnapshot(),
        showsDrafts: Bool = true, siteBase: String? = nil
    ) -> (records: DecodedRecords, diagnostics: [Diagnostic], namedOutsideLinks: Set<String>) {
        var records = DecodedRecords()
        var diagnostics: [Diagnostic] = []
        var namedOutsideLinks = Set<String>()
        func at(_ p: TextPosition?) -> SourceLocation { SourceLocation(path: path, line: p?.line, column: p?.column) }
        if let bad = ContentText.firstInvalidUTF8(in: bytes) {
            return (records, [Diagnostic(.notUTF8, at: at(bad))], [])
        }
        /// Checks an image field where it stands: the field as the record keeps it (a URL under
        /// the site's own address as the path it names), or `nil` when it fails.
        func checkedImageField(_ member: RawMember, hiddenDraft: Bool) -> RawMember? {
            guard case .string(let written) = member.value.kind else { return member }  // the record reader reports the type
            let place = at(member.value.position)
            let item = collection == .posts ? "post" : "user"
            let local = ImageReference.localPath(of: written, base: siteBase)
            let reference = local ?? written
            switch ImageReference.verdict(reference, in: snapshot) {
            case .fine:
                guard let local else { return member }
                var kept = member
                kept.value.kind = .string(local)
                return kept
            case .unsafe:
                diagnostics.append(Diagnostic(.unsafeImagePath(field: member.key, value: local == nil ? reference : written), at: place))
            case .outside(let link):
                namedOutsideLinks.insert(link)
                diagnostics.append(Diagnostic(.imageThroughOutsideLink(field: member.key, path: reference, link: link), at: place))
            case .missing:
                if hiddenDraft { return nil }
                let problem = ContentProblem.missingImage(field: member.key, path: reference, written: local == nil ? nil : written, item: item)
                diagnostics.append(Diagnostic(problem, at: place))
            case .passedOver:
                if hiddenDraft { return nil }
                diagnostics.append(Diagnostic(.hiddenImage(field: member.key, path: reference, item: item), at: place))
            }
            return nil
        }
        func decodeRecord(_ value: RawValue, extra: RawMember? = nil) {
            guard case .object(var members) = value.kind else {
                diagnostics.append(Diagnostic(.recordNotAnObject(item: collection.singular, found: value.kindName), at: at(value.position)))
                return
            }
            if let extra { members.append(extra) }
            if let field = ImageReference.field(of: collection) {
                let hiddenDraft = !showsDrafts && members.contains { member in
                    if member.key == "draft", case .bool(true) = member.value.kind { return true }
                    return false
                }
                members = members.compactMap { $0.key == field ? checkedImageField($0, hiddenDraft: hiddenDraft) : $0 }
            }
            var reader = RecordReader(path: path, collection: collection, members: members, at: value.position)
            reader.decode(into: &records)
            diagnostics += reader.diagnostics
        }

        let isArrayFile = path.split(separator: "/").count == 2
        if path.hasSuffix(".md") {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return (records, [Diagnostic(.notUTF8, at: at(nil))], [])
            }
            let parts: FrontMatter
            do {
                parts = try FrontMatter.split(text)
            } catch .missingOpening {
                return (records, [Diagnostic(.noFrontMatter, at: at(TextPosition(line: 1, column: 1)))], [])
            } catch {
                return (records, [Diagnostic(.frontMatterNotClosed, at: at(TextPosition(line: 1, column: 1)))], [])
            }
            let yaml: RawValue
            do {
                yaml = try YAMLReader.parse(parts.yaml, firstLine: parts.yamlFirstLine)
                    ?? RawValue(.object([]), at: TextPosition(line: 1, column: 1))
            } catch {
                return (records, [Diagnostic(.invalidYAML(message: error.message), at: at(error.position))], [])
            }
            var extra: RawMember?
            if let body = parts.body {
                let bodyPosition = TextPosition(line: parts.bodyLine, column: 1)
                if let field = collection.mainTextField {
                    if case .object(let members) = yaml.kind, let given = members.first(where: { $0.key == field }) {
                        diagnostics.append(Diagnostic(.textGivenTwice(field: field, frontMatterLine: given.keyPosition.line), at: at(bodyPosition)))
                    } else {
                        extra = RawMember(key: field, keyPosition: bodyPosition, value: RawValue(.string(ContentText.cleaned(body)), at: bodyPosition))
                    }
                } else {
                    diagnostics.append(Diagnostic(.textAfterSentPrompt, at: at(bodyPosition)))
                }
            }
            decodeRecord(yaml, extra: extra)
        } else {
            let root: RawValue
            do {
                // A list file's records are decoded as each is read, its tree dropped after.
                root = try JSONReader.parse(bytes, cleaning: true, validUTF8: true, eachElement: isArrayFile ? { decodeRecord($0) } : nil)
            } catch {
                return (DecodedRecords(), [Diagnostic(.invalidJSON(detail: error.message), at: at(error.position))], [])
            }
            if isArrayFile {
                guard case .array = root.kind else {
                    let problem = ContentProblem.notAListFile(collection: collection.rawValue, item: collection.singular, found: root.kindName)
                    return (records, [Diagnostic(problem, at: at(root.position))], [])
                }
            } else {
                decodeRecord(root)
            }
        }
        return (records, diagnostics, namedOutsideLinks)
    }
}

