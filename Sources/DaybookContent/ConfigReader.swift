import DaybookModel
import Foundation

/// Reads `site.yml` (CONTRACT §1): every key optional, unknown keys warned about, wrong types errors.
enum ConfigReader {
    static let path = "site.yml"
    static let knownKeys = ["baseURL", "description", "feedSize", "hashtags", "icon", "images", "language", "pageSize", "report", "timeZone", "timeline", "title"]

    static func read(_ bytes: [UInt8]?) -> (SiteConfig, [Diagnostic]) {
        var config = SiteConfig()
        var diagnostics: [Diagnostic] = []
        guard let bytes else { return (config, diagnostics) }
        func at(_ p: TextPosition?) -> SourceLocation { SourceLocation(path: path, line: p?.line, column: p?.column) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return (config, [Diagnostic(.siteConfigNotUTF8, at: at(nil))])
        }
        let root: RawValue?
        do {
            root = try YAMLReader.parse(text)
        } catch {
            return (config, [Diagnostic(.invalidYAML(message: error.message), at: at(error.position))])
        }
        guard let root else { return (config, diagnostics) }
        guard case .object(let members) = root.kind else {
            return (config, [Diagnostic(.siteConfigNotAMapping, at: at(root.position))])
        }
        func string(_ m: RawMember) -> String? {
            if case .string(let s) = m.value.kind { return s }
            diagnostics.append(Diagnostic(.notAString(field: m.key, found: m.value.kindName), at: at(m.value.position)))
            return nil
        }
        func positiveInt(_ m: RawMember) -> Int? {
            if case .number(let n) = m.value.kind, n >= 1, n == n.rounded(), n < 1_000_000 { return Int(n) }
            diagnostics.append(Diagnostic(.notAPositiveWholeNumber(setting: m.key, found: m.value.kindDescription), at: at(m.value.position)))
            return nil
        }
        /// The members of a one-key mapping (`timeline: viewer:`) named `key`; other keys are warnings.
        func nested(_ member: RawMember, key: String, example: String) -> [RawMember] {
            guard case .object(let inner) = member.value.kind else {
                let problem = ContentProblem.settingNotAMapping(setting: member.key, key: key, example: example, found: member.value.kindName)
                diagnostics.append(Diagnostic(problem, at: at(member.value.position)))
                return []
            }
            for other in inner where other.key != key {
                diagnostics.append(Diagnostic(.unknownSetting(key: member.key + "." + other.key, known: [member.key + "." + key]), at: at(other.keyPosition)))
            }
            return inner.filter { $0.key == key && $0.value.kind != .null }
        }
        for member in members {
            // An empty value (`timeline:`, `title: ~`) is YAML's null: the key's default, as if
            // absent, as null is for the optional fields of content.
            if member.value.kind == .null, knownKeys.contains(member.key) { continue }
            switch member.key {
            case "title": if let s = string(member) { config.title = s }
            case "description": if let s = string(member) { config.description = ContentText.cleaned(s) }
            case "baseURL":
                if let s = string(member) {
                    if s.hasPrefix("/") || s.hasPrefix("http://") || s.hasPrefix("https://") {
                        config.baseURL = s.hasSuffix("/") ? s : s + "/"
                        config.baseURLPosition = at(member.value.position)
                    } else {
                        diagnostics.append(Diagnostic(.badBaseURL(s), at: at(member.value.position)))
                    }
                }
            case "timeZone":
                if let s = string(member) {
                    if TimeZone(identifier: s) != nil {
                        config.timeZoneIdentifier = s
                    } else {
                        diagnostics.append(Diagnostic(.unknownTimeZone(s), at: at(member.value.position)))
                    }
                }
            case "language":
                if let s = string(member) {
                    if let tag = LanguageTag(s) {
                        config.language = tag
                        config.languagePosition = at(member.value.position)
                    } else {
                        diagnostics.append(Diagnostic(.badLanguageTag(field: member.key, found: s), at: at(member.value.position)))
                    }
                }
            case "icon":
                if let s = string(member) {
                    config.icon = s
                    config.iconPosition = at(member.value.position)
                }
            case "pageSize": if let n = positiveInt(member) { config.pageSize = n }
            case "feedSize": if let n = positiveInt(member) { config.feedSize = n }
            case "timeline":
                for inner in nested(member, key: "viewer", example: "alice") {
                    if let s = string(inner) { config.timelineViewer = s }
                    config.timelineViewerPosition = SourceLocation(path: path, line: inner.value.position.line, column: inner.value.position.column)
                }
            case "hashtags":
                for inner in nested(member, key: "perPost", example: "30") {
                    if let n = positiveInt(inner) { config.hashtagsPerPost = n }
                }
            case "images": readImages(member, into: &config, &diagnostics)
            case "report": if let s = string(member) { readReport(s, member, into: &config, &diagnostics) }
            default:
                diagnostics.append(Diagnostic(.unknownSetting(key: member.key, known: knownKeys), at: at(member.keyPosition)))
            }
        }
        return (config, diagnostics)
    }
}

extension SiteConfig {
    /// CONTRACT §5: feeds and the sitemap need absolute URLs, so a `baseURL` without a scheme
    /// and host (the default `/`) is a warning, at its value in site.yml, or at site.yml when it
    /// is not given. A build reports it (it always writes both); loading alone does not.
    package var baseURLWarnings: [Diagnostic] {
        if Self.isAbsolute(baseURL) { return [] }
        return [Diagnostic(.baseURLNotAbsolute(baseURL), at: baseURLPosition ?? SourceLocation(path: ConfigReader.path))]
    }
}

extension RawValue {
    /// The value itself when short, else its kind: "found 0", "found a string".
    var kindDescription: String {
        if case .number(let n) = kind { return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n) }
        return kindName
    }
}
