// CLDR plural rules from ICU (Debian's libicu-dev, ICU 72), for the words of the theme: "1
// comment", "2 comments", and the few/many/two/zero forms other languages have.
//
// Written by hand because no listed Swift package does CLDR plural rules and Foundation on Linux
// does not expose them (its own ICU is built in, with its symbols renamed, and has no Swift API
// for plurals). Swift cannot call ICU's C API directly either: unicode/urename.h turns every
// function name into a macro with the version in it (uplrules_select -> uplrules_select_72), and
// Swift imports no function-like macros. These four functions are plain C symbols that call
// through those macros, so the version suffix is settled here, when this file is compiled.
//
// Thread safety: a rules object is immutable once opened; ICU's select is a const method and
// const ICU methods may be called from any number of threads at once.
#ifndef DAYBOOK_CICU_H
#define DAYBOOK_CICU_H

/// Opens the cardinal plural rules of `language`, a BCP 47 tag ("pt-BR") or an ICU locale ID
/// ("pt_BR"). A language ICU has no rules for gets the root's, where every number is "other".
/// Returns NULL only when ICU fails (out of memory, missing data). Close with
/// `daybook_plural_close`.
void *daybook_plural_open(const char *language);

/// Writes the category keyword of `n` ("one", "few", ...) and a NUL into `out`. Returns the
/// keyword's length, or -1 when it does not fit in `capacity` bytes or ICU fails.
int daybook_plural_select(const void *rules, double n, char *out, int capacity);

/// Writes the keywords the language uses, comma separated and in ICU's order ("few,many,one,other"),
/// and a NUL into `out`. Returns the text's length, or -1 when it does not fit or ICU fails.
int daybook_plural_keywords(const void *rules, char *out, int capacity);

/// Frees what `daybook_plural_open` returned; NULL is allowed.
void daybook_plural_close(void *rules);

#endif
