import DaybookMarkdown
import DaybookModel

/// The links a theme's templates write themselves, checked by the build as content's are, so that
/// a build that succeeds gives an output `daybook check` passes (CONTRACT §6), whatever theme a
/// site brings.
///
/// Read from the templates' text, not from the pages: a link whose value the page model supplies
/// (`href="{{url}}"`) is one of the site's own URLs, right by construction. What a template
/// author writes is checked:
/// - `{{root}}about/`, or `/about/` under the site's root path: must name a page or file the
///   build writes (`x/` is `x/index.html`); a query is allowed, a `#fragment` after a path is not
///   looked at;
/// - `#main`: some template of the theme must write that id (`id="main"`) or name;
/// - a relative path (`about/`, `../`): the same template renders on pages at several depths, so
///   it is refused, with the `{{root}}` form to write instead;
/// - an empty value, which `check` refuses too.
/// URLs with a scheme (`https:`, `mailto:`) or starting `//` are external and never fetched.
package enum TemplateLinks {
    /// The attributes that name a URL; `srcset` lists several and is built by the page model.
    static let attributes = ["href", "src", "action", "poster"]

    /// Every problem of `theme`'s templates' own links, at the template's line and column.
    /// - Parameters:
    ///   - root: the site's root path (`/` or `/blog/`).
    ///   - links: the site's paths and the rule that resolves one, as content Markdown's.
    package static func problems(in theme: Theme, links: MarkdownLinks) -> [Diagnostic] {
        let templates = theme.templates.sorted { $0.key < $1.key }
        var ids = Set<String>()
        for (_, template) in templates {
            for found in values(of: ["id", "name"], in: template.source) where !found.value.contains("{{") { ids.insert(found.value) }
        }
        var problems: [Diagnostic] = []
        for (_, template) in templates {
            for found in values(of: attributes, in: template.source) {
                guard let reason = problem(found.value, root: links.root, ids: ids, links: links) else { continue }
                problems.append(
                    .error(
                        "the template's link '\(found.value)' \(reason)",
                        at: SourceLocation(path: template.path, line: found.line, column: found.column)))
            }
        }
        return problems
    }

    /// Why a link value written in a template breaks the site, or `nil` when it does not.
    static func problem(_ value: String, root: String, ids: Set<String>, links: MarkdownLinks) -> String? {
        var below: Substring
        if let rest = ["{{{root}}}", "{{root}}", "{{ root }}"].lazy.compactMap({ value.hasPrefix($0) ? value.dropFirst($0.count) : nil }).first {
            guard !rest.contains("{{") else { return nil }
            below = rest
        } else if value.contains("{{") {
            return nil
        } else if value.isEmpty {
            return "is empty; link a page, or remove the attribute"
        } else if value.hasPrefix("//") || hasScheme(value) {
            return nil
        } else if value.hasPrefix("#") {
            let id = value.dropFirst()
            guard id.isEmpty || id == "top" || ids.contains(String(id)) else {
                return "names no element the theme's templates give that id; add id=\"\(id)\" or fix the link"
            }
            return nil
        } else if value.hasPrefix("/") {
            guard value.hasPrefix(root) else { return "is outside the site's root path \(root); write it as {{root}}\(value.dropFirst())" }
            below = value.dropFirst(root.count)
        } else {
            return "is relative, and a template renders on pages at several depths; write it from the site root, as {{root}}\(value)"
        }
        if let end = below.firstIndex(where: { $0 == "?" || $0 == "#" }) { below = below[..<end] }
        guard let path = PercentEncoding.decode(below), links.resolves(path) else {
            return "names no page or file of this site; fix the link, or add the page"
        }
        return nil
    }

    /// `scheme:` as URLs start: a letter, then letters, digits, `+`, `-` or `.`.
    static func hasScheme(_ value: String) -> Bool {
        guard let colon = value.firstIndex(of: ":"), let first = value.first, first.isASCII && first.isLetter else { return false }
        return value[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// The quoted values of `names` attributes in a template's text, with their lines and
    /// columns (of the value's first character, counted in characters from 1).
    static func values(of names: [String], in text: String) -> [(value: String, line: Int, column: Int)] {
        var found: [(String, Int, Int)] = []
        let characters = Array(text)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < characters.count {
            if characters[index] == "\n" {
                line += 1
                lineStart = index + 1
                index += 1
                continue
            }
            // An attribute name starts after white space, and is followed by `=` and a quote.
            guard index > 0, characters[index - 1].isWhitespace,
                let name = names.first(where: { matches($0, characters, at: index) })
            else {
                index += 1
                continue
            }
            var cursor = index + name.count
            while cursor < characters.count && characters[cursor] == " " { cursor += 1 }
            guard cursor < characters.count, characters[cursor] == "=" else {
                index += 1
                continue
            }
            cursor += 1
            while cursor < characters.count && characters[cursor] == " " { cursor += 1 }
            guard cursor < characters.count, characters[cursor] == "\"" || characters[cursor] == "'" else {
                index += 1
                continue
            }
            let quote = characters[cursor]
            let start = cursor + 1
            guard let end = characters[start...].firstIndex(of: quote) else { break }
            found.append((String(characters[start..<end]).trimmingWhitespace, line, start - lineStart + 1))
            for inside in start..<end where characters[inside] == "\n" {
                line += 1
                lineStart = inside + 1
            }
            index = end + 1
        }
        return found
    }

    private static func matches(_ name: String, _ characters: [Character], at index: Int) -> Bool {
        var cursor = index
        for character in name {
            guard cursor < characters.count, characters[cursor].lowercased() == String(character) else { return false }
            cursor += 1
        }
        return true
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}
