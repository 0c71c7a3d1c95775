// The "system heap" the Tafel measuring build grows its Python heap from: a model of ESP-IDF's.
//
// On the ESP32 the GC asks ESP-IDF for its largest free block when its areas are full
// (ports/esp32/gccollect.c: gc_get_max_new_split() returns
// heap_caps_get_largest_free_block(MALLOC_CAP_DEFAULT)) and takes the new area with malloc
// (py/gc.c gc_try_add_heap, MP_PLAT_ALLOC_HEAP). This file plays ESP-IDF v5.5.1 for that
// (modes: idfheap.h; sources and arithmetic: firmware/port/README.md, "The chip's limits,
// modelled"):
//
// - Regions: the ESP32's internal DRAM heaps as ESP-IDF v5.5.1 makes them
//   (components/heap/port/esp32/memory_layout.c, components/esp_system/ld/esp32/memory.ld.in),
//   with MicroPython's static DRAM (54,516 B, from micropython#18859's measured heap total,
//   cross-checked with micropython#19149's "Static DRAM Size" 54,512) and without Bluetooth
//   (firmware/port/boards/TAFEL_ESP32/sdkconfig.board: CONFIG_BT_ENABLED=n, so
//   CONFIG_BTDM_RESERVE_DRAM is 0 and bt.c reserves nothing).
// - Each region is one multi_heap with a TLSF allocator (components/heap/multi_heap.c and
//   espressif/tlsf): the same control-structure overhead, block headers, size classes
//   (second level of 8/16/32 by region size), the request rounded up to its class, and the
//   same choice of block: the first block of the lowest non-empty class that fits (TLSF's
//   good fit); in a class the block that went into its free list last (TLSF lists are LIFO).
//   A block is split at the front; a freed block merges with free neighbours.
// - malloc goes over the heaps as heap_caps_malloc(MALLOC_CAP_DEFAULT) does: DRAM heaps first
//   (priority 0), then D/IRAM (priority 1), in each the smallest heap first (ESP-IDF v5.4+
//   heap_caps_init.c sorted_add_to_registered_heaps). "Largest free block" is
//   heap_caps_get_largest_free_block: the largest free block rounded down to its class
//   (tlsf_fit_size), which malloc of that size always gets.
// - The boot state: 45 pieces of 512 B and the MicroPython task's 16 KB stack
//   (MICROPY_TASK_STACK_SIZE, ports/esp32/main.c) stand for the 39.6 KB that ESP-IDF and
//   MicroPython hold at boot (derived from micropython#18859), then the 56 KB first area
//   (MICROPY_GC_INITIAL_HEAP_SIZE). The unix port's own first area is plain malloc; the
//   model only accounts for the chip's.
// Deterministic: the same calls give the same answers (no addresses of the host are used).
#include <stdlib.h>
#include <string.h>
#include "py/mpconfig.h"
#include "py/misc.h"
#include "py/gc.h"
#include "idfheap.h"

// TLSF (espressif/tlsf, 32-bit): the size word before each block's data; the smallest block;
// a block is split only if it holds a whole block header (16 B) beside the request.
#define BLOCK_HEADER_OVERHEAD (4u)
#define BLOCK_SIZE_MIN (12u)
#define BLOCK_HEADER_SIZE (16u)
#define CONTROL_T_SIZE (36u)        // sizeof(control_t) on a 32-bit target
#define MULTI_HEAP_T_SIZE (20u)     // multi_heap.c's heap_t, at the start of every region
#define POOL_OVERHEAD (8u)          // tlsf_pool_overhead(): 2 block headers

#define MAX_HEAPS (8)
#define MAX_BLOCKS (2048)          // at most 2 a block in use (its free neighbour), plus one a heap
#define MAX_HANDLES (512)
#define MAX_AREAS (16)

// ESP32: what ESP-IDF and MicroPython hold at boot, besides the GC's first area (README).
#define BOOT_PIECES (45)
#define BOOT_PIECE_SIZE (512)
#define MP_TASK_STACK_SIZE (16 * 1024)      // ports/esp32/mpconfigport.h MICROPY_TASK_STACK_SIZE
#define MP_FIRST_AREA_SIZE (56 * 1024)      // ports/esp32/mpconfigport.h MICROPY_GC_INITIAL_HEAP_SIZE

typedef struct {
    uint32_t addr;
    uint32_t size;
    uint8_t dram;       // 1: DRAM (MALLOC_CAP_DEFAULT at priority 0), 0: D/IRAM (priority 1)
} region_t;

// ESP32-WROOM-32, ESP-IDF v5.5.1, dual core, Bluetooth not built (Tafel's board).
static const region_t layout_tafel[] = {
    {0x3FFAE6E0, 6432, 1},      // 0x3FFAE000 +0x2000, less rom_data (..0x3FFAE6E0); .data starts at 0x3FFB0000
    {0x3FFBD4F4, 142092, 1},    // _heap_start = 0x3FFB0000 + 54,516 static DRAM, .. 0x3FFE0000
    {0x3FFE0440, 15072, 0},     // D/IRAM, less rom_pro_data and rom_app_data
    {0x3FFE4350, 113840, 0},    // D/IRAM, .. 0x40000000
};

// Stock ESP32_GENERIC (boards/sdkconfig.ble: NimBLE, controller memory reserved by bt.c; the
// classic-BT part released as BLE-only), for checking the model against micropython#18859.
static const region_t layout_generic[] = {
    {0x3FFAFF10, 240, 1},       // after SOC_MEM_BT_DATA_END
    {0x3FFB2730, 15448, 1},     // SOC_MEM_BT_EM_BREDR_START .. _NO_SYNC_END, released
    {0x3FFB6388, 7288, 1},      // .. SOC_MEM_BT_BSS_START
    {0x3FFB9A20, 16648, 1},     // SOC_MEM_BT_BSS_END .. SOC_MEM_BT_MISC_START
    {0x3FFCB050, 85936, 1},     // 0x3FFB0000 + 0xDB5C (BTDM_RESERVE_DRAM) + 54,516 .. 0x3FFE0000
    {0x3FFE0440, 15072, 0},
    {0x3FFE4350, 113840, 0},
};

typedef struct {
    uint32_t addr, size;
    uint8_t dram;
    uint8_t sl_log2, fl_shift, fl_count, fl_max;
    uint32_t small_block_size;
    uint32_t free_bytes, minimum_free_bytes;
} heap_t;

typedef struct {
    uint32_t addr;      // the model address of the block's data
    uint32_t size;      // TLSF block size (bytes of data)
    uint32_t seq;       // when a free block went into its free list (the newest is the head)
    uint8_t heap;
    uint8_t used;
} block_t;

typedef struct {
    void *ptr;
    size_t size;
    uint32_t addr;      // in the model, 0 if the area was not taken from the model
    uint8_t heap;
} area_t;

static int mode = -1;
static const char *model_name = "flat-env";
static size_t flat_budget;
static size_t grown;

static heap_t heaps[MAX_HEAPS];
static int n_heaps;
static int heap_order[MAX_HEAPS];       // registered order: by size, smallest first
static block_t blocks[MAX_BLOCKS];      // every block of every heap, by address
static int n_blocks;
static uint32_t seq_counter;
static uint32_t handle_addr[MAX_HANDLES + 1];
static uint8_t handle_heap[MAX_HANDLES + 1];
static area_t areas[MAX_AREAS];

static inline int fls32(uint32_t x) {
    return 31 - __builtin_clz(x);
}

static inline uint32_t align_up(uint32_t x, uint32_t a) {
    return (x + a - 1) & ~(a - 1);
}

// TLSF's mapping_insert: the free list a block of this size is kept in, as one number.
static uint32_t size_class(const heap_t *h, uint32_t size) {
    uint32_t fl, sl;
    if (size < h->small_block_size) {
        fl = 0;
        sl = size / (h->small_block_size >> h->sl_log2);
    } else {
        int f = fls32(size);
        sl = (size >> (f - h->sl_log2)) ^ (1u << h->sl_log2);
        fl = f - (h->fl_shift - 1);
    }
    return (fl << h->sl_log2) + sl;
}

// tlsf_fit_size: the largest request a free block of this size is sure to satisfy.
static uint32_t fit_size(const heap_t *h, uint32_t size) {
    if (size == 0) {
        return 0;
    }
    if (size < h->small_block_size) {
        size = (size + 3) & ~3u;
        return size < BLOCK_SIZE_MIN ? BLOCK_SIZE_MIN : size;
    }
    uint32_t interval = (1u << fls32(size)) >> h->sl_log2;
    return size & ~(interval - 1);
}

static void insert_block(int at, uint32_t addr, uint32_t size, int heap, int used) {
    if (n_blocks >= MAX_BLOCKS) {
        abort();    // the model's tables are far larger than the chip's heap can fill
    }
    memmove(&blocks[at + 1], &blocks[at], (n_blocks - at) * sizeof(block_t));
    n_blocks++;
    blocks[at].addr = addr;
    blocks[at].size = size;
    blocks[at].heap = heap;
    blocks[at].used = used;
    blocks[at].seq = used ? 0 : ++seq_counter;
}

static void remove_block(int at) {
    memmove(&blocks[at], &blocks[at + 1], (n_blocks - at - 1) * sizeof(block_t));
    n_blocks--;
}

static int find_block(uint32_t addr) {
    int lo = 0, hi = n_blocks - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (blocks[mid].addr == addr) {
            return mid;
        } else if (blocks[mid].addr < addr) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -1;
}

// multi_heap_register: heap_t, then tlsf_create_with_pool: the control structure (its second
// level sized by the region), then one free block over the rest.
static void add_heap(const region_t *r) {
    heap_t *h = &heaps[n_heaps];
    uint32_t bytes = r->size - MULTI_HEAP_T_SIZE;
    h->addr = r->addr;
    h->size = r->size;
    h->dram = r->dram;
    h->fl_max = 32 - __builtin_clz(bytes);
    h->sl_log2 = bytes <= 16 * 1024 ? 3 : bytes <= 256 * 1024 ? 4 : 5;
    h->fl_shift = h->sl_log2 + 2;
    h->fl_count = h->fl_max - h->fl_shift + 1;
    h->small_block_size = 1u << h->fl_shift;
    uint32_t control = CONTROL_T_SIZE + 4 * h->fl_count + 4 * h->fl_count * (1u << h->sl_log2);
    uint32_t pool = bytes - control;
    h->free_bytes = pool;
    h->minimum_free_bytes = pool;
    uint32_t data = r->addr + MULTI_HEAP_T_SIZE + control + BLOCK_HEADER_OVERHEAD;
    uint32_t size = (pool - POOL_OVERHEAD) & ~3u;
    int at = 0;
    while (at < n_blocks && blocks[at].addr < data) {
        at++;
    }
    insert_block(at, data, size, n_heaps, 0);
    // sorted_add_to_registered_heaps: before the first heap at least as large
    int pos = 0;
    while (pos < n_heaps && heaps[heap_order[pos]].size < h->size) {
        pos++;
    }
    memmove(&heap_order[pos + 1], &heap_order[pos], (n_heaps - pos) * sizeof(int));
    heap_order[pos] = n_heaps;
    n_heaps++;
}

// tlsf_malloc in one heap: the model address of the data, or 0.
static uint32_t heap_malloc(int hi, uint32_t n) {
    heap_t *h = &heaps[hi];
    if (n == 0) {
        return 0;
    }
    uint32_t adjust = (n + 3) & ~3u;                    // adjust_request_size
    if (adjust >= (1u << h->fl_max)) {
        return 0;
    }
    if (adjust < BLOCK_SIZE_MIN) {
        adjust = BLOCK_SIZE_MIN;
    }
    if (adjust >= h->small_block_size) {                 // mapping_search rounds up to the class
        adjust = align_up(adjust, 1u << (fls32(adjust) - h->sl_log2));
    }
    uint32_t want = size_class(h, adjust);
    if ((want >> h->sl_log2) >= h->fl_count) {
        return 0;
    }
    int best = -1;
    uint32_t best_class = 0;
    for (int i = 0; i < n_blocks; i++) {
        block_t *b = &blocks[i];
        if (b->heap != hi || b->used) {
            continue;
        }
        uint32_t c = size_class(h, b->size);
        if (c < want) {
            continue;
        }
        if (best < 0 || c < best_class || (c == best_class && b->seq > blocks[best].seq)) {
            best = i;
            best_class = c;
        }
    }
    if (best < 0) {
        return 0;
    }
    block_t *b = &blocks[best];
    uint32_t addr = b->addr;
    if (b->size >= BLOCK_HEADER_SIZE + adjust) {         // block_trim_free: split at the front
        uint32_t rest = b->size - adjust - BLOCK_HEADER_OVERHEAD;
        b->size = adjust;
        b->used = 1;
        b->seq = 0;
        insert_block(best + 1, addr + adjust + BLOCK_HEADER_OVERHEAD, rest, hi, 0);
        b = &blocks[best];
    } else {
        b->used = 1;
        b->seq = 0;
    }
    h->free_bytes -= b->size + BLOCK_HEADER_OVERHEAD;  // multi_heap_malloc_impl
    if (h->free_bytes < h->minimum_free_bytes) {
        h->minimum_free_bytes = h->free_bytes;
    }
    return addr;
}

// tlsf_free: merge with the free neighbours, then into the head of its free list.
static int heap_free(uint32_t addr) {
    int i = find_block(addr);
    if (i < 0 || !blocks[i].used) {
        return 0;
    }
    heap_t *h = &heaps[blocks[i].heap];
    h->free_bytes += blocks[i].size + BLOCK_HEADER_OVERHEAD;
    blocks[i].used = 0;
    if (i > 0 && blocks[i - 1].heap == blocks[i].heap && !blocks[i - 1].used) {
        blocks[i - 1].size += BLOCK_HEADER_OVERHEAD + blocks[i].size;
        remove_block(i);
        i--;
    }
    if (i + 1 < n_blocks && blocks[i + 1].heap == blocks[i].heap && !blocks[i + 1].used) {
        blocks[i].size += BLOCK_HEADER_OVERHEAD + blocks[i + 1].size;
        remove_block(i + 1);
    }
    blocks[i].seq = ++seq_counter;
    return 1;
}

// heap_caps_malloc(size, MALLOC_CAP_DEFAULT): by priority, then in registered order.
static uint32_t model_malloc(uint32_t n, uint8_t *heap_out) {
    for (int prio = 0; prio < 2; prio++) {
        for (int k = 0; k < n_heaps; k++) {
            int hi = heap_order[k];
            if (heaps[hi].dram != (prio == 0)) {
                continue;
            }
            uint32_t addr = heap_malloc(hi, n);
            if (addr) {
                *heap_out = hi;
                return addr;
            }
        }
    }
    return 0;
}

static uint32_t heap_largest(int hi) {
    uint32_t largest = 0;
    for (int i = 0; i < n_blocks; i++) {
        if (blocks[i].heap == hi && !blocks[i].used && blocks[i].size > largest) {
            largest = blocks[i].size;
        }
    }
    return fit_size(&heaps[hi], largest);
}

static uint32_t model_largest(void) {
    uint32_t largest = 0;
    for (int hi = 0; hi < n_heaps; hi++) {
        uint32_t l = heap_largest(hi);
        if (l > largest) {
            largest = l;
        }
    }
    return largest;
}

static void boot(const region_t *layout, int n) {
    uint8_t hi;
    for (int i = 0; i < n; i++) {
        add_heap(&layout[i]);
    }
    for (int i = 0; i < BOOT_PIECES; i++) {
        model_malloc(BOOT_PIECE_SIZE, &hi);
    }
    model_malloc(MP_TASK_STACK_SIZE, &hi);
    model_malloc(MP_FIRST_AREA_SIZE, &hi);
}

static size_t parse_bytes(const char *text) {
    char *end;
    size_t n = strtoul(text, &end, 10);
    if (*end == 'K' || *end == 'k') {
        n *= 1024;
    }
    return n;
}

static int model_generic = -1;       // the layout the model was booted with

static int model_in_use(void) {
    for (int h = 1; h <= MAX_HANDLES; h++) {
        if (handle_addr[h]) {
            return 1;
        }
    }
    for (int i = 0; i < MAX_AREAS; i++) {
        if (areas[i].ptr != NULL && areas[i].addr) {
            return 1;
        }
    }
    return 0;
}

static void boot_model(int generic) {
    n_heaps = 0;
    n_blocks = 0;
    seq_counter = 0;
    if (generic) {
        boot(layout_generic, MP_ARRAY_SIZE(layout_generic));
    } else {
        boot(layout_tafel, MP_ARRAY_SIZE(layout_tafel));
    }
    model_generic = generic;
}

// "esp32", "esp32-generic", "none", a number of bytes (K allowed), or NULL/"": TAFEL_HEAP_GROWTH.
static int configure(const char *text) {
    int generic = text != NULL && strcmp(text, "esp32-generic") == 0;
    if (model_generic != generic) {
        if (model_generic >= 0 && model_in_use()) {
            return 0;
        }
        boot_model(generic);
    }
    if (text == NULL || *text == '\0') {
        mode = TAFEL_HEAP_MODE_FLAT_ENV;
        model_name = "flat-env";
    } else if (strcmp(text, "esp32") == 0 || generic) {
        mode = TAFEL_HEAP_MODE_ESP32;
        model_name = generic ? "esp32-generic" : "esp32";
    } else if (strcmp(text, "none") == 0) {
        mode = TAFEL_HEAP_MODE_NONE;
        model_name = "none";
    } else {
        mode = TAFEL_HEAP_MODE_FLAT;
        model_name = "flat";
        flat_budget = parse_bytes(text);
    }
    return 1;
}

static void init(void) {
    if (mode < 0) {
        configure(getenv("TAFEL_IDF_HEAP"));
    }
}

int tafel_heap_setup(const char *what) {
    init();
    return configure(what);
}

int tafel_heap_mode(void) {
    init();
    return mode;
}

const char *tafel_heap_model_name(void) {
    init();
    return model_name;
}

size_t gc_get_max_new_split(void) {
    init();
    size_t budget;
    switch (mode) {
        case TAFEL_HEAP_MODE_ESP32:
            return model_largest();
        case TAFEL_HEAP_MODE_NONE:
            return 0;
        case TAFEL_HEAP_MODE_FLAT:
            budget = flat_budget;
            break;
        default: {
            const char *text = getenv("TAFEL_HEAP_GROWTH");
            budget = text == NULL ? 0 : parse_bytes(text);
            break;
        }
    }
    return budget > grown ? budget - grown : 0;
}

void *tafel_heap_alloc(size_t size) {
    init();
    for (int i = 0; i < MAX_AREAS; i++) {
        if (areas[i].ptr != NULL) {
            continue;
        }
        uint32_t addr = 0;
        uint8_t hi = 0;
        if (mode == TAFEL_HEAP_MODE_ESP32) {
            addr = model_malloc(size, &hi);
            if (addr == 0) {
                return NULL;
            }
        }
        void *ptr = malloc(size);
        if (ptr == NULL) {
            if (addr) {
                heap_free(addr);
            }
            return NULL;
        }
        areas[i].ptr = ptr;
        areas[i].size = size;
        areas[i].addr = addr;
        areas[i].heap = hi;
        grown += size;
        return ptr;
    }
    return NULL;
}

void tafel_heap_free(void *ptr) {
    for (int i = 0; i < MAX_AREAS; i++) {
        if (areas[i].ptr == ptr) {
            if (areas[i].addr) {
                heap_free(areas[i].addr);
            }
            grown -= areas[i].size;
            areas[i].ptr = NULL;
        }
    }
    free(ptr);
}

int tafel_idf_alloc(size_t nbytes) {
    init();
    for (int h = 1; h <= MAX_HANDLES; h++) {
        if (handle_addr[h] == 0) {
            if (nbytes == 0 || nbytes > 0xffffffu) {
                return 0;
            }
            uint32_t addr = model_malloc(nbytes, &handle_heap[h]);
            if (addr == 0) {
                return 0;
            }
            handle_addr[h] = addr;
            return h;
        }
    }
    return 0;
}

int tafel_idf_free(int handle) {
    init();
    if (handle < 1 || handle > MAX_HANDLES || handle_addr[handle] == 0) {
        return 0;
    }
    heap_free(handle_addr[handle]);
    handle_addr[handle] = 0;
    return 1;
}

void tafel_idf_info(tafel_idf_info_t *info) {
    init();
    memset(info, 0, sizeof(*info));
    for (int hi = 0; hi < n_heaps; hi++) {
        info->total += heaps[hi].size;
        info->free += heaps[hi].free_bytes;
        info->minimum_free += heaps[hi].minimum_free_bytes;
    }
    info->largest = model_largest();
    info->heaps = n_heaps;
}

int tafel_idf_heap_count(void) {
    init();
    return n_heaps;
}

// In registered order (as esp32.idf_heap_info lists them on ESP-IDF v5.4+: by size).
void tafel_idf_heap(int i, size_t out[4]) {
    init();
    int hi = heap_order[i];
    out[0] = heaps[hi].size;
    out[1] = heaps[hi].free_bytes;
    out[2] = heap_largest(hi);
    out[3] = heaps[hi].minimum_free_bytes;
}
