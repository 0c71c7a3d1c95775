// The "system heap" the Tafel measuring build grows its Python heap from (see mpconfigvariant.h).
//
// On the ESP32 the GC asks ESP-IDF for its largest free block when its areas are
// full (gc_get_max_new_split); here that is a budget from the environment:
// TAFEL_HEAP_GROWTH bytes (a number, optionally with K), minus what areas added
// so far hold. Areas the GC gives back (empty after a sweep) return to it.
#include <stdlib.h>
#include "py/gc.h"

#define MAX_AREAS (16)

static size_t grown;
static void *area_ptr[MAX_AREAS];
static size_t area_size[MAX_AREAS];

static size_t growth_budget(void) {
    const char *text = getenv("TAFEL_HEAP_GROWTH");
    if (text == NULL) {
        return 0;
    }
    char *end;
    size_t n = strtoul(text, &end, 10);
    if (*end == 'K' || *end == 'k') {
        n *= 1024;
    }
    return n;
}

size_t gc_get_max_new_split(void) {
    size_t budget = growth_budget();
    return budget > grown ? budget - grown : 0;
}

void *tafel_heap_alloc(size_t size) {
    for (int i = 0; i < MAX_AREAS; i++) {
        if (area_ptr[i] == NULL) {
            void *ptr = malloc(size);
            if (ptr != NULL) {
                area_ptr[i] = ptr;
                area_size[i] = size;
                grown += size;
            }
            return ptr;
        }
    }
    return NULL;
}

void tafel_heap_free(void *ptr) {
    for (int i = 0; i < MAX_AREAS; i++) {
        if (area_ptr[i] == ptr) {
            grown -= area_size[i];
            area_ptr[i] = NULL;
        }
    }
    free(ptr);
}
