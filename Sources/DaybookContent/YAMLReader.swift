import DaybookModel
import Yams

/// A YAML parse failure with its position in the file.
package struct YAMLSyntaxError: Error, Sendable, Hashable {
    package var message: String
    package var position: TextPosition?
}

/// Reads YAML (front matter and `site.yml`) into the same positioned `RawValue` tree as JSON.
enum YAMLReader {
    /// `firstLine` is the file line the text starts on, so front matter positions count the `---` line.
    static func parse(_ text: String, firstLine: Int = 1) throws(YAMLSyntaxError) -> RawValue? {
        let node: Node?
        do {
            // The basic resolver leaves plain scalars untyped for `plainType` to type. The encoding
            // is given: by default Yams reads the whole environment for it on every document.
            node = try Yams.compose(yaml: text, .basic, .default, .utf8)
        } catch let error as YamlError {
            throw Self.describe(error, firstLine: firstLine)
        } catch {
            throw YAMLSyntaxError(message: "invalid YAML: \(error)", position: nil)
        }
        guard let node else { return nil }
        var budget = nodeBudget
        return try convert(node, firstLine: firstLine, budget: &budget)
    }

    /// The most values one document may hold once its aliases are expanded. Composing shares an
    /// anchored node among its aliases, but the `RawValue` tree copies it at each: nine levels of
    /// nine aliases would be 387 million values, so the expansion stops here with an error instead.
    static let nodeBudget = 100_000
    static let tooLarge = "YAML is too large once its aliases are expanded (over 100,000 values); use fewer nested aliases"

    private static func position(_ mark: Mark?, firstLine: Int) -> TextPosition {
        guard let mark else { return TextPosition(line: firstLine, column: 1) }
        return TextPosition(line: mark.line + firstLine - 1, column: mark.column)
    }

    private static func convert(_ node: Node, firstLine: Int, budget: inout Int) throws(YAMLSyntaxError) -> RawValue {
        let at = position(node.mark, firstLine: firstLine)
        budget -= 1
        guard budget >= 0 else { throw YAMLSyntaxError(message: tooLarge, position: at) }
        switch node {
        case .scalar(let scalar):
            // Quoted scalars are always strings; plain ones resolve by YAML's core schema. Dates stay
            // text (`createdAt: 2026-11-21T08:00:00Z` unquoted) and are parsed by the record reader.
            guard scalar.style == .plain else { return RawValue(.string(ContentText.cleaned(scalar.string)), at: at) }
            switch plainType(scalar, of: node) {
            case .null: return RawValue(.null, at: at)
            case .bool: return RawValue(.bool(["true", "yes", "on"].contains(scalar.string.lowercased())), at: at)
            case .int, .float:
                if let number = node.float { return RawValue(.number(number), at: at) }
                return RawValue(.string(scalar.string), at: at)
            default: return RawValue(.string(ContentText.cleaned(scalar.string)), at: at)
            }
        case .sequence(let sequence):
            var items: [RawValue] = []
            for item in sequence { items.append(try convert(item, firstLine: firstLine, budget: &budget)) }
            return RawValue(.array(items), at: at)
        case .mapping(let mapping):
            var members: [RawMember] = []
            for (key, value) in mapping {
                let keyPosition = position(key.mark, firstLine: firstLine)
                let converted: RawValue
                do {
                    converted = try convert(value, firstLine: firstLine, budget: &budget)
                } catch where error.message == tooLarge {
                    // Reported at the outermost key whose value grew too large: the field a user wrote.
                    throw YAMLSyntaxError(message: tooLarge, position: keyPosition)
                }
                members.append(RawMember(key: ContentText.cleaned(key.string ?? flowText(key)), keyPosition: keyPosition, value: converted))
            }
            return RawValue(.object(members), at: at)
        case .alias:
            return RawValue(.null, at: at)
        }
    }

    /// The type YAML's core schema gives a plain scalar, as Yams's default resolver says. Its rules
    /// are regular expressions, and matching them against every key and value was a tenth of
    /// loading a site's Markdown files; a scalar whose first character starts none of them
    /// (`null`, `~`, `true`, `yes`, `on`, numbers, `<<`, `=`) is text without asking.
    static func plainType(_ scalar: Node.Scalar, of node: Node) -> Tag.Name {
        if scalar.tag.description.isEmpty, let first = scalar.string.utf8.first, !mayStartTyped.contains(first) { return .str }
        return Resolver.default.resolveTag(of: node)
    }

    private static let mayStartTyped = Set("yYnNtTfFoO+-.0123456789<~=".utf8)

    /// A key that is itself a mapping or a sequence, written in flow style for messages. Not
    /// `Node.any`: Yams traps building a dictionary whose keys are mappings (found by fuzzing).
    /// At most `budget` nodes are written, then "…": a key can be an alias of an alias bomb too.
    private static func flowText(_ node: Node) -> String {
        var budget = 64
        return flowText(node, budget: &budget)
    }

    private static func flowText(_ node: Node, budget: inout Int) -> String {
        budget -= 1
        guard budget >= 0 else { return "…" }
        switch node {
        case .scalar(let scalar):
            return scalar.string
        case .sequence(let sequence):
            var parts: [String] = []
            for item in sequence where budget >= 0 { parts.append(flowText(item, budget: &budget)) }
            return "[" + parts.joined(separator: ", ") + "]"
        case .mapping(let mapping):
            var parts: [String] = []
            for (key, value) in mapping where budget >= 0 {
                parts.append("\(flowText(key, budget: &budget)): \(flowText(value, budget: &budget))")
            }
            return "{" + parts.joined(separator: ", ") + "}"
        case .alias:
            return "*alias"
        }
    }

    /// Where the block mapping key `key` stands again after its first place `first`: the next
    /// line that holds it at the same column with only spaces before it. `nil` where there is no
    /// such line (a key in a flow mapping, or written in quotes).
    private static func repeatedKey(_ key: String, in text: String, after first: Mark, firstLine: Int) -> TextPosition? {
        // Lines broken as YAML breaks them: a lone CR too (the fuzz target found this reading
        // CR-only text by LF and starting past its end).
        let lines = text.split(omittingEmptySubsequences: false) { ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) }
        let indent = first.column - 1
        guard first.line >= 1, first.line < lines.count, indent >= 0 else { return nil }
        // `lines[first.line]` is the line after the first key's (Yams counts lines from 1).
        for index in first.line..<lines.count {
            let line = lines[index].utf8
            guard line.count > indent, line.prefix(indent).allSatisfy({ $0 == UInt8(ascii: " ") }) else { continue }
            let rest = line.dropFirst(indent)
            guard rest.starts(with: key.utf8) else { continue }
            let after = rest.dropFirst(key.utf8.count).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if after.first == UInt8(ascii: ":") { return TextPosition(line: index + firstLine, column: first.column) }
        }
        return nil
    }

    private static func describe(_ error: YamlError, firstLine: Int) -> YAMLSyntaxError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            return YAMLSyntaxError(message: "invalid YAML: \(detail)", position: position(mark, firstLine: firstLine))
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Yams points at the first of the keys; the mistake is the second, as JSON's reader says.
            let first = position(context.mark, firstLine: firstLine)
            guard duplicates.count == 1, let key = duplicates.first,
                let again = repeatedKey(key, in: context.text, after: context.mark, firstLine: firstLine)
            else {
                return YAMLSyntaxError(message: "duplicate key '\(duplicates.joined(separator: "', '"))'", position: first)
            }
            return YAMLSyntaxError(
                message: "duplicate key '\(key)' (first at line \(first.line))", position: again)
        default:
            return YAMLSyntaxError(message: "invalid YAML: \(error)", position: nil)
        }
    }
}
