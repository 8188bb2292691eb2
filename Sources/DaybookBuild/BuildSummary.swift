import Foundation
import DaybookFeed
import DaybookModel

/// The one-line summary a build ends with, like a list view's batch update:
/// `journal +1 ~2 · timeline +3 · 41 pages · files 3 written, 38 unchanged, 1 removed · 0 warnings · 0.31 s`.
package enum BuildSummary {
    package static func line(_ result: BuildResult) -> String {
        var parts: [String] = []
        for (name, diff) in result.listChanges where !diff.isEmpty {
            var counts: [String] = []
            if !diff.inserted.isEmpty { counts.append("+\(diff.inserted.count.grouped)") }
            if !diff.removed.isEmpty { counts.append("−\(diff.removed.count.grouped)") }
            if !diff.updated.isEmpty { counts.append("~\(diff.updated.count.grouped)") }
            if counts.isEmpty { counts.append("reordered") }
            parts.append("\(name) \(counts.joined(separator: " "))")
        }
        if parts.isEmpty { parts.append("no list changed") }
        parts.append("\(result.pageCount.grouped) pages")
        parts.append("images \(result.imagesEncoded.grouped) encoded, \(result.imagesReused.grouped) reused")
        if let report = result.report {
            parts.append("files \(report.written.grouped) written, \(report.unchanged.grouped) unchanged, \(report.removed.grouped) removed")
        }
        let warnings = result.warningCount
        parts.append("\(warnings) \(warnings == 1 ? "warning" : "warnings")")
        parts.append(String(format: "%.2f s", result.seconds))
        return parts.joined(separator: " · ")
    }

    /// The list changes item by item, for `--verbose`: `journal + q7`, `timeline ~ p12`.
    package static func details(_ result: BuildResult) -> [String] {
        var lines: [String] = []
        for (name, diff) in result.listChanges {
            lines += diff.inserted.map { "\(name) + \($0)" }
            lines += diff.removed.map { "\(name) − \($0)" }
            lines += diff.updated.map { "\(name) ~ \($0)" }
        }
        if let report = result.report {
            lines += report.writtenPaths.map { "wrote \($0)" }
            lines += report.removedPaths.map { "removed \($0)" }
        }
        lines.append(
            "time: " + result.phases.map { String(format: "%@ %.3f s", $0.name, $0.seconds) }.joined(separator: ", ")
                + String(format: "; search index %.3f s, beside the pages", result.searchIndexSeconds)
                + (result.searchCardsMoved > 0 ? ", \(result.searchCardsMoved) cards moved" : ""))
        return lines
    }
}
