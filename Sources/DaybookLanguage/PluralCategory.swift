/// CLDR's plural categories: the forms a language's words take after a number. English uses
/// `one` and `other`; Arabic uses all six. A template picks the words for the category, so one
/// set of templates serves every language.
package enum PluralCategory: String, Sendable, CaseIterable {
    case zero, one, two, few, many, other
}
