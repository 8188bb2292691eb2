#include "cicu.h"

#include <string.h>
#include <unicode/uenum.h>
#include <unicode/uloc.h>
#include <unicode/upluralrules.h>

void *daybook_plural_open(const char *language) {
    // BCP 47 to an ICU locale ID: "zh-Hant-TW" -> "zh_Hant_TW", "en-u-nu-arab" -> "en@numbers=arab".
    // A tag it does not read to the end ("pt_BR") goes to ICU as it is, which reads both forms.
    char locale[ULOC_FULLNAME_CAPACITY];
    const char *id = language;
    UErrorCode status = U_ZERO_ERROR;
    int32_t parsed = 0;
    int32_t length = uloc_forLanguageTag(language, locale, (int32_t)sizeof locale, &parsed, &status);
    if (U_SUCCESS(status) && status != U_STRING_NOT_TERMINATED_WARNING && length > 0
        && (size_t)parsed == strlen(language)) {
        id = locale;
    }
    status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_openForType(id, UPLURAL_TYPE_CARDINAL, &status);
    if (U_FAILURE(status)) {
        uplrules_close(rules);
        return NULL;
    }
    return rules;
}

int daybook_plural_select(const void *rules, double n, char *out, int capacity) {
    UChar keyword[32];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uplrules_select((const UPluralRules *)rules, n, keyword, 32, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING || length < 0 || length >= capacity) {
        return -1;
    }
    // Keywords are ASCII (zero, one, two, few, many, other).
    for (int32_t i = 0; i < length; i++) {
        out[i] = (char)keyword[i];
    }
    out[length] = '\0';
    return (int)length;
}

int daybook_plural_keywords(const void *rules, char *out, int capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UEnumeration *keywords = uplrules_getKeywords((const UPluralRules *)rules, &status);
    if (U_FAILURE(status)) {
        uenum_close(keywords);
        return -1;
    }
    int used = 0;
    const char *keyword;
    int32_t length;
    while ((keyword = uenum_next(keywords, &length, &status)) != NULL && U_SUCCESS(status)) {
        int needed = length + (used > 0 ? 1 : 0);
        if (used + needed >= capacity) {
            uenum_close(keywords);
            return -1;
        }
        if (used > 0) {
            out[used++] = ',';
        }
        memcpy(out + used, keyword, (size_t)length);
        used += length;
    }
    uenum_close(keywords);
    if (U_FAILURE(status) || capacity < 1) {
        return -1;
    }
    out[used] = '\0';
    return used;
}

void daybook_plural_close(void *rules) {
    if (rules != NULL) {
        uplrules_close((UPluralRules *)rules);
    }
}
