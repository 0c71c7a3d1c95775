// The ESP-IDF heap model of the Tafel measuring build (idfheap.c): what the GC grows from.
//
// The mode, chosen at the first use from the environment (or later by tafel_heap_setup):
//   TAFEL_IDF_HEAP=esp32     the modelled chip: ESP-IDF v5.5.1's internal DRAM heaps on an
//                            ESP32-WROOM-32 (no PSRAM, Bluetooth off) as they are free after
//                            MicroPython v1.28.0 has booted and taken its 56 KB first area;
//                            gc_get_max_new_split() is the model's largest free block.
//   TAFEL_IDF_HEAP=<bytes>   a flat budget of that many bytes (K suffix allowed), as before.
//   TAFEL_IDF_HEAP=none      no growth at all: the first area is the whole heap.
//   unset                    the old flat mode: TAFEL_HEAP_GROWTH bytes, read at every call
//                            (unset or 0: no growth), so a running simulator may change it.
//   TAFEL_IDF_HEAP=esp32-generic   the model with stock ESP32_GENERIC's regions (Bluetooth
//                            compiled in): for checking the model against published figures.
// The model itself (regions, TLSF placement, the ESP-IDF allocations tafelchip.idf_alloc
// takes) is there in every mode; the mode only says what the GC may grow from.
// Sources and arithmetic: firmware/port/README.md, "The chip's limits, modelled".
#ifndef TAFEL_IDFHEAP_H
#define TAFEL_IDFHEAP_H

#include <stddef.h>
#include <stdint.h>

enum {
    TAFEL_HEAP_MODE_FLAT_ENV = 0,   // TAFEL_HEAP_GROWTH, read at every call (the old heapgrow.c)
    TAFEL_HEAP_MODE_NONE = 1,
    TAFEL_HEAP_MODE_FLAT = 2,
    TAFEL_HEAP_MODE_ESP32 = 3,
};

// MP_PLAT_ALLOC_HEAP / MP_PLAT_FREE_HEAP (mpconfigvariant.h): a GC area taken from / given back
// to the system heap (the model's, and the real memory from malloc).
void *tafel_heap_alloc(size_t size);
void tafel_heap_free(void *ptr);

int tafel_heap_mode(void);
// The same choice at run time (tafelchip.idf_setup): "esp32", "esp32-generic", "none", a number
// of bytes, or NULL for TAFEL_HEAP_GROWTH. Areas already grown stay where they are; 0 if the
// model's layout would change while blocks of it are in use.
int tafel_heap_setup(const char *what);
const char *tafel_heap_model_name(void);

// ESP-IDF's own allocations: a handle > 0, or 0 when no free block of the model fits.
int tafel_idf_alloc(size_t nbytes);
int tafel_idf_free(int handle);  // 0 if the handle was not in use

typedef struct {
    size_t total;           // bytes of all heaps (idf_heap_info's first column, summed)
    size_t free;            // free bytes, as multi_heap counts them
    size_t largest;         // largest allocatable block, as heap_caps_get_largest_free_block
    size_t minimum_free;    // sum over the heaps of each one's lowest free (ESP-IDF's definition)
    size_t heaps;
} tafel_idf_info_t;
void tafel_idf_info(tafel_idf_info_t *info);

// One heap: (total, free, largest, minimum free) as esp32.idf_heap_info(esp32.HEAP_DATA) gives it.
int tafel_idf_heap_count(void);
void tafel_idf_heap(int i, size_t out[4]);

#endif // TAFEL_IDFHEAP_H
