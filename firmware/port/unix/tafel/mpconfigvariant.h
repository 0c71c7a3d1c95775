// The unix port built as an ESP32-WROOM runs Python: for measuring the device's heap on a laptop.
//
// Built 32-bit (MICROPY_FORCE_32BIT=1, firmware/port/unix/build.sh), so objects,
// pointers and GC blocks have the ESP32's sizes (16-byte blocks). The heap grows
// as the ESP32 port's does (MICROPY_GC_SPLIT_HEAP_AUTO, ports/esp32/mpconfigport.h):
// it starts with one area, `-X heapsize=N` (the ESP32-WROOM: 56K), and when that
// is full the GC adds areas, doubling the total each time, from what "the system"
// has left. idfheap.c plays the system: TAFEL_IDF_HEAP=esp32 a model of ESP-IDF's
// heap on the chip, =none no growth, =N a flat budget; unset, TAFEL_HEAP_GROWTH=N
// bytes (default 0: no growth, `-X heapsize` is then the whole heap). No object
// spans two areas, as on the chip. The module tafelchip (tafelchip.c) measures
// the heap's peak and the C stack and sets the ESP32's stack limit
// (firmware/port/README.md, "The chip's limits, modelled").
#define MICROPY_CONFIG_ROM_LEVEL (MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES)

#define MICROPY_GC_SPLIT_HEAP (1)
#define MICROPY_GC_SPLIT_HEAP_AUTO (1)
#include <stddef.h>
void *tafel_heap_alloc(size_t size);
void tafel_heap_free(void *ptr);
#define MP_PLAT_ALLOC_HEAP(size) tafel_heap_alloc(size)
#define MP_PLAT_FREE_HEAP(ptr) tafel_heap_free(ptr)

// The ESP32 port's path buffers: MICROPY_ALLOC_PATH_MAX is 128 there (ports/esp32/mpconfigport.h),
// PATH_MAX (4096) in the unix port, whose mpconfigport.h defines it from PATH_MAX unconditionally.
// py/builtinimport.c keeps one such buffer on the C stack for every import in progress, so with
// 4096 a chain of nested imports (main -> assemble -> startup -> session -> tafel.game -> ...)
// takes about 35 KB of C stack here where the chip takes a fraction of that. Nothing else in the
// port uses PATH_MAX (extmod/vfs_posix.c's getcwd buffers are sized by it and checked).
#include <limits.h>
#undef PATH_MAX
#define PATH_MAX (128)

// The chip's wall clock: the time since power-up, as the ESP32's (simtime.c), not the laptop's.
#include <stdint.h>
uint64_t simtime_ns(void);
#define mp_hal_time_ns simtime_ns

// The ESP32 port's float: single precision.
#define MICROPY_FLOAT_IMPL (MICROPY_FLOAT_IMPL_FLOAT)

#include "variants/mpconfigvariant_common.h"
