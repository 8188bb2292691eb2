#include <gumbo.h>

/* The leading fields of gumbo 0.10's GumboError. Its header (src/error.h) is not installed by
   Debian's libgumbo-dev, and Daybook needs only the error's type and position. */
typedef struct {
  int type;
  GumboSourcePosition position;
  const char *original_text;
} DaybookGumboErrorHead;

/* A bump allocator for one parse. gumbo allocates every node, attribute and string buffer with
   its own malloc and frees each in gumbo_destroy_output: on a 32,000-page site that is most of
   the check's time. An arena hands out memory from large chunks and frees them all at once, so
   the per-call deallocator does nothing. Written here because gumbo's options take plain C
   function pointers and no packaged allocator fits them. */
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *chunk;
  size_t used;
  size_t size;
  void **blocks;
  size_t count;
  size_t capacity;
} DaybookGumboArena;

static inline int daybook_arena_keep(DaybookGumboArena *arena, void *block) {
  if (arena->count == arena->capacity) {
    size_t capacity = arena->capacity ? arena->capacity * 2 : 16;
    void **blocks = (void **)realloc(arena->blocks, capacity * sizeof(void *));
    if (!blocks) return 0;
    arena->blocks = blocks;
    arena->capacity = capacity;
  }
  arena->blocks[arena->count++] = block;
  return 1;
}

static inline void *daybook_arena_allocate(void *userdata, size_t size) {
  DaybookGumboArena *arena = (DaybookGumboArena *)userdata;
  size = (size + 15) & ~(size_t)15;
  const size_t chunkSize = 256 * 1024;
  if (size > chunkSize / 4) {
    void *block = malloc(size);
    if (block && !daybook_arena_keep(arena, block)) { free(block); return NULL; }
    return block;
  }
  if (!arena->chunk || arena->used + size > arena->size) {
    char *chunk = (char *)malloc(chunkSize);
    if (!chunk || !daybook_arena_keep(arena, chunk)) { free(chunk); return NULL; }
    arena->chunk = chunk;
    arena->used = 0;
    arena->size = chunkSize;
  }
  void *result = arena->chunk + arena->used;
  arena->used += size;
  return result;
}

static inline void daybook_arena_deallocate(void *userdata, void *pointer) {
  (void)userdata;
  (void)pointer;
}

static inline void daybook_arena_release(DaybookGumboArena *arena) {
  for (size_t i = 0; i < arena->count; i++) free(arena->blocks[i]);
  free(arena->blocks);
  memset(arena, 0, sizeof(*arena));
}
