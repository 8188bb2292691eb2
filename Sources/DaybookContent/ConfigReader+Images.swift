import DaybookModel

/// The `images:` block and the `report` URL of `site.yml` (CONTRACT §1 and §7).
extension ConfigReader {
    static let imageKeys = ["widths", "format", "originals"]

    static func readImages(_ member: RawMember, into config: inout SiteConfig, _ diagnostics: inout [Diagnostic]) {
        func at(_ p: TextPosition) -> SourceLocation { SourceLocation(path: path, line: p.line, column: p.column) }
        guard case .object(let inner) = member.value.kind else {
            let problem = ContentProblem.settingNotAMapping(setting: "images", key: "widths", example: "[480, 960, 1600]", found: member.value.kindName)
            diagnostics.append(Diagnostic(problem, at: at(member.value.position)))
            return
        }
        for item in inner where item.value.kind != .null || !imageKeys.contains(item.key) {
            switch item.key {
            case "widths":
                guard case .array(let values) = item.value.kind, !values.isEmpty else {
                    diagnostics.append(Diagnostic(.badImageWidths(found: item.value.kindDescription), at: at(item.value.position)))
                    continue
                }
                var widths: [Int] = []
                for value in values {
                    if case .number(let n) = value.kind, n >= 16, n <= 8192, n == n.rounded() {
                        widths.append(Int(n))
                    } else {
                        diagnostics.append(Diagnostic(.badImageWidth(found: value.kindDescription), at: at(value.position)))
                    }
                }
                if widths.count == values.count { config.imageWidths = Array(Set(widths)).sorted() }
            case "format":
                if case .string(let s) = item.value.kind, s == "webp" || s == "jpeg" {
                    config.imageFormat = s
                } else {
                    diagnostics.append(Diagnostic(.badImageFormat(found: item.value.kindDescription), at: at(item.value.position)))
                }
            case "originals":
                if case .bool(let b) = item.value.kind {
                    config.imageOriginals = b
                } else {
                    diagnostics.append(Diagnostic(.notABoolean(field: "images.originals", found: item.value.kindDescription), at: at(item.value.position)))
                }
            default:
                diagnostics.append(Diagnostic(.unknownSetting(key: "images." + item.key, known: imageKeys.map { "images." + $0 }), at: at(item.keyPosition)))
            }
        }
    }

    /// A `mailto:` or `https:` URL; anything else could run script or leak readers to plain HTTP.
    static func readReport(_ text: String, _ member: RawMember, into config: inout SiteConfig, _ diagnostics: inout [Diagnostic]) {
        let position = member.value.position
        let lower = text.lowercased()
        guard (lower.hasPrefix("mailto:") && text.count > 7) || (lower.hasPrefix("https://") && text.count > 8) else {
            diagnostics.append(Diagnostic(.badReportURL(text), at: SourceLocation(path: path, line: position.line, column: position.column)))
            return
        }
        config.report = text
    }
}
