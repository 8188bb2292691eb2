import DaybookLanguage
import DaybookModel

/// Reads a words file (`Templates/i18n/<language>.yml`, CONTRACT §11) into entries, every
/// problem a diagnostic at its place. A bad entry is left out, and the word it would have
/// replaced stays: one typo never blanks the theme.
package enum WordsReader {
    package static func read(_ bytes: [UInt8], path: String) -> (entries: [String: ThemeWords.Entry], diagnostics: [Diagnostic]) {
        func at(_ p: TextPosition?) -> SourceLocation { SourceLocation(path: path, line: p?.line, column: p?.column) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return ([:], [Diagnostic(.notUTF8, at: at(ContentText.firstInvalidUTF8(in: bytes)))])
        }
        let root: RawValue?
        do {
            root = try YAMLReader.parse(text)
        } catch {
            return ([:], [Diagnostic(.invalidYAML(message: error.message), at: at(error.position))])
        }
        guard let root else { return ([:], []) }
        guard case .object(let members) = root.kind else {
            return ([:], [Diagnostic(.wordsNotAMapping(found: root.kindName), at: at(root.position))])
        }
        var entries: [String: ThemeWords.Entry] = [:]
        var diagnostics: [Diagnostic] = []
        for member in members {
            switch member.value.kind {
            case .string(let word):
                entries[member.key] = .text(ContentText.cleaned(word))
            case .object(let forms):
                var plural: [PluralCategory: String] = [:]
                var valid = true
                for form in forms {
                    guard let category = PluralCategory(rawValue: form.key) else {
                        diagnostics.append(Diagnostic(.unknownPluralCategory(key: member.key, category: form.key), at: at(form.keyPosition)))
                        valid = false
                        continue
                    }
                    guard case .string(let word) = form.value.kind else {
                        diagnostics.append(Diagnostic(.badWord(key: member.key + "." + form.key, found: form.value.kindName), at: at(form.value.position)))
                        valid = false
                        continue
                    }
                    plural[category] = ContentText.cleaned(word)
                }
                if valid && plural[.other] == nil {
                    diagnostics.append(Diagnostic(.pluralWithoutOther(key: member.key), at: at(member.keyPosition)))
                    valid = false
                }
                if valid { entries[member.key] = .plural(plural) }
            default:
                diagnostics.append(Diagnostic(.badWord(key: member.key, found: member.value.kindName), at: at(member.value.position)))
            }
        }
        return (entries, diagnostics)
    }
}
