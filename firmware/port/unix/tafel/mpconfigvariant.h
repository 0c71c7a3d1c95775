// The unix port built as an ESP32-WROOM runs Python: for measuring the device's heap on a laptop.
//
// Built 32-bit (MICROPY_FORCE_32BIT=1, firmware/port/unix/build.sh), so objects,
// pointers and GC blocks have the ESP32's sizes (16-byte blocks). The heap grows
// as the ESP32 port's does (MICROPY_GC_SPLIT_HEAP_AUTO, ports/esp32/mpconfigport.h):
// it starts with one area, `-X heapsize=N` (the ESP32-WROOM: 56K), and when that
// is full the GC adds areas, doubling the total each time, from what "the system"
// has left; heapgrow.c plays the system: TAFEL_HEAP_GROWTH=N bytes (default 0: no
// growth, `-X heapsize` is then the whole heap). No object spans two areas, as
// on the chip.
#define MICROPY_CONFIG_ROM_LEVEL (MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES)

#define MICROPY_GC_SPLIT_HEAP (1)
#define MICROPY_GC_SPLIT_HEAP_AUTO (1)
#include <stddef.h>
void *tafel_heap_alloc(size_t size);
void tafel_heap_free(void *ptr);
#define MP_PLAT_ALLOC_HEAP(size) tafel_heap_alloc(size)
#define MP_PLAT_FREE_HEAP(ptr) tafel_heap_free(ptr)

// The ESP32 port's float: single precision.
#define MICROPY_FLOAT_IMPL (MICROPY_FLOAT_IMPL_FLOAT)

#include "variants/mpconfigvariant_common.h"
