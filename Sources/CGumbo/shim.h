#include <gumbo.h>

/* The leading fields of gumbo 0.10's GumboError. Its header (src/error.h) is not installed by
   Debian's libgumbo-dev, and Daybook needs only the error's type and position. */
typedef struct {
  int type;
  GumboSourcePosition position;
  const char *original_text;
} DaybookGumboErrorHead;
