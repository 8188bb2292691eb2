import DaybookModel
import Yams

/// A YAML parse failure with its position in the file.
public struct YAMLSyntaxError: Error, Sendable, Hashable {
    public var message: String
    public var position: TextPosition?
}

/// Reads YAML (front matter and `site.yml`) into the same positioned `RawValue` tree as JSON.
enum YAMLReader {
    /// `firstLine` is the file line the text starts on, so front matter positions count the `---` line.
    static func parse(_ text: String, firstLine: Int = 1) throws(YAMLSyntaxError) -> RawValue? {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.describe(error, firstLine: firstLine)
        } catch {
            throw YAMLSyntaxError(message: "invalid YAML: \(error)", position: nil)
        }
        guard let node else { return nil }
        return convert(node, firstLine: firstLine)
    }

    private static func position(_ mark: Mark?, firstLine: Int) -> TextPosition {
        guard let mark else { return TextPosition(line: firstLine, column: 1) }
        return TextPosition(line: mark.line + firstLine - 1, column: mark.column)
    }

    private static func convert(_ node: Node, firstLine: Int) -> RawValue {
        let at = position(node.mark, firstLine: firstLine)
        switch node {
        case .scalar(let scalar):
            // Quoted scalars are always strings; plain ones resolve by YAML's core schema. Dates stay
            // text (`createdAt: 2026-11-21T08:00:00Z` unquoted) and are parsed by the record reader.
            guard scalar.style == .plain else { return RawValue(.string(scalar.string), at: at) }
            switch Tag.Name(rawValue: node.tag.description) {
            case .null: return RawValue(.null, at: at)
            case .bool: return RawValue(.bool(node.bool ?? false), at: at)
            case .int, .float:
                if let number = node.float { return RawValue(.number(number), at: at) }
                return RawValue(.string(scalar.string), at: at)
            default: return RawValue(.string(scalar.string), at: at)
            }
        case .sequence(let sequence):
            return RawValue(.array(sequence.map { convert($0, firstLine: firstLine) }), at: at)
        case .mapping(let mapping):
            let members = mapping.map { key, value in
                RawMember(
                    key: key.string ?? flowText(key), keyPosition: position(key.mark, firstLine: firstLine),
                    value: convert(value, firstLine: firstLine))
            }
            return RawValue(.object(members), at: at)
        case .alias:
            return RawValue(.null, at: at)
        }
    }

    /// A key that is itself a mapping or a sequence, written in flow style for messages. Not
    /// `Node.any`: Yams traps building a dictionary whose keys are mappings (found by fuzzing).
    private static func flowText(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar): scalar.string
        case .sequence(let sequence): "[" + sequence.map(flowText).joined(separator: ", ") + "]"
        case .mapping(let mapping): "{" + mapping.map { "\(flowText($0.key)): \(flowText($0.value))" }.joined(separator: ", ") + "}"
        case .alias: "*alias"
        }
    }

    private static func describe(_ error: YamlError, firstLine: Int) -> YAMLSyntaxError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            return YAMLSyntaxError(message: "invalid YAML: \(detail)", position: position(mark, firstLine: firstLine))
        case .duplicatedKeysInMapping(let duplicates, let context):
            return YAMLSyntaxError(
                message: "duplicate key '\(duplicates.joined(separator: "', '"))'",
                position: position(context.mark, firstLine: firstLine))
        default:
            return YAMLSyntaxError(message: "invalid YAML: \(error)", position: nil)
        }
    }
}
