// tafelchip: the ESP32's memory limits in the measuring build (firmware/port/README.md,
// "The chip's limits, modelled"). Built into the variant by mpconfigvariant.mk.
//
// Python heap (the calls marked * allocate nothing on the Python heap: for every step):
//   sample(collect) *      if collect, a GC collection; then gc_info(): keeps the highest
//                          "used" seen, the largest free block and the number of areas then.
//   peak()                 (peak_used, largest_free_at_peak, areas_at_peak, total_heap_now)
//   peak_reset() *         forget the peak
//   heap()                 (total, used, free, largest_free, areas) now
// ESP-IDF heap model (idfheap.c; the mode from TAFEL_IDF_HEAP / TAFEL_HEAP_GROWTH, idfheap.h):
//   idf_alloc(nbytes) *    a small int handle, or None where no free block of the model fits
//                          (as ESP-IDF's malloc would fail)
//   idf_free(handle) *     gives it back; False if the handle was not in use
//   idf_info()             (free_total, largest_free_block, minimum_free_ever)
//   idf_heaps()            [(total, free, largest, minimum_free)] a heap, as esp32.idf_heap_info
//   idf_mode()             "esp32", "esp32-generic", "flat", "flat-env" or "none"
//   idf_setup(what)        the mode at run time, as TAFEL_IDF_HEAP: "esp32", None (no growth),
//                          a number of bytes (flat budget); areas already grown stay
//   IDF_COSTS              ((event, bytes, count), ...): what ESP-IDF allocates (idfcosts.h)
// C stack:
//   stack_limit([nbytes]) * sets MicroPython's C stack limit (MP_STATE_THREAD(stack_limit)),
//                          measured from the stack top unix main() captured; returns the old one
//   stack_paint() *        paints the unused stack below the stack pointer, down to 128 KB
//                          below the stack top
//   stack_peak() *         the deepest C stack use in bytes since the paint, from the stack
//                          top: the lowest painted word that was overwritten
//   ESP32_STACK_LIMIT      the ESP32 task's limit (16384 - 1024) in this build's bytes:
//                          15360 * 100 / ESP32_STACK_FACTOR_PERCENT (116) = 13241
#include <alloca.h>
#include <stdio.h>
#include <string.h>
#include "py/runtime.h"
#include "py/gc.h"
#include "py/mpstate.h"
#include "idfheap.h"
#include "idfcosts.h"

// ports/esp32/mpconfigport.h: MICROPY_TASK_STACK_SIZE (16 * 1024), MICROPY_STACK_CHECK_MARGIN
// (1024); ports/esp32/main.c mp_cstack_init_with_top(sp, MICROPY_TASK_STACK_SIZE), so
// py/cstack.h sets stack_limit = 16384 - 1024.
#define ESP32_TASK_STACK_LIMIT (16 * 1024 - 1024)
// How many bytes of the ESP32's C stack one byte of this build's stands for (x100), on the path
// a Python call takes through the VM (mp_execute_bytecode, mp_call_function_n_kw, fun_bc_call and
// what a method call, a constructor or a closure adds). Xtensa's windowed ABI (ESP-IDF's -O2)
// against this build's i386 code (-Os, vm.c -O3), per call level: a function 288 B against 256,
// a method 320/304, a constructor 480/416, a closure 400/368, a bound method 416/416, yield from
// 256/288. The windowed ABI makes no tail calls, but i386 frames are no smaller. We take the
// largest, 480/416 = 1.154, rounded up: no Python call chain goes deeper here than on the chip.
// The Xtensa frame sizes (GCC -fstack-usage, windowed ABI) give the ESP32's published REPL
// figure "stack: 704 out of 15360" (micropython#12952) exactly. README, "The C stack".
#define ESP32_STACK_FACTOR_PERCENT (116)
#define ESP32_STACK_LIMIT (ESP32_TASK_STACK_LIMIT * 100 / ESP32_STACK_FACTOR_PERCENT)

#define PAINT_DEPTH (128 * 1024)
#define PAINT_WORD (0x5AA5C33Cu)

static size_t peak_used;
static size_t peak_largest_free;
static size_t peak_areas;
static volatile uint32_t *paint_low;
static volatile uint32_t *paint_high;

static size_t count_areas(void) {
    size_t n = 0;
    for (mp_state_mem_area_t *area = &MP_STATE_MEM(area); area != NULL; area = area->next) {
        n++;
    }
    return n;
}

static mp_obj_t tafelchip_sample(mp_obj_t collect) {
    if (mp_obj_is_true(collect)) {
        gc_collect();
    }
    gc_info_t info;
    gc_info(&info);
    if (info.used > peak_used) {
        peak_used = info.used;
        peak_largest_free = info.max_free * MICROPY_BYTES_PER_GC_BLOCK;
        peak_areas = count_areas();
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(tafelchip_sample_obj, tafelchip_sample);

static mp_obj_t tafelchip_peak(void) {
    gc_info_t info;
    gc_info(&info);
    mp_obj_t items[4] = {
        mp_obj_new_int_from_uint(peak_used),
        mp_obj_new_int_from_uint(peak_largest_free),
        mp_obj_new_int_from_uint(peak_areas),
        mp_obj_new_int_from_uint(info.total),
    };
    return mp_obj_new_tuple(4, items);
}
static MP_DEFINE_CONST_FUN_OBJ_0(tafelchip_peak_obj, tafelchip_peak);

static mp_obj_t tafelchip_peak_reset(void) {
    peak_used = 0;
    peak_largest_free = 0;
    peak_areas = 0;
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_0(tafelchip_peak_reset_obj, tafelchip_peak_reset);

static mp_obj_t tafelchip_heap(void) {
    gc_info_t info;
    gc_info(&info);
    mp_obj_t items[5] = {
        mp_obj_new_int_from_uint(info.total),
        mp_obj_new_int_from_uint(info.used),
        mp_obj_new_int_from_uint(info.free),
        mp_obj_new_int_from_uint(info.max_free * MICROPY_BYTES_PER_GC_BLOCK),
        mp_obj_new_int_from_uint(count_areas()),
    };
    return mp_obj_new_tuple(5, items);
}
static MP_DEFINE_CONST_FUN_OBJ_0(tafelchip_heap_obj, tafelchip_heap);

static mp_obj_t tafelchip_idf_alloc(mp_obj_t nbytes) {
    mp_int_t n = mp_obj_get_int(nbytes);
    if (n <= 0) {
        mp_raise_ValueError(MP_ERROR_TEXT("nbytes must be > 0"));
    }
    int handle = tafel_idf_alloc(n);
    return handle ? MP_OBJ_NEW_SMALL_INT(handle) : mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(tafelchip_idf_alloc_obj, tafelchip_idf_alloc);

static mp_obj_t tafelchip_idf_free(mp_obj_t handle) {
    return mp_obj_new_bool(tafel_idf_free(mp_obj_get_int(handle)));
}
static MP_DEFINE_CONST_FUN_OBJ_1(tafelchip_idf_free_obj, tafelchip_idf_free);

static mp_obj_t tafelchip_idf_info(void) {
    tafel_idf_info_t info;
    tafel_idf_info(&info);
    mp_obj_t items[3] = {
        mp_obj_new_int_from_uint(info.free),
        mp_obj_new_int_from_uint(info.largest),
        mp_obj_new_int_from_uint(info.minimum_free),
    };
    return mp_obj_new_tuple(3, items);
}
static MP_DEFINE_CONST_FUN_OBJ_0(tafelchip_idf_info_obj, tafelchip_idf_info);

static mp_obj_t tafelchip_idf_heaps(void) {
    int n = tafel_idf_heap_count();
    mp_obj_t list = mp_obj_new_list(0, NULL);
    for (int i = 0; i < n; i++) {
        size_t values[4];
        tafel_idf_heap(i, values);
        mp_obj_t items[4];
        for (int k = 0; k < 4; k++) {
            items[k] = mp_obj_new_int_from_uint(values[k]);
        }
        mp_obj_list_append(list, mp_obj_new_tuple(4, items));
    }
    return list;
}
static MP_DEFINE_CONST_FUN_OBJ_0(tafelchip_idf_heaps_obj, tafelchip_idf_heaps);

static mp_obj_t tafelchip_idf_mode(void) {
    return mp_obj_new_str_from_cstr(tafel_heap_model_name());
}
static MP_DEFINE_CONST_FUN_OBJ_0(tafelchip_idf_mode_obj, tafelchip_idf_mode);

// idf_setup(what): what the GC grows from from now on, as TAFEL_IDF_HEAP at the start:
// "esp32", "esp32-generic", None (no growth) or a number of bytes (a flat budget).
static mp_obj_t tafelchip_idf_setup(mp_obj_t what) {
    char text[24];
    const char *choice;
    if (what == mp_const_none) {
        choice = "none";
    } else if (mp_obj_is_str(what)) {
        choice = mp_obj_str_get_str(what);
    } else {
        mp_int_t n = mp_obj_get_int(what);
        if (n < 0) {
            mp_raise_ValueError(MP_ERROR_TEXT("budget must be >= 0"));
        }
        snprintf(text, sizeof(text), "%lu", (unsigned long)n);
        choice = text;
    }
    if (!tafel_heap_setup(choice)) {
        mp_raise_ValueError(MP_ERROR_TEXT("the model's blocks are in use"));
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(tafelchip_idf_setup_obj, tafelchip_idf_setup);

static mp_obj_t tafelchip_stack_limit(size_t n_args, const mp_obj_t *args) {
    size_t old = MP_STATE_THREAD(stack_limit);
    if (n_args > 0) {
        mp_int_t limit = mp_obj_get_int(args[0]);
        if (limit < 1024 || limit > PAINT_DEPTH) {
            mp_raise_ValueError(MP_ERROR_TEXT("limit out of range"));
        }
        MP_STATE_THREAD(stack_limit) = limit;
    }
    return MP_OBJ_NEW_SMALL_INT(old);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(tafelchip_stack_limit_obj, 0, 1, tafelchip_stack_limit);

// The painting runs in a buffer alloca'd below this frame, so every painted byte lies between
// the stack pointer and the frames above while it is written (Linux grows the main thread's
// stack on demand; the buffer's pages are touched from the stack pointer up).
static MP_NOINLINE void paint(size_t nbytes) {
    volatile uint32_t *buf = alloca(nbytes);
    size_t words = nbytes / sizeof(uint32_t);
    for (size_t i = words; i-- > 0;) {
        buf[i] = PAINT_WORD;
    }
    paint_low = buf;
    paint_high = buf + words;
}

static mp_obj_t tafelchip_stack_paint(void) {
    char *bottom = MP_STATE_THREAD(stack_top) - PAINT_DEPTH;
    volatile char here = 0;
    char *sp = (char *)&here;
    if (sp - bottom < 4096) {
        mp_raise_msg(&mp_type_RuntimeError, MP_ERROR_TEXT("stack too deep to paint"));
    }
    // 512 bytes stay unpainted for paint()'s own frame and the alloca's rounding
    paint((size_t)(sp - bottom) - 512);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_0(tafelchip_stack_paint_obj, tafelchip_stack_paint);

static mp_obj_t tafelchip_stack_peak(void) {
    if (paint_low == NULL) {
        mp_raise_msg(&mp_type_RuntimeError, MP_ERROR_TEXT("stack_paint() first"));
    }
    volatile uint32_t *p = paint_low;
    while (p < paint_high && *p == PAINT_WORD) {
        p++;
    }
    return MP_OBJ_NEW_SMALL_INT(MP_STATE_THREAD(stack_top) - (char *)p);
}
static MP_DEFINE_CONST_FUN_OBJ_0(tafelchip_stack_peak_obj, tafelchip_stack_peak);

// IDF_COSTS: each row a ROM tuple (event, bytes, count), named by its values (all distinct).
typedef struct {
    mp_obj_base_t base;
    size_t len;
    mp_rom_obj_t items[3];
} cost_row_t;
#define COST_ROW(event, bytes, count) \
    static const cost_row_t cost_##event##_##bytes##_##count = \
    {{&mp_type_tuple}, 3, {MP_ROM_QSTR(MP_QSTR_##event), MP_ROM_INT(bytes), MP_ROM_INT(count)}};
TAFEL_IDF_COSTS(COST_ROW)
#define COST_ONE(event, bytes, count) +1
#define COST_PTR(event, bytes, count) MP_ROM_PTR(&cost_##event##_##bytes##_##count),
static const struct {
    mp_obj_base_t base;
    size_t len;
    mp_rom_obj_t items[0 TAFEL_IDF_COSTS(COST_ONE)];
} idf_costs = {{&mp_type_tuple}, 0 TAFEL_IDF_COSTS(COST_ONE), {TAFEL_IDF_COSTS(COST_PTR)}};

static const mp_rom_map_elem_t tafelchip_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_tafelchip) },
    { MP_ROM_QSTR(MP_QSTR_sample), MP_ROM_PTR(&tafelchip_sample_obj) },
    { MP_ROM_QSTR(MP_QSTR_peak), MP_ROM_PTR(&tafelchip_peak_obj) },
    { MP_ROM_QSTR(MP_QSTR_peak_reset), MP_ROM_PTR(&tafelchip_peak_reset_obj) },
    { MP_ROM_QSTR(MP_QSTR_heap), MP_ROM_PTR(&tafelchip_heap_obj) },
    { MP_ROM_QSTR(MP_QSTR_idf_alloc), MP_ROM_PTR(&tafelchip_idf_alloc_obj) },
    { MP_ROM_QSTR(MP_QSTR_idf_free), MP_ROM_PTR(&tafelchip_idf_free_obj) },
    { MP_ROM_QSTR(MP_QSTR_idf_info), MP_ROM_PTR(&tafelchip_idf_info_obj) },
    { MP_ROM_QSTR(MP_QSTR_idf_heaps), MP_ROM_PTR(&tafelchip_idf_heaps_obj) },
    { MP_ROM_QSTR(MP_QSTR_idf_mode), MP_ROM_PTR(&tafelchip_idf_mode_obj) },
    { MP_ROM_QSTR(MP_QSTR_idf_setup), MP_ROM_PTR(&tafelchip_idf_setup_obj) },
    { MP_ROM_QSTR(MP_QSTR_IDF_COSTS), MP_ROM_PTR(&idf_costs) },
    { MP_ROM_QSTR(MP_QSTR_stack_limit), MP_ROM_PTR(&tafelchip_stack_limit_obj) },
    { MP_ROM_QSTR(MP_QSTR_stack_paint), MP_ROM_PTR(&tafelchip_stack_paint_obj) },
    { MP_ROM_QSTR(MP_QSTR_stack_peak), MP_ROM_PTR(&tafelchip_stack_peak_obj) },
    { MP_ROM_QSTR(MP_QSTR_ESP32_STACK_LIMIT), MP_ROM_INT(ESP32_STACK_LIMIT) },
    { MP_ROM_QSTR(MP_QSTR_ESP32_STACK_FACTOR_PERCENT), MP_ROM_INT(ESP32_STACK_FACTOR_PERCENT) },
};
static MP_DEFINE_CONST_DICT(tafelchip_globals, tafelchip_globals_table);

const mp_obj_module_t tafelchip_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&tafelchip_globals,
};

MP_REGISTER_MODULE(MP_QSTR_tafelchip, tafelchip_module);
