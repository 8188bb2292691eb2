// Two settings of glibc's allocator, which Swift's Glibc module does not bring in (malloc.h is
// not part of it). Written by hand because no listed package reaches mallopt(3) or malloc_trim(3).
#ifndef DAYBOOK_CHEAP_H
#define DAYBOOK_CHEAP_H

/// Lets glibc make at most `count` arenas (mallopt M_ARENA_MAX). Its default, eight per core, lets
/// every thread that ever allocated keep an arena of its own, each holding what was freed in it:
/// a build's threads each took one, and what they held freed was 135 MiB of a large
/// site's peak. Call it before the threads start. Returns 0 when glibc refused the setting.
int daybook_heap_bound_arenas(int count);

/// Gives the pages free in every arena back to the system (malloc_trim(3)): after a phase that
/// freed hundreds of MB, the next phase's peak then does not sit on top of them. Returns 1 when
/// some memory was released.
int daybook_heap_trim(void);

#endif
