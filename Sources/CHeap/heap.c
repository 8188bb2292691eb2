#include "CHeap.h"

#include <malloc.h>

int daybook_heap_bound_arenas(int count) { return mallopt(M_ARENA_MAX, count); }

int daybook_heap_trim(void) { return malloc_trim(0); }
