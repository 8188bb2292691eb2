/// Where a problem was found: a path relative to the site folder, with a line and column when known.
///
/// Lines and columns are 1-based; columns count Unicode scalars, as libyaml does, so a column
/// points at the same character in JSON and YAML files alike.
public struct SourceLocation: Sendable, Hashable, Comparable {
    public var path: String
    public var line: Int?
    public var column: Int?

    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// Orders by path, then line, then column; an unknown line sorts before line 1.
    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        if a.path != b.path { return a.path.unicodeScalars.lexicographicallyPrecedes(b.path.unicodeScalars) }
        if a.line != b.line { return (a.line ?? 0) < (b.line ?? 0) }
        return (a.column ?? 0) < (b.column ?? 0)
    }

    /// `path:line:column`, leaving out what is not known.
    public var description: String {
        var text = path
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }
}

/// How serious a problem is: an error stops the build, a warning does not (unless `--strict`).
public enum Severity: String, Sendable, Hashable, Comparable {
    case warning
    case error

    public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
}

/// One problem found in a site, printed as `path:line:column: error|warning: message`.
///
/// Every stage collects these instead of throwing at the first problem, so one run shows
/// a writer everything there is to fix.
public struct Diagnostic: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var location: SourceLocation
    public var severity: Severity
    public var message: String

    public init(_ severity: Severity, _ message: String, at location: SourceLocation) {
        self.location = location
        self.severity = severity
        self.message = message
    }

    public static func error(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    public static func warning(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    public var description: String { "\(location.description): \(severity.rawValue): \(message)" }

    /// Sorted by location, then errors before warnings, then message (by Unicode scalars), so
    /// output does not depend on read order or threads.
    public static func < (a: Diagnostic, b: Diagnostic) -> Bool {
        if a.location != b.location { return a.location < b.location }
        if a.severity != b.severity { return a.severity > b.severity }
        return a.message.unicodeScalars.lexicographicallyPrecedes(b.message.unicodeScalars)
    }
}

extension Sequence<Diagnostic> {
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
