import DaybookModel

/// A line and column in a source file; 1-based, columns in Unicode scalars.
package struct TextPosition: Sendable, Hashable {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A JSON or YAML value with the position it was read from.
///
/// Both formats decode into this one tree so that records are validated in one place, and every
/// problem can point at the exact value that caused it.
package struct RawValue: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case array([RawValue])
        case object([RawMember])
    }

    package var kind: Kind
    package var position: TextPosition

    package init(_ kind: Kind, at position: TextPosition) {
        self.kind = kind
        self.position = position
    }

    /// How a user would name this kind of value in a message.
    var kindName: String {
        switch kind {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `key: value` of an object, in source order; duplicates are kept so they can be reported.
package struct RawMember: Sendable, Hashable {
    package var key: String
    package var keyPosition: TextPosition
    package var value: RawValue

    package init(key: String, keyPosition: TextPosition, value: RawValue) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}
