/// Where a problem was found: a path relative to the site folder, with a line and column when known.
///
/// Lines and columns are 1-based; columns count Unicode scalars, as libyaml does, so a column
/// points at the same character in JSON and YAML files alike.
package struct SourceLocation: Sendable, Hashable, Comparable {
    package var path: String
    package var line: Int?
    package var column: Int?

    package init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// Orders by path, then line, then column; an unknown line sorts before line 1.
    package static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        if a.path != b.path { return a.path.unicodeScalars.lexicographicallyPrecedes(b.path.unicodeScalars) }
        if a.line != b.line { return (a.line ?? 0) < (b.line ?? 0) }
        return (a.column ?? 0) < (b.column ?? 0)
    }

    /// `path:line:column`, leaving out what is not known.
    package var description: String {
        var text = path
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }
}

/// How serious a problem is: an error stops the build, a warning does not (unless `--strict`).
package enum Severity: String, Sendable, Hashable, Comparable {
    case warning
    case error

    package static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
}

/// One problem found in a site, printed as `path:line:column: error|warning: message`.
///
/// Every stage collects these instead of throwing at the first problem, so one run shows
/// a writer everything there is to fix.
package struct Diagnostic: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var location: SourceLocation
    package var severity: Severity
    package var message: String

    package init(_ severity: Severity, _ message: String, at location: SourceLocation) {
        self.location = location
        self.severity = severity
        self.message = message
    }

    package static func error(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    package static func warning(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    package var description: String { "\(location.description): \(severity.rawValue): \(message)" }

    /// Sorted by location, then errors before warnings, then message (by Unicode scalars), so
    /// output does not depend on read order or threads.
    package static func < (a: Diagnostic, b: Diagnostic) -> Bool {
        if a.location != b.location { return a.location < b.location }
        if a.severity != b.severity { return a.severity > b.severity }
        return a.message.unicodeScalars.lexicographicallyPrecedes(b.message.unicodeScalars)
    }
}

extension Sequence<Diagnostic> {
    package var hasErrors: Bool { contains { $0.severity == .error } }
}
