// simchip: the simulator's chip side in C, for the measuring build (firmware/port/README.md,
// "The simulator's chip in C"). Built into the variant by mpconfigvariant.mk.
//
// The chip's process runs the firmware on MicroPython; its heap must hold only what the ESP32's
// holds. On the ESP32 the pins are static ROM objects, I2C, SPI and the UART are C, so here the
// chip's side of the simulator is C too: every table is static, and nothing on the paths the
// firmware takes at every step allocates on the Python heap (a pin's value, a bus write, a frame,
// a command read, the watchdog). The behaviour is the Python reference's, byte for byte on the
// wire (firmware/sim/wire.py PipeWire, simmachine.py, simbus.py, simwdt.py; the flash:
// simflash.c and fileflash.py), which stays for the PyPI unix port and the in-process tests.
//
// The wire (frames: the top of firmware/sim/wire.py)
//   wire(in_path, out_path)     opens both with open(2), in first (run.py's order: a FIFO's open
//                               waits for its other end), out as "wb" would; wire(None, None)
//                               closes them. Frames are gathered in a static buffer and written
//                               whole with write(2) (partial writes and EINTR looped over);
//                               without a wire, frames go nowhere (the reference's NoWire).
//   command()                   blocks for the launcher's next command: its kind (G 71, Q 81,
//                               B 66, N 78; 0 when the pipe closed). B and N are taken here
//                               and returned too, for the caller to count or ignore: N runs at
//                               once (a powered chip), B while the chip is off, else at the
//                               next power_on() (as run.py's Chip keeps them).
//   number()                    the last command's u32 (G: the ms to run)
//   say(line)                   R: bytes or str (its UTF-8 bytes; the length is theirs)
//   canvas(rows, cols), text(row, col, s), clear(row)   K T C: the canvas's capture probe
//   sleep_ms(ms)                Z, and elapsed_ms() moves on
// The chip (simmachine.Machine, simbus.py)
//   Pin(id, mode=-1, pull=-1, *, value=None)    the static pin object of that GPIO, configured;
//                               init, value, __call__, on, off, irq(handler=None, trigger=3),
//                               id; the pin protocol (machine.Signal takes it)
//   I2C(id, scl=, sda=, freq=400000, timeout=50000)   id 0 or 1: the chip's two controllers,
//                               static; scan, writeto, writevto, transactions, bytes_written
//   SPI(id, baudrate=500000, *, polarity=, phase=, bits=, firstbit=, sck=, mosi=, miso=)   id 1
//                               or 2, static; write, deinit, writes, bytes_written
//   PWM(pin, freq=1000, duty_u16=0)             one static object a GPIO; duty_u16, freq, deinit
//   WDT(id=0, timeout=5000)     the one watchdog (static); feed. wdt_elapse(ms) raises
//                               WatchdogReset once unfed past the timeout; wdt_stop();
//                               wdt_state() -> (timeout, unfed ms). Says "wdt <ms>", "fed".
//   power_on()                  the power-up and every wake (run.py's Chip.make): the pins back to
//                               their reset state, the board's wiring and nets kept. Until the
//                               first power_on() the chip is off: N frames are kept, not run.
//   strict([on]) -> was, faults() (a count), last_fault(), level(n[, quiet]), brightness(n),
//   keys_held(), grounded(n), elapsed_ms(), reset(), reset_asked(), reset_cause(),
//   set_reset_cause(n), unique_id(), WLAN(interface=None), PWRON_RESET .. SOFT_RESET, RESET_EXIT
//   SimError (a ValueError), WatchdogReset (a BaseException), Flash (simflash.c)
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "py/runtime.h"
#include "py/mperrno.h"
#include "py/mphal.h"
#include "py/objexcept.h"
#include "py/objint.h"
#include "py/objstr.h"
#include "extmod/virtpin.h"
#include "simchip.h"

#define NGPIO (40)
#define GROUND (1)      // a part's flags for a GPIO (host_tools/simboard/bench.py)
#define UP (2)
#define DOWN (4)
#define MODE_IN (1)
#define MODE_OUT (3)
#define MODE_OPEN_DRAIN (7)
#define PULL_UP (1)
#define PULL_DOWN (2)
#define IRQ_RISING (1)
#define IRQ_FALLING (2)
#define FLOATING (2)    // a level code: 0, 1, or 2 for a floating net
#define CMD_MAX (260)   // the longest command (PipeWire.cmd)
#define MAX_PAIRS (32)  // Machine.pairs: 64 bytes
#define MAX_BUSES (8)

// ---- the exceptions ----------------------------------------------------------------------

MP_DEFINE_CONST_OBJ_TYPE(simchip_type_SimError, MP_QSTR_SimError, MP_TYPE_FLAG_NONE,
    make_new, mp_obj_exception_make_new,
    print, mp_obj_exception_print,
    attr, mp_obj_exception_attr,
    parent, &mp_type_ValueError
    );

MP_DEFINE_CONST_OBJ_TYPE(simchip_type_WatchdogReset, MP_QSTR_WatchdogReset, MP_TYPE_FLAG_NONE,
    make_new, mp_obj_exception_make_new,
    print, mp_obj_exception_print,
    attr, mp_obj_exception_attr,
    parent, &mp_type_BaseException
    );

// The pins: static objects, a GPIO each (their state is in the tables below).
typedef struct _simchip_pin_obj_t {
    mp_obj_base_t base;
    uint8_t id;
} simchip_pin_obj_t;
static const simchip_pin_obj_t simchip_pins[NGPIO];

// What the GC must see: the edge interrupts' handlers (a GPIO each) and the Wi-Fi station.
MP_REGISTER_ROOT_POINTER(mp_obj_t simchip_handlers[40]);
MP_REGISTER_ROOT_POINTER(mp_obj_t simchip_wlan);

// ---- state -------------------------------------------------------------------------------

// The wire.
static int wire_in = -1;
static int wire_out = -1;
static uint8_t obuf[4096];  // a frame is gathered here and written at its end
static size_t olen;
static uint8_t cmd[CMD_MAX];  // the last command's payload (PipeWire.cmd)

// The board's wiring (B): kept through power_on().
static uint8_t n_i2c;
static struct {
    uint8_t scl, sda;
    uint8_t addr[32];  // the addresses that answer, a bit each
} i2c_bus[MAX_BUSES];
static uint8_t n_spi;
static struct {
    uint8_t sck, mosi;
} spi_bus[MAX_BUSES];
static uint8_t n_heard;
static uint8_t heard[NGPIO];  // the GPIOs whose level the board follows, in the board's order
static uint8_t board_next[CMD_MAX];  // a B said while the chip runs: for the next power_on()
static bool board_pending;

// The parts' nets (N): kept through power_on().
static uint8_t pairs[2 * MAX_PAIRS];
static uint8_t npairs;
static uint8_t ext[NGPIO];

// The chip's pins: what power_on() puts back.
static uint8_t mode[NGPIO];  // 0 until configured, or IN / OUT / OPEN_DRAIN
static uint8_t pull[NGPIO];
static uint8_t out[NGPIO];  // the output latch
static uint8_t used[NGPIO];
static uint8_t has_duty[NGPIO];  // a PWM drives it
static uint16_t duty[NGPIO];
static uint8_t seen[NGPIO];  // a watched GPIO's level when its handler last looked
static uint8_t said[NGPIO];  // what the board was last told (level + 1; 0: nothing yet)
static mp_int_t trigger[NGPIO];
static uint64_t elapsed;
static bool reset_was_asked;
static mp_uint_t fault_count;
static char last_fault[192];
static uint8_t net[NGPIO];  // scratch for walking a net
static uint8_t inside[NGPIO];

// Kept through power_on(): settings of the simulator, the watchdog (sim/simwdt.py's module state).
static bool powered;  // power_on() was called: new nets run the interrupts and reach the board
static bool strict_on = true;
static mp_int_t cause = 1;
static mp_int_t wdt_limit;
static mp_int_t wdt_unfed;

// ---- the handlers' table -----------------------------------------------------------------
// The reference keeps the edge interrupts in a dict and, on new nets, runs them in the dict's
// order: MicroPython's hash table (py/map.c) with small-int keys, whose order is the slot order.
// It is played here slot for slot (the sizes, the linear probing, the deleted slots, the
// rehash), so handlers run in the reference's order.
#define HM_NULL (0xFF)
#define HM_DELETED (0xFE)
#define HM_LOOKUP (0)
#define HM_ADD (1)
#define HM_REMOVE (2)
static const uint8_t hm_sizes[] = {0, 2, 4, 6, 8, 10, 12, 17, 23, 29, 37, 47, 59};
static uint8_t hm_alloc;
static uint8_t hm_used;
static uint8_t hm_key[59];

static int hm_find(int g, int kind);

static void hm_rehash(void) {
    uint8_t old[59];
    size_t old_alloc = hm_alloc;
    memcpy(old, hm_key, old_alloc);
    size_t new_alloc = hm_sizes[MP_ARRAY_SIZE(hm_sizes) - 1];
    for (size_t i = 0; i < MP_ARRAY_SIZE(hm_sizes); i++) {
        if (hm_sizes[i] >= old_alloc + 1) {
            new_alloc = hm_sizes[i];
            break;
        }
    }
    hm_alloc = new_alloc;
    hm_used = 0;
    memset(hm_key, HM_NULL, sizeof(hm_key));
    for (size_t i = 0; i < old_alloc; i++) {
        if (old[i] != HM_NULL && old[i] != HM_DELETED) {
            hm_find(old[i], HM_ADD);
        }
    }
}

// mp_map_lookup for a small-int key: the slot, or -1.
static int hm_find(int g, int kind) {
    if (hm_alloc == 0) {
        if (kind != HM_ADD) {
            return -1;
        }
        hm_rehash();
    }
    size_t pos = g % hm_alloc;
    size_t start = pos;
    int avail = -1;
    for (;;) {
        uint8_t k = hm_key[pos];
        if (k == HM_NULL) {
            if (kind != HM_ADD) {
                return -1;
            }
            hm_used++;
            if (avail < 0) {
                avail = pos;
            }
            hm_key[avail] = g;
            return avail;
        } else if (k == HM_DELETED) {
            if (avail < 0) {
                avail = pos;
            }
        } else if (k == g) {
            if (kind == HM_REMOVE) {
                hm_used--;
                hm_key[pos] = hm_key[(pos + 1) % hm_alloc] == HM_NULL ? HM_NULL : HM_DELETED;
            }
            return pos;
        }
        pos = (pos + 1) % hm_alloc;
        if (pos == start) {
            if (kind != HM_ADD) {
                return -1;
            }
            if (avail >= 0) {
                hm_used++;
                hm_key[avail] = g;
                return avail;
            }
            hm_rehash();
            start = pos = g % hm_alloc;
        }
    }
}

// ---- the wire ----------------------------------------------------------------------------

static void write_all(const uint8_t *p, size_t n) {
    while (n > 0) {
        ssize_t r;
        MP_HAL_RETRY_SYSCALL(r, write(wire_out, p, n), mp_raise_OSError(err));
        p += r;
        n -= r;
    }
}

static void out_flush(void) {
    size_t n = olen;
    olen = 0;
    if (n) {
        write_all(obuf, n);
    }
}

static void out_put(const void *p, size_t n) {
    if (olen + n <= sizeof(obuf)) {
        memcpy(obuf + olen, p, n);
        olen += n;
        return;
    }
    out_flush();
    if (n <= sizeof(obuf)) {
        memcpy(obuf, p, n);
        olen = n;
    } else {
        write_all(p, n);
    }
}

// A frame's head: its kind, its length (u32), then `extra` bytes of the payload.
static void out_head(uint8_t kind, uint32_t n, const uint8_t *extra, size_t n_extra) {
    uint8_t head[9] = {kind, n & 0xFF, (n >> 8) & 0xFF, (n >> 16) & 0xFF, n >> 24};
    if (n_extra) {
        memcpy(head + 5, extra, n_extra);
    }
    out_put(head, 5 + n_extra);
}

static bool wired(void) {
    return wire_out >= 0;
}

static void say_bytes(const void *p, size_t n) {
    if (!wired()) {
        return;
    }
    out_head('R', n, NULL, 0);
    out_put(p, n);
    out_flush();
}

static void close_wire(void) {
    if (wire_in >= 0) {
        close(wire_in);
    }
    if (wire_out >= 0 && wire_out != wire_in) {
        close(wire_out);
    }
    wire_in = wire_out = -1;
    olen = 0;
}

static int open_path(mp_obj_t path, int flags) {
    const char *p = mp_obj_str_get_str(path);
    int fd;
    MP_HAL_RETRY_SYSCALL(fd, open(p, flags | O_CLOEXEC, 0666), mp_raise_OSError(err));
    return fd;
}

static mp_obj_t simchip_wire(mp_obj_t in_path, mp_obj_t out_path) {
    close_wire();
    if (in_path == mp_const_none && out_path == mp_const_none) {
        return mp_const_none;
    }
    // the order run.py opens them in: a FIFO's open waits for the other end
    wire_in = open_path(in_path, O_RDONLY);
    wire_out = open_path(out_path, O_WRONLY | O_CREAT | O_TRUNC);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_2(simchip_wire_obj, simchip_wire);

static bool read_all(uint8_t *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r;
        MP_HAL_RETRY_SYSCALL(r, read(wire_in, buf + got, n - got), mp_raise_OSError(err));
        if (r == 0) {
            return false;
        }
        got += r;
    }
    return true;
}

static void apply_board(void);
static void apply_nets(void);

static mp_obj_t simchip_command(void) {
    if (wire_in < 0) {
        mp_raise_msg(&mp_type_OSError, MP_ERROR_TEXT("simchip.wire() first"));
    }
    uint8_t head[3];
    if (!read_all(head, 3)) {
        return MP_OBJ_NEW_SMALL_INT(0);
    }
    size_t size = head[1] | head[2] << 8;
    if (size > CMD_MAX) {
        mp_raise_msg_varg(&mp_type_ValueError, MP_ERROR_TEXT("a command of %d bytes"), (int)size);
    }
    if (size && !read_all(cmd, size)) {
        return MP_OBJ_NEW_SMALL_INT(0);
    }
    if (head[0] == 'B') {
        apply_board();
    } else if (head[0] == 'N') {
        apply_nets();
    }
    return MP_OBJ_NEW_SMALL_INT(head[0]);
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_command_obj, simchip_command);

static mp_obj_t simchip_number(void) {
    return mp_obj_new_int_from_uint(cmd[0] | cmd[1] << 8 | cmd[2] << 16 | (uint32_t)cmd[3] << 24);
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_number_obj, simchip_number);

static mp_obj_t simchip_say(mp_obj_t line) {
    mp_buffer_info_t b;
    mp_get_buffer_raise(line, &b, MP_BUFFER_READ);
    say_bytes(b.buf, b.len);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(simchip_say_obj, simchip_say);

static uint8_t byte_arg(mp_obj_t o) {
    mp_int_t v = mp_obj_get_int(o);
    if (v < 0 || v > 255) {
        mp_raise_ValueError(MP_ERROR_TEXT("value out of range"));
    }
    return v;
}

static mp_obj_t simchip_canvas(mp_obj_t rows, mp_obj_t cols) {
    uint8_t rc[2] = {byte_arg(rows), byte_arg(cols)};
    if (wired()) {
        out_head('K', 2, rc, 2);
        out_flush();
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_2(simchip_canvas_obj, simchip_canvas);

// T: the length says 2 (row, col); the text's UTF-8 bytes and a 0 byte follow (as PipeWire.text).
static mp_obj_t simchip_text(mp_obj_t row, mp_obj_t col, mp_obj_t s) {
    uint8_t rc[2] = {byte_arg(row), mp_obj_get_int(col) & 0xFF};
    mp_buffer_info_t b;
    mp_get_buffer_raise(s, &b, MP_BUFFER_READ);
    if (wired()) {
        out_head('T', 2, rc, 2);
        out_put(b.buf, b.len);
        out_put("", 1);
        out_flush();
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_3(simchip_text_obj, simchip_text);

static mp_obj_t simchip_clear(mp_obj_t row) {
    uint8_t r = byte_arg(row);
    if (wired()) {
        out_head('C', 1, &r, 1);
        out_flush();
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(simchip_clear_obj, simchip_clear);

static mp_obj_t simchip_sleep_ms(mp_obj_t ms_in) {
    mp_int_t ms = mp_obj_get_int(ms_in);
    elapsed += ms;
    simtime_pass(ms);
    if (wired()) {
        uint8_t v[4] = {ms & 0xFF, (ms >> 8) & 0xFF, (ms >> 16) & 0xFF, (ms >> 24) & 0xFF};
        out_head('Z', 4, v, 4);
        out_flush();
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(simchip_sleep_ms_obj, simchip_sleep_ms);

// ---- faults and levels -------------------------------------------------------------------

static void fault(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_fault, sizeof(last_fault), fmt, ap);
    va_end(ap);
    fault_count++;
    if (strict_on) {
        mp_raise_msg_varg(&simchip_type_SimError, MP_ERROR_TEXT("%s"), last_fault);
    }
}

static bool missing(mp_int_t n) {
    return n == 20 || n == 24 || (n >= 28 && n <= 31);
}

// Machine.gpio: a GPIO the firmware takes.
static void gpio_take(mp_int_t n) {
    if (n < 0 || n >= NGPIO || missing(n)) {
        mp_raise_msg_varg(&mp_type_ValueError, MP_ERROR_TEXT("invalid pin %d"), (int)n);
    }
    if (n >= 6 && n <= 11) {
        fault("GPIO %d belongs to the module's flash", (int)n);
    }
    used[n] = 1;
}

// 0 or 1 when the chip drives the GPIO, else 2.
static int drive(int n) {
    if (has_duty[n]) {
        return duty[n] ? 1 : 0;
    }
    if (mode[n] == MODE_OUT) {
        return out[n];
    }
    if (mode[n] == MODE_OPEN_DRAIN && !out[n]) {
        return 0;
    }
    return 2;
}

// How many GPIOs are in n's net, left in net[:count] (n first).
static int members(int n) {
    net[0] = n;
    int count = 1;
    if (!npairs) {
        return 1;
    }
    memset(inside, 0, sizeof(inside));
    inside[n] = 1;
    for (int k = 0; k < count; k++) {
        int m = net[k];
        for (int p = 0; p < 2 * npairs; p += 2) {
            int a = pairs[p], b = pairs[p + 1];
            int other = a == m ? b : (b == m ? a : -1);
            if (other >= 0 && !inside[other]) {
                inside[other] = 1;
                net[count++] = other;
            }
        }
    }
    return count;
}

// Machine.level: 0 or 1; FLOATING for a floating net when quiet, else a fault.
static int level(int n, bool quiet) {
    bool low = false, high = false;
    int pulls = 2;
    int count = members(n);
    for (int k = 0; k < count; k++) {
        int m = net[k];
        int d = drive(m);
        if (d == 0) {
            low = true;
        } else if (d == 1) {
            high = true;
        }
        int flags = ext[m];
        if (flags & GROUND) {
            low = true;
        }
        if (pulls == 2) {
            int p = pull[m];
            if (p) {
                pulls = p == PULL_UP ? 1 : 0;
            } else if (flags & UP) {
                pulls = 1;
            } else if (flags & DOWN) {
                pulls = 0;
            }
        }
    }
    if (low && high) {
        if (!quiet) {
            fault("short circuit on GPIO %d", n);
        }
        return 0;
    }
    if (low || high) {
        return low ? 0 : 1;
    }
    if (pulls != 2) {
        return pulls;
    }
    if (!quiet) {
        fault("GPIO %d read while floating", n);
        return 1;
    }
    return FLOATING;
}

static bool is_heard(int n) {
    for (int i = 0; i < n_heard; i++) {
        if (heard[i] == n) {
            return true;
        }
    }
    return false;
}

static void edge(int g) {
    mp_obj_t handler = MP_STATE_VM(simchip_handlers)[g];
    int now = level(g, true);
    int before = seen[g];
    seen[g] = now;
    if (before == FLOATING || now == FLOATING || now == before || handler == MP_OBJ_NULL) {
        return;
    }
    if (trigger[g] & (now ? IRQ_RISING : IRQ_FALLING)) {
        mp_call_function_1(handler, MP_OBJ_FROM_PTR(&simchip_pins[g]));
    }
}

// Machine.changed: GPIO n's net may have changed level (-1: any GPIO, new nets): tell the board
// what it follows, run the edge interrupts due.
static void changed(int n) {
    for (int i = 0; i < n_heard; i++) {
        int g = heard[i];
        if (n < 0 || g == n || npairs) {
            int code = level(g, true) + 1;
            if (code != said[g]) {
                said[g] = code;
                if (wired()) {
                    uint8_t p[2] = {g, code - 1};
                    out_head('P', 2, p, 2);
                    out_flush();
                }
            }
        }
    }
    if (!hm_used) {
        return;
    }
    if (n >= 0 && npairs == 0) {
        if (hm_find(n, HM_LOOKUP) >= 0) {
            edge(n);
        }
        return;
    }
    for (size_t slot = 0; slot < hm_alloc; slot++) {  // the dict's order; a handler may change it
        uint8_t g = hm_key[slot];
        if (g != HM_NULL && g != HM_DELETED) {
            edge(g);
        }
    }
}

// ---- what the board says -----------------------------------------------------------------

static uint8_t frame_at(const uint8_t *frame, size_t i) {
    if (i >= CMD_MAX) {
        mp_raise_ValueError(MP_ERROR_TEXT("a board frame runs past its end"));
    }
    return frame[i];
}

static uint8_t gpio_at(const uint8_t *frame, size_t i) {
    uint8_t g = frame_at(frame, i);
    if (g >= NGPIO) {
        mp_raise_msg_varg(&mp_type_ValueError, MP_ERROR_TEXT("a board frame names GPIO %d"), g);
    }
    return g;
}

// B (Machine.wire_up): I2C buses and the addresses answering there, SPI buses, the GPIOs whose
// level the board follows; in place of the wiring before.
static void wire_up(const uint8_t *frame) {
    size_t i = 1;
    uint8_t count = frame_at(frame, 0);
    if (count > MAX_BUSES) {
        mp_raise_ValueError(MP_ERROR_TEXT("too many I2C buses"));
    }
    n_i2c = n_spi = n_heard = 0;
    for (uint8_t b = 0; b < count; b++) {
        i2c_bus[b].scl = frame_at(frame, i);
        i2c_bus[b].sda = frame_at(frame, i + 1);
        uint8_t k = frame_at(frame, i + 2);
        memset(i2c_bus[b].addr, 0, sizeof(i2c_bus[b].addr));
        for (uint8_t a = 0; a < k; a++) {
            uint8_t addr = frame_at(frame, i + 3 + a);
            i2c_bus[b].addr[addr >> 3] |= 1 << (addr & 7);
        }
        i += 3 + k;
        n_i2c = b + 1;
    }
    count = frame_at(frame, i++);
    if (count > MAX_BUSES) {
        mp_raise_ValueError(MP_ERROR_TEXT("too many SPI buses"));
    }
    for (uint8_t b = 0; b < count; b++) {
        spi_bus[b].sck = frame_at(frame, i);
        spi_bus[b].mosi = frame_at(frame, i + 1);
        i += 2;
        n_spi = b + 1;
    }
    count = frame_at(frame, i++);
    if (count > NGPIO) {
        mp_raise_ValueError(MP_ERROR_TEXT("too many GPIOs followed"));
    }
    for (uint8_t k = 0; k < count; k++) {
        heard[k] = gpio_at(frame, i + k);
        n_heard = k + 1;
    }
}

// A B command: taken at once while the chip is off; once it runs, kept for the next power_on()
// (run.py's Chip keeps the board for its next Machine).
static void apply_board(void) {
    if (powered) {
        memcpy(board_next, cmd, sizeof(cmd));
        board_pending = true;
    } else {
        wire_up(cmd);
    }
}

// N (Machine.nets): GPIOs joined in pairs, each touched GPIO's flags. Once the chip is powered,
// levels that changed run the edge interrupts and reach the board; before, the nets are only
// kept (run.py's Chip keeps them until its first Machine).
static void apply_nets(void) {
    uint8_t k = cmd[0];
    if (2 * k > (int)sizeof(pairs)) {
        mp_raise_msg(&simchip_type_SimError, MP_ERROR_TEXT("more keys held than the simulator follows"));
    }
    for (int i = 0; i < 2 * k; i++) {
        pairs[i] = gpio_at(cmd, 1 + i);
    }
    npairs = k;
    memset(ext, 0, sizeof(ext));
    size_t i = 1 + 2 * k;
    uint8_t count = frame_at(cmd, i);
    for (uint8_t c = 0; c < count; c++) {
        ext[gpio_at(cmd, i + 1)] = frame_at(cmd, i + 2);
        i += 2;
    }
    if (powered) {
        changed(-1);
    }
}

// ---- Pin ---------------------------------------------------------------------------------

static const mp_obj_type_t simchip_pin_type;

#define PIN(n) {{&simchip_pin_type}, n}
static const simchip_pin_obj_t simchip_pins[NGPIO] = {
    PIN(0), PIN(1), PIN(2), PIN(3), PIN(4), PIN(5), PIN(6), PIN(7), PIN(8), PIN(9),
    PIN(10), PIN(11), PIN(12), PIN(13), PIN(14), PIN(15), PIN(16), PIN(17), PIN(18), PIN(19),
    PIN(20), PIN(21), PIN(22), PIN(23), PIN(24), PIN(25), PIN(26), PIN(27), PIN(28), PIN(29),
    PIN(30), PIN(31), PIN(32), PIN(33), PIN(34), PIN(35), PIN(36), PIN(37), PIN(38), PIN(39),
};

static bool is_minus_one(mp_obj_t o) {
    return o == MP_OBJ_NEW_SMALL_INT(-1);
}

// SimPin.init: the latch first (the pin never glitches), the mode, the pull; then the level.
static void pin_init(int n, mp_obj_t mode_in, mp_obj_t pull_in, mp_obj_t value) {
    if (value != mp_const_none) {
        out[n] = mp_obj_is_true(value) ? 1 : 0;
    }
    if (!is_minus_one(mode_in)) {
        mp_int_t m = mp_obj_is_int(mode_in) || mp_obj_is_bool(mode_in) ? mp_obj_get_int(mode_in) : 0;
        if (m != MODE_IN && m != MODE_OUT && m != MODE_OPEN_DRAIN) {
            mp_raise_ValueError(MP_ERROR_TEXT("invalid pin mode"));
        }
        if (m != MODE_IN && n >= 34) {
            fault("GPIO %d is input-only", n);
        }
        mode[n] = m;
    }
    if (!is_minus_one(pull_in)) {
        mp_int_t p = pull_in == mp_const_none ? 0 : mp_obj_get_int(pull_in);
        if (p == PULL_UP && n >= 34) {
            fault("GPIO %d has no internal pull-up", n);
        }
        pull[n] = n >= 34 ? 0 : (uint8_t)p;
    }
    changed(n);
}

enum { ARG_id, ARG_mode, ARG_pull, ARG_value };
static const mp_arg_t pin_args[] = {
    { MP_QSTR_id, MP_ARG_REQUIRED | MP_ARG_OBJ, {.u_obj = MP_OBJ_NULL} },
    { MP_QSTR_mode, MP_ARG_OBJ, {.u_rom_obj = MP_ROM_INT(-1)} },
    { MP_QSTR_pull, MP_ARG_OBJ, {.u_rom_obj = MP_ROM_INT(-1)} },
    { MP_QSTR_value, MP_ARG_KW_ONLY | MP_ARG_OBJ, {.u_rom_obj = MP_ROM_NONE} },
};

static mp_obj_t pin_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    mp_arg_val_t v[MP_ARRAY_SIZE(pin_args)];
    mp_arg_parse_all_kw_array(n_args, n_kw, args, MP_ARRAY_SIZE(pin_args), pin_args, v);
    mp_int_t n = mp_obj_get_int(v[ARG_id].u_obj);
    gpio_take(n);
    pin_init(n, v[ARG_mode].u_obj, v[ARG_pull].u_obj, v[ARG_value].u_obj);
    return MP_OBJ_FROM_PTR(&simchip_pins[n]);
}

static int pin_n(mp_obj_t self) {
    return ((simchip_pin_obj_t *)MP_OBJ_TO_PTR(self))->id;
}

static mp_obj_t pin_init_method(size_t n_args, const mp_obj_t *args, mp_map_t *kw) {
    mp_arg_val_t v[MP_ARRAY_SIZE(pin_args) - 1];
    mp_arg_parse_all(n_args - 1, args + 1, kw, MP_ARRAY_SIZE(pin_args) - 1, pin_args + 1, v);
    pin_init(pin_n(args[0]), v[ARG_mode - 1].u_obj, v[ARG_pull - 1].u_obj, v[ARG_value - 1].u_obj);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_KW(pin_init_obj, 1, pin_init_method);

static mp_obj_t pin_value_of(int n, size_t n_args, const mp_obj_t *args) {
    if (n_args == 0 || args[0] == mp_const_none) {
        return MP_OBJ_NEW_SMALL_INT(level(n, false));
    }
    out[n] = mp_obj_is_true(args[0]) ? 1 : 0;
    changed(n);
    return mp_const_none;
}

static mp_obj_t pin_value(size_t n_args, const mp_obj_t *args) {
    return pin_value_of(pin_n(args[0]), n_args - 1, args + 1);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(pin_value_obj, 1, 2, pin_value);

static mp_obj_t pin_call(mp_obj_t self, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    mp_arg_check_num(n_args, n_kw, 0, 1, false);
    return pin_value_of(pin_n(self), n_args, args);
}

static mp_obj_t pin_on(mp_obj_t self) {
    int n = pin_n(self);
    out[n] = 1;
    changed(n);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(pin_on_obj, pin_on);

static mp_obj_t pin_off(mp_obj_t self) {
    int n = pin_n(self);
    out[n] = 0;
    changed(n);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(pin_off_obj, pin_off);

static mp_obj_t pin_irq(size_t n_args, const mp_obj_t *args, mp_map_t *kw) {
    static const mp_arg_t allowed[] = {
        { MP_QSTR_handler, MP_ARG_OBJ, {.u_rom_obj = MP_ROM_NONE} },
        { MP_QSTR_trigger, MP_ARG_OBJ, {.u_rom_obj = MP_ROM_INT(3)} },
    };
    mp_arg_val_t v[2];
    mp_arg_parse_all(n_args - 1, args + 1, kw, 2, allowed, v);
    int n = pin_n(args[0]);
    if (v[0].u_obj == mp_const_none) {
        hm_find(n, HM_REMOVE);
        MP_STATE_VM(simchip_handlers)[n] = MP_OBJ_NULL;
        return mp_const_none;
    }
    mp_int_t t = mp_obj_get_int(v[1].u_obj);
    hm_find(n, HM_ADD);
    MP_STATE_VM(simchip_handlers)[n] = v[0].u_obj;
    trigger[n] = t;
    seen[n] = level(n, true);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_KW(pin_irq_obj, 1, pin_irq);

static void pin_print(const mp_print_t *print, mp_obj_t self, mp_print_kind_t kind) {
    mp_printf(print, "Pin(%d)", pin_n(self));
}

static void pin_attr(mp_obj_t self, qstr attr, mp_obj_t *dest) {
    if (dest[0] == MP_OBJ_NULL && attr == MP_QSTR_id) {
        dest[0] = MP_OBJ_NEW_SMALL_INT(pin_n(self));
        return;
    }
    dest[1] = MP_OBJ_SENTINEL;  // the methods and constants: the locals dict
}

// The pin protocol (extmod/virtpin.h), as machine.PinBase gives it: machine.Signal works.
static mp_uint_t pin_ioctl(mp_obj_t self, mp_uint_t request, uintptr_t arg, int *errcode) {
    (void)errcode;
    int n = pin_n(self);
    switch (request) {
        case MP_PIN_READ:
            return level(n, false);
        case MP_PIN_WRITE:
            out[n] = arg ? 1 : 0;
            changed(n);
            return 0;
    }
    return -1;
}

static const mp_pin_p_t pin_pin_p = {
    .ioctl = pin_ioctl,
};

static const mp_rom_map_elem_t pin_locals_table[] = {
    { MP_ROM_QSTR(MP_QSTR_init), MP_ROM_PTR(&pin_init_obj) },
    { MP_ROM_QSTR(MP_QSTR_value), MP_ROM_PTR(&pin_value_obj) },
    { MP_ROM_QSTR(MP_QSTR_on), MP_ROM_PTR(&pin_on_obj) },
    { MP_ROM_QSTR(MP_QSTR_off), MP_ROM_PTR(&pin_off_obj) },
    { MP_ROM_QSTR(MP_QSTR_irq), MP_ROM_PTR(&pin_irq_obj) },
    { MP_ROM_QSTR(MP_QSTR_IN), MP_ROM_INT(MODE_IN) },
    { MP_ROM_QSTR(MP_QSTR_OUT), MP_ROM_INT(MODE_OUT) },
    { MP_ROM_QSTR(MP_QSTR_OPEN_DRAIN), MP_ROM_INT(MODE_OPEN_DRAIN) },
    { MP_ROM_QSTR(MP_QSTR_PULL_UP), MP_ROM_INT(PULL_UP) },
    { MP_ROM_QSTR(MP_QSTR_PULL_DOWN), MP_ROM_INT(PULL_DOWN) },
    { MP_ROM_QSTR(MP_QSTR_IRQ_RISING), MP_ROM_INT(IRQ_RISING) },
    { MP_ROM_QSTR(MP_QSTR_IRQ_FALLING), MP_ROM_INT(IRQ_FALLING) },
};
static MP_DEFINE_CONST_DICT(pin_locals, pin_locals_table);

static MP_DEFINE_CONST_OBJ_TYPE(simchip_pin_type, MP_QSTR_Pin, MP_TYPE_FLAG_NONE,
    make_new, pin_make_new,
    print, pin_print,
    call, pin_call,
    attr, pin_attr,
    protocol, &pin_pin_p,
    locals_dict, &pin_locals
    );

// getattr(o, "id", o): a pin argument's GPIO, as simbus.py takes it.
static mp_obj_t id_of(mp_obj_t o) {
    if (mp_obj_is_type(o, &simchip_pin_type)) {
        return MP_OBJ_NEW_SMALL_INT(pin_n(o));
    }
    mp_obj_t dest[2];
    mp_load_method_maybe(o, MP_QSTR_id, dest);
    return dest[0] != MP_OBJ_NULL && dest[1] == MP_OBJ_NULL ? dest[0] : o;
}

// A wire's number in the board's frame, or -1 where none can match (None, not an int).
static int wire_number(mp_obj_t o) {
    o = id_of(o);
    if (!mp_obj_is_int(o)) {
        return -1;
    }
    mp_int_t v = mp_obj_get_int(o);
    return v >= 0 && v <= 255 ? v : -1;
}

// ---- I2C (simbus.SimI2C) -----------------------------------------------------------------

typedef struct {
    mp_obj_base_t base;
    uint8_t id;
    int8_t bus;
    mp_int_t freq;
    mp_uint_t transactions;
    mp_uint_t bytes_written;  // payload bytes after the address byte
    uint8_t addr[32];
} simchip_i2c_obj_t;

static const mp_obj_type_t simchip_i2c_type;
static simchip_i2c_obj_t i2c_objs[2] = {{.base = {&simchip_i2c_type}, .id = 0}, {.base = {&simchip_i2c_type}, .id = 1}};

static mp_obj_t i2c_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    enum { A_id, A_scl, A_sda, A_freq, A_timeout };
    static const mp_arg_t allowed[] = {
        { MP_QSTR_id, MP_ARG_REQUIRED | MP_ARG_OBJ, {.u_obj = MP_OBJ_NULL} },
        { MP_QSTR_scl, MP_ARG_OBJ, {.u_rom_obj = MP_ROM_NONE} },
        { MP_QSTR_sda, MP_ARG_OBJ, {.u_rom_obj = MP_ROM_NONE} },
        { MP_QSTR_freq, MP_ARG_INT, {.u_int = 400000} },
        { MP_QSTR_timeout, MP_ARG_INT, {.u_int = 50000} },
    };
    mp_arg_val_t v[MP_ARRAY_SIZE(allowed)];
    mp_arg_parse_all_kw_array(n_args, n_kw, args, MP_ARRAY_SIZE(allowed), allowed, v);
    mp_int_t id = mp_obj_get_int(v[A_id].u_obj);
    if (id < 0 || id > 1) {
        mp_raise_msg_varg(&mp_type_ValueError, MP_ERROR_TEXT("I2C(%d) doesn't exist"), (int)id);
    }
    simchip_i2c_obj_t *self = &i2c_objs[id];
    int scl = wire_number(v[A_scl].u_obj), sda = wire_number(v[A_sda].u_obj);
    self->freq = v[A_freq].u_int;
    self->bus = -1;
    memset(self->addr, 0, sizeof(self->addr));
    for (int i = 0; i < n_i2c; i++) {  // the last bus on those wires, as the reference takes it
        if (i2c_bus[i].scl == scl && i2c_bus[i].sda == sda) {
            self->bus = i;
            memcpy(self->addr, i2c_bus[i].addr, sizeof(self->addr));
        }
    }
    self->transactions = 0;
    self->bytes_written = 0;
    return MP_OBJ_FROM_PTR(self);
}

static mp_obj_t i2c_scan(mp_obj_t self_in) {
    simchip_i2c_obj_t *self = MP_OBJ_TO_PTR(self_in);
    mp_obj_t list = mp_obj_new_list(0, NULL);
    for (int a = 0; a < 256; a++) {
        if (self->addr[a >> 3] & (1 << (a & 7))) {
            mp_obj_list_append(list, MP_OBJ_NEW_SMALL_INT(a));
        }
    }
    return list;
}
static MP_DEFINE_CONST_FUN_OBJ_1(i2c_scan_obj, i2c_scan);

// One write transaction: ENODEV where no address answers, else an I frame with the buffers'
// bytes; the acknowledged bytes, the address included.
static mp_obj_t i2c_write_bufs(simchip_i2c_obj_t *self, mp_obj_t addr_in, size_t n_bufs, const mp_obj_t *bufs) {
    mp_int_t addr = mp_obj_get_int(addr_in);
    if (addr < 0 || addr > 255 || !(self->addr[addr >> 3] & (1 << (addr & 7)))) {
        mp_raise_OSError(MP_ENODEV);
    }
    size_t n = 0;
    mp_buffer_info_t b;
    for (size_t i = 0; i < n_bufs; i++) {
        mp_get_buffer_raise(bufs[i], &b, MP_BUFFER_READ);
        n += b.len;
    }
    self->transactions++;
    self->bytes_written += n;
    if (wired()) {
        uint8_t ba[2] = {self->bus, addr};
        out_head('I', 2 + n, ba, 2);
        for (size_t i = 0; i < n_bufs; i++) {
            mp_get_buffer_raise(bufs[i], &b, MP_BUFFER_READ);
            out_put(b.buf, b.len);
        }
        out_flush();
    }
    return MP_OBJ_NEW_SMALL_INT(n + 1);
}

static const mp_arg_t i2c_write_args[] = {
    { MP_QSTR_addr, MP_ARG_REQUIRED | MP_ARG_OBJ, {.u_obj = MP_OBJ_NULL} },
    { MP_QSTR_buf, MP_ARG_REQUIRED | MP_ARG_OBJ, {.u_obj = MP_OBJ_NULL} },
    { MP_QSTR_stop, MP_ARG_BOOL, {.u_bool = true} },
};

static mp_obj_t i2c_writeto(size_t n_args, const mp_obj_t *args, mp_map_t *kw) {
    mp_arg_val_t v[3];
    mp_arg_parse_all(n_args - 1, args + 1, kw, 3, i2c_write_args, v);
    return i2c_write_bufs(MP_OBJ_TO_PTR(args[0]), v[0].u_obj, 1, &v[1].u_obj);
}
static MP_DEFINE_CONST_FUN_OBJ_KW(i2c_writeto_obj, 3, i2c_writeto);

static mp_obj_t i2c_writevto(size_t n_args, const mp_obj_t *args, mp_map_t *kw) {
    mp_arg_val_t v[3];
    mp_arg_parse_all(n_args - 1, args + 1, kw, 3, i2c_write_args, v);
    size_t n_bufs;
    mp_obj_t *bufs;
    mp_obj_get_array(v[1].u_obj, &n_bufs, &bufs);
    return i2c_write_bufs(MP_OBJ_TO_PTR(args[0]), v[0].u_obj, n_bufs, bufs);
}
static MP_DEFINE_CONST_FUN_OBJ_KW(i2c_writevto_obj, 3, i2c_writevto);

static void i2c_attr(mp_obj_t self_in, qstr attr, mp_obj_t *dest) {
    simchip_i2c_obj_t *self = MP_OBJ_TO_PTR(self_in);
    if (dest[0] == MP_OBJ_NULL) {
        switch (attr) {
            case MP_QSTR_id:
                dest[0] = MP_OBJ_NEW_SMALL_INT(self->id);
                return;
            case MP_QSTR_freq:
                dest[0] = mp_obj_new_int(self->freq);
                return;
            case MP_QSTR_transactions:
                dest[0] = mp_obj_new_int_from_uint(self->transactions);
                return;
            case MP_QSTR_bytes_written:
                dest[0] = mp_obj_new_int_from_uint(self->bytes_written);
                return;
        }
    }
    dest[1] = MP_OBJ_SENTINEL;
}

static void i2c_print(const mp_print_t *print, mp_obj_t self_in, mp_print_kind_t kind) {
    simchip_i2c_obj_t *self = MP_OBJ_TO_PTR(self_in);
    mp_printf(print, "I2C(%d, bus=%d)", self->id, self->bus);
}

static const mp_rom_map_elem_t i2c_locals_table[] = {
    { MP_ROM_QSTR(MP_QSTR_scan), MP_ROM_PTR(&i2c_scan_obj) },
    { MP_ROM_QSTR(MP_QSTR_writeto), MP_ROM_PTR(&i2c_writeto_obj) },
    { MP_ROM_QSTR(MP_QSTR_writevto), MP_ROM_PTR(&i2c_writevto_obj) },
};
static MP_DEFINE_CONST_DICT(i2c_locals, i2c_locals_table);

static MP_DEFINE_CONST_OBJ_TYPE(simchip_i2c_type, MP_QSTR_I2C, MP_TYPE_FLAG_NONE,
    make_new, i2c_make_new,
    print, i2c_print,
    attr, i2c_attr,
    locals_dict, &i2c_locals
    );

// ---- SPI (simbus.SimSPI) -----------------------------------------------------------------

typedef struct {
    mp_obj_base_t base;
    uint8_t id;
    int8_t bus;
    mp_int_t baudrate, polarity, phase;
    mp_uint_t writes;
    mp_uint_t bytes_written;
} simchip_spi_obj_t;

static const mp_obj_type_t simchip_spi_type;
static simchip_spi_obj_t spi_objs[2] = {{.base = {&simchip_spi_type}, .id = 1}, {.base = {&simchip_spi_type}, .id = 2}};

static mp_obj_t spi_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    enum { A_id, A_baudrate, A_polarity, A_phase, A_bits, A_firstbit, A_sck, A_mosi, A_miso };
    static const mp_arg_t allowed[] = {
        { MP_QSTR_id, MP_ARG_REQUIRED | MP_ARG_OBJ, {.u_obj = MP_OBJ_NULL} },
        { MP_QSTR_baudrate, MP_ARG_INT, {.u_int = 500000} },
        { MP_QSTR_polarity, MP_ARG_KW_ONLY | MP_ARG_INT, {.u_int = 0} },
        { MP_QSTR_phase, MP_ARG_KW_ONLY | MP_ARG_INT, {.u_int = 0} },
        { MP_QSTR_bits, MP_ARG_KW_ONLY | MP_ARG_INT, {.u_int = 8} },
        { MP_QSTR_firstbit, MP_ARG_KW_ONLY | MP_ARG_INT, {.u_int = 0} },
        { MP_QSTR_sck, MP_ARG_KW_ONLY | MP_ARG_OBJ, {.u_rom_obj = MP_ROM_NONE} },
        { MP_QSTR_mosi, MP_ARG_KW_ONLY | MP_ARG_OBJ, {.u_rom_obj = MP_ROM_NONE} },
        { MP_QSTR_miso, MP_ARG_KW_ONLY | MP_ARG_OBJ, {.u_obj = MP_OBJ_NULL} },  // NULL: not given
    };
    mp_arg_val_t v[MP_ARRAY_SIZE(allowed)];
    mp_arg_parse_all_kw_array(n_args, n_kw, args, MP_ARRAY_SIZE(allowed), allowed, v);
    mp_int_t id = mp_obj_get_int(v[A_id].u_obj);
    if (id != 1 && id != 2) {
        mp_raise_ValueError(MP_ERROR_TEXT("SPI ID must be 1 or 2"));
    }
    if (v[A_miso].u_obj == MP_OBJ_NULL) {  // the ESP32 port takes the bus's default MISO
        fault("SPI(%d) without miso= takes GPIO %d as MISO on the ESP32; pass miso=None for a "
            "write-only bus", (int)id, id == 1 ? 12 : 19);
    }
    simchip_spi_obj_t *self = &spi_objs[id - 1];
    self->baudrate = v[A_baudrate].u_int;
    self->polarity = v[A_polarity].u_int;
    self->phase = v[A_phase].u_int;
    int sck = wire_number(v[A_sck].u_obj), mosi = wire_number(v[A_mosi].u_obj);
    self->bus = -1;
    for (int i = 0; i < n_spi; i++) {
        if (spi_bus[i].sck == sck && spi_bus[i].mosi == mosi) {
            self->bus = i;
        }
    }
    self->writes = 0;
    self->bytes_written = 0;
    return MP_OBJ_FROM_PTR(self);
}

static mp_obj_t spi_write(mp_obj_t self_in, mp_obj_t buf) {
    simchip_spi_obj_t *self = MP_OBJ_TO_PTR(self_in);
    mp_buffer_info_t b;
    mp_get_buffer_raise(buf, &b, MP_BUFFER_READ);
    self->writes++;
    self->bytes_written += b.len;
    if (self->bus >= 0 && wired()) {  // a bus nothing is wired to: the bytes go nowhere
        uint8_t bus = self->bus;
        out_head('S', 1 + b.len, &bus, 1);
        out_put(b.buf, b.len);
        out_flush();
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_2(spi_write_obj, spi_write);

static mp_obj_t spi_deinit(mp_obj_t self_in) {
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(spi_deinit_obj, spi_deinit);

static void spi_attr(mp_obj_t self_in, qstr attr, mp_obj_t *dest) {
    simchip_spi_obj_t *self = MP_OBJ_TO_PTR(self_in);
    if (dest[0] == MP_OBJ_NULL) {
        switch (attr) {
            case MP_QSTR_id:
                dest[0] = MP_OBJ_NEW_SMALL_INT(self->id);
                return;
            case MP_QSTR_baudrate:
                dest[0] = mp_obj_new_int(self->baudrate);
                return;
            case MP_QSTR_polarity:
                dest[0] = mp_obj_new_int(self->polarity);
                return;
            case MP_QSTR_phase:
                dest[0] = mp_obj_new_int(self->phase);
                return;
            case MP_QSTR_writes:
                dest[0] = mp_obj_new_int_from_uint(self->writes);
                return;
            case MP_QSTR_bytes_written:
                dest[0] = mp_obj_new_int_from_uint(self->bytes_written);
                return;
        }
    }
    dest[1] = MP_OBJ_SENTINEL;
}

static void spi_print(const mp_print_t *print, mp_obj_t self_in, mp_print_kind_t kind) {
    simchip_spi_obj_t *self = MP_OBJ_TO_PTR(self_in);
    mp_printf(print, "SPI(%d, bus=%d)", self->id, self->bus);
}

static const mp_rom_map_elem_t spi_locals_table[] = {
    { MP_ROM_QSTR(MP_QSTR_write), MP_ROM_PTR(&spi_write_obj) },
    { MP_ROM_QSTR(MP_QSTR_deinit), MP_ROM_PTR(&spi_deinit_obj) },
};
static MP_DEFINE_CONST_DICT(spi_locals, spi_locals_table);

static MP_DEFINE_CONST_OBJ_TYPE(simchip_spi_type, MP_QSTR_SPI, MP_TYPE_FLAG_NONE,
    make_new, spi_make_new,
    print, spi_print,
    attr, spi_attr,
    locals_dict, &spi_locals
    );

// ---- PWM (simbus.SimPWM) -----------------------------------------------------------------

typedef struct {
    mp_obj_base_t base;
    uint8_t n;
    mp_int_t freq;
} simchip_pwm_obj_t;

static const mp_obj_type_t simchip_pwm_type;
static simchip_pwm_obj_t pwm_objs[NGPIO];

static void pwm_said(int n, uint16_t d, bool on) {
    if (wired() && is_heard(n)) {
        uint8_t p[4] = {n, d & 0xFF, d >> 8, on};
        out_head('W', 4, p, 4);
        out_flush();
    }
}

static void pwm_set(int n, mp_obj_t value) {
    // max(0, min(65535, int(value)))
    mp_obj_t i = mp_call_function_1(MP_OBJ_FROM_PTR(&mp_type_int), value);
    mp_int_t d;
    if (mp_obj_is_small_int(i)) {
        d = MP_OBJ_SMALL_INT_VALUE(i);
    } else {
        d = mp_obj_int_sign(i) < 0 ? 0 : 65535;
    }
    d = d < 0 ? 0 : (d > 65535 ? 65535 : d);
    has_duty[n] = 1;
    duty[n] = d;
    pwm_said(n, d, true);
    changed(n);
}

static mp_obj_t pwm_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    enum { A_pin, A_freq, A_duty_u16 };
    static const mp_arg_t allowed[] = {
        { MP_QSTR_pin, MP_ARG_REQUIRED | MP_ARG_OBJ, {.u_obj = MP_OBJ_NULL} },
        { MP_QSTR_freq, MP_ARG_INT, {.u_int = 1000} },
        { MP_QSTR_duty_u16, MP_ARG_OBJ, {.u_rom_obj = MP_ROM_INT(0)} },
    };
    mp_arg_val_t v[MP_ARRAY_SIZE(allowed)];
    mp_arg_parse_all_kw_array(n_args, n_kw, args, MP_ARRAY_SIZE(allowed), allowed, v);
    mp_int_t n = mp_obj_get_int(id_of(v[A_pin].u_obj));
    gpio_take(n);
    if (n >= 34) {
        fault("GPIO %d is input-only: no PWM", (int)n);
    }
    simchip_pwm_obj_t *self = &pwm_objs[n];
    self->base.type = &simchip_pwm_type;
    self->n = n;
    self->freq = v[A_freq].u_int;
    mode[n] = MODE_OUT;
    pwm_set(n, v[A_duty_u16].u_obj);
    return MP_OBJ_FROM_PTR(self);
}

static mp_obj_t pwm_duty_u16(size_t n_args, const mp_obj_t *args) {
    simchip_pwm_obj_t *self = MP_OBJ_TO_PTR(args[0]);
    if (n_args == 1 || args[1] == mp_const_none) {
        return has_duty[self->n] ? MP_OBJ_NEW_SMALL_INT(duty[self->n]) : mp_const_none;
    }
    pwm_set(self->n, args[1]);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(pwm_duty_u16_obj, 1, 2, pwm_duty_u16);

static mp_obj_t pwm_freq(size_t n_args, const mp_obj_t *args) {
    simchip_pwm_obj_t *self = MP_OBJ_TO_PTR(args[0]);
    if (n_args == 1 || args[1] == mp_const_none) {
        return mp_obj_new_int(self->freq);
    }
    self->freq = mp_obj_get_int(args[1]);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(pwm_freq_obj, 1, 2, pwm_freq);

static mp_obj_t pwm_deinit(mp_obj_t self_in) {
    simchip_pwm_obj_t *self = MP_OBJ_TO_PTR(self_in);
    int n = self->n;
    has_duty[n] = 0;
    duty[n] = 0;
    pwm_said(n, 0, false);
    changed(n);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(pwm_deinit_obj, pwm_deinit);

static void pwm_print(const mp_print_t *print, mp_obj_t self_in, mp_print_kind_t kind) {
    simchip_pwm_obj_t *self = MP_OBJ_TO_PTR(self_in);
    mp_printf(print, "PWM(Pin(%d))", self->n);
}

static const mp_rom_map_elem_t pwm_locals_table[] = {
    { MP_ROM_QSTR(MP_QSTR_duty_u16), MP_ROM_PTR(&pwm_duty_u16_obj) },
    { MP_ROM_QSTR(MP_QSTR_freq), MP_ROM_PTR(&pwm_freq_obj) },
    { MP_ROM_QSTR(MP_QSTR_deinit), MP_ROM_PTR(&pwm_deinit_obj) },
};
static MP_DEFINE_CONST_DICT(pwm_locals, pwm_locals_table);

static MP_DEFINE_CONST_OBJ_TYPE(simchip_pwm_type, MP_QSTR_PWM, MP_TYPE_FLAG_NONE,
    make_new, pwm_make_new,
    print, pwm_print,
    locals_dict, &pwm_locals
    );

// ---- the watchdog (simwdt.py) ------------------------------------------------------------

static void wdt_say(const char *fmt, mp_int_t v) {
    if (wired()) {
        char line[24];
        int n = snprintf(line, sizeof(line), fmt, (int)v);
        say_bytes(line, n);
    }
}

static const mp_obj_type_t simchip_wdt_type;
static const mp_obj_base_t wdt_obj = {&simchip_wdt_type};

static mp_obj_t wdt_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    static const mp_arg_t allowed[] = {
        { MP_QSTR_id, MP_ARG_INT, {.u_int = 0} },
        { MP_QSTR_timeout, MP_ARG_INT, {.u_int = 5000} },
    };
    mp_arg_val_t v[2];
    mp_arg_parse_all_kw_array(n_args, n_kw, args, 2, allowed, v);
    mp_int_t timeout = v[1].u_int;
    if (timeout <= 0) {
        mp_raise_ValueError(MP_ERROR_TEXT("timeout must be positive"));
    }
    wdt_limit = timeout;
    wdt_unfed = 0;
    wdt_say("wdt %d", timeout);
    return MP_OBJ_FROM_PTR(&wdt_obj);
}

static mp_obj_t wdt_feed(mp_obj_t self) {
    wdt_unfed = 0;
    if (wired()) {
        say_bytes("fed", 3);
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(wdt_feed_obj, wdt_feed);

static const mp_rom_map_elem_t wdt_locals_table[] = {
    { MP_ROM_QSTR(MP_QSTR_feed), MP_ROM_PTR(&wdt_feed_obj) },
};
static MP_DEFINE_CONST_DICT(wdt_locals, wdt_locals_table);

static MP_DEFINE_CONST_OBJ_TYPE(simchip_wdt_type, MP_QSTR_WDT, MP_TYPE_FLAG_NONE,
    make_new, wdt_make_new,
    locals_dict, &wdt_locals
    );

static mp_obj_t simchip_wdt_elapse(mp_obj_t ms) {
    simtime_pass(mp_obj_get_int(ms));  // called at every step of the firmware: the chip's time
    if (!wdt_limit) {
        return mp_const_none;
    }
    wdt_unfed += mp_obj_get_int(ms);
    if (wdt_unfed > wdt_limit) {
        mp_raise_msg_varg(&simchip_type_WatchdogReset, MP_ERROR_TEXT("not fed for %d ms"), (int)wdt_unfed);
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(simchip_wdt_elapse_obj, simchip_wdt_elapse);

static mp_obj_t simchip_wdt_stop(void) {
    if (wdt_limit) {
        wdt_limit = wdt_unfed = 0;
        wdt_say("wdt %d", 0);
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_wdt_stop_obj, simchip_wdt_stop);

static mp_obj_t simchip_wdt_state(void) {
    mp_obj_t items[2] = {mp_obj_new_int(wdt_limit), mp_obj_new_int(wdt_unfed)};
    return mp_obj_new_tuple(2, items);
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_wdt_state_obj, simchip_wdt_state);

// ---- the rest of `machine`, and the simulator's questions --------------------------------

static mp_obj_t simchip_strict(size_t n_args, const mp_obj_t *args) {
    bool was = strict_on;
    if (n_args) {
        strict_on = mp_obj_is_true(args[0]);
    }
    return mp_obj_new_bool(was);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(simchip_strict_obj, 0, 1, simchip_strict);

static mp_obj_t simchip_faults(void) {
    return mp_obj_new_int_from_uint(fault_count);
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_faults_obj, simchip_faults);

static mp_obj_t simchip_last_fault(void) {
    return fault_count ? mp_obj_new_str_from_cstr(last_fault) : mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_last_fault_obj, simchip_last_fault);

static int gpio_arg(mp_obj_t o) {
    mp_int_t n = mp_obj_get_int(o);
    if (n < 0 || n >= NGPIO) {
        mp_raise_msg_varg(&mp_type_ValueError, MP_ERROR_TEXT("invalid pin %d"), (int)n);
    }
    return n;
}

// level(n, quiet=False): Machine.level: 0 or 1; None for a floating net when quiet, else a fault.
static mp_obj_t simchip_level(size_t n_args, const mp_obj_t *args) {
    int v = level(gpio_arg(args[0]), n_args > 1 && mp_obj_is_true(args[1]));
    return v == FLOATING ? mp_const_none : MP_OBJ_NEW_SMALL_INT(v);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(simchip_level_obj, 1, 2, simchip_level);

static mp_obj_t simchip_brightness(mp_obj_t n_in) {
    int n = gpio_arg(n_in);
    if (has_duty[n]) {
        return mp_obj_new_float((mp_float_t)duty[n] / 65535);
    }
    int v = level(n, true);
    return MP_OBJ_NEW_SMALL_INT(v == FLOATING ? 0 : v);
}
static MP_DEFINE_CONST_FUN_OBJ_1(simchip_brightness_obj, simchip_brightness);

static mp_obj_t simchip_keys_held(void) {
    return MP_OBJ_NEW_SMALL_INT(npairs);
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_keys_held_obj, simchip_keys_held);

static mp_obj_t simchip_grounded(mp_obj_t n) {
    return mp_obj_new_bool(ext[gpio_arg(n)] & GROUND);
}
static MP_DEFINE_CONST_FUN_OBJ_1(simchip_grounded_obj, simchip_grounded);

static mp_obj_t simchip_elapsed_ms(void) {
    return mp_obj_new_int_from_ull(elapsed);
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_elapsed_ms_obj, simchip_elapsed_ms);

static mp_obj_t simchip_reset(void) {
    reset_was_asked = true;
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_reset_obj, simchip_reset);

static mp_obj_t simchip_reset_asked(void) {
    return mp_obj_new_bool(reset_was_asked);
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_reset_asked_obj, simchip_reset_asked);

static mp_obj_t simchip_reset_cause(void) {
    return mp_obj_new_int(cause);
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_reset_cause_obj, simchip_reset_cause);

static mp_obj_t simchip_set_reset_cause(mp_obj_t n) {
    cause = mp_obj_get_int(n);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(simchip_set_reset_cause_obj, simchip_set_reset_cause);

static const MP_DEFINE_BYTES_OBJ(unique_id_bytes, "\x24\x0a\xc4\x00\x51\xe7", 6);

static mp_obj_t simchip_unique_id(void) {
    return MP_OBJ_FROM_PTR(&unique_id_bytes);
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_unique_id_obj, simchip_unique_id);

// WLAN(interface=None): the station (simnet.c, sim/simnet.py's in C), made by the first call (until
// power_on()).
static mp_obj_t simchip_wlan(size_t n_args, const mp_obj_t *args) {
    if (MP_STATE_VM(simchip_wlan) == MP_OBJ_NULL) {
        MP_STATE_VM(simchip_wlan) = simnet_station();
    }
    return MP_STATE_VM(simchip_wlan);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(simchip_wlan_obj, 0, 1, simchip_wlan);

// power_on(): the power-up, and each wake in the same process (run.py's Chip.make, a new
// Machine): every pin back to its reset state, no handlers, no PWM, no faults, no reset asked, no
// Wi-Fi station; the board's wiring and nets, the wire, the reset cause, strict and the watchdog
// stay. Then the board is told the levels it follows, as a new Machine given the nets tells it.
static mp_obj_t simchip_power_on(void) {
    memset(mode, 0, sizeof(mode));
    memset(pull, 0, sizeof(pull));
    memset(out, 0, sizeof(out));
    memset(used, 0, sizeof(used));
    memset(has_duty, 0, sizeof(has_duty));
    memset(duty, 0, sizeof(duty));
    memset(seen, 0, sizeof(seen));
    memset(said, 0, sizeof(said));
    memset(trigger, 0, sizeof(trigger));
    for (int i = 0; i < NGPIO; i++) {
        MP_STATE_VM(simchip_handlers)[i] = MP_OBJ_NULL;
    }
    hm_alloc = hm_used = 0;
    memset(hm_key, HM_NULL, sizeof(hm_key));
    elapsed = 0;
    reset_was_asked = false;
    fault_count = 0;
    last_fault[0] = 0;
    MP_STATE_VM(simchip_wlan) = MP_OBJ_NULL;
    if (board_pending) {
        board_pending = false;
        wire_up(board_next);
    }
    powered = true;
    changed(-1);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_0(simchip_power_on_obj, simchip_power_on);

static const mp_rom_map_elem_t simchip_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_simchip) },
    // the wire
    { MP_ROM_QSTR(MP_QSTR_wire), MP_ROM_PTR(&simchip_wire_obj) },
    { MP_ROM_QSTR(MP_QSTR_command), MP_ROM_PTR(&simchip_command_obj) },
    { MP_ROM_QSTR(MP_QSTR_number), MP_ROM_PTR(&simchip_number_obj) },
    { MP_ROM_QSTR(MP_QSTR_say), MP_ROM_PTR(&simchip_say_obj) },
    { MP_ROM_QSTR(MP_QSTR_canvas), MP_ROM_PTR(&simchip_canvas_obj) },
    { MP_ROM_QSTR(MP_QSTR_text), MP_ROM_PTR(&simchip_text_obj) },
    { MP_ROM_QSTR(MP_QSTR_clear), MP_ROM_PTR(&simchip_clear_obj) },
    // machine
    { MP_ROM_QSTR(MP_QSTR_Pin), MP_ROM_PTR(&simchip_pin_type) },
    { MP_ROM_QSTR(MP_QSTR_I2C), MP_ROM_PTR(&simchip_i2c_type) },
    { MP_ROM_QSTR(MP_QSTR_SPI), MP_ROM_PTR(&simchip_spi_type) },
    { MP_ROM_QSTR(MP_QSTR_PWM), MP_ROM_PTR(&simchip_pwm_type) },
    { MP_ROM_QSTR(MP_QSTR_WDT), MP_ROM_PTR(&simchip_wdt_type) },
    { MP_ROM_QSTR(MP_QSTR_sleep_ms), MP_ROM_PTR(&simchip_sleep_ms_obj) },
    { MP_ROM_QSTR(MP_QSTR_reset), MP_ROM_PTR(&simchip_reset_obj) },
    { MP_ROM_QSTR(MP_QSTR_reset_cause), MP_ROM_PTR(&simchip_reset_cause_obj) },
    { MP_ROM_QSTR(MP_QSTR_unique_id), MP_ROM_PTR(&simchip_unique_id_obj) },
    { MP_ROM_QSTR(MP_QSTR_WLAN), MP_ROM_PTR(&simchip_wlan_obj) },
    { MP_ROM_QSTR(MP_QSTR_PWRON_RESET), MP_ROM_INT(1) },
    { MP_ROM_QSTR(MP_QSTR_HARD_RESET), MP_ROM_INT(2) },
    { MP_ROM_QSTR(MP_QSTR_WDT_RESET), MP_ROM_INT(3) },
    { MP_ROM_QSTR(MP_QSTR_DEEPSLEEP_RESET), MP_ROM_INT(4) },
    { MP_ROM_QSTR(MP_QSTR_SOFT_RESET), MP_ROM_INT(5) },
    // the simulator's
    { MP_ROM_QSTR(MP_QSTR_Flash), MP_ROM_PTR(&simchip_flash_type) },
    { MP_ROM_QSTR(MP_QSTR_SimError), MP_ROM_PTR(&simchip_type_SimError) },
    { MP_ROM_QSTR(MP_QSTR_WatchdogReset), MP_ROM_PTR(&simchip_type_WatchdogReset) },
    { MP_ROM_QSTR(MP_QSTR_RESET_EXIT), MP_ROM_INT(3) },
    { MP_ROM_QSTR(MP_QSTR_wdt_elapse), MP_ROM_PTR(&simchip_wdt_elapse_obj) },
    { MP_ROM_QSTR(MP_QSTR_wdt_stop), MP_ROM_PTR(&simchip_wdt_stop_obj) },
    { MP_ROM_QSTR(MP_QSTR_wdt_state), MP_ROM_PTR(&simchip_wdt_state_obj) },
    { MP_ROM_QSTR(MP_QSTR_strict), MP_ROM_PTR(&simchip_strict_obj) },
    { MP_ROM_QSTR(MP_QSTR_faults), MP_ROM_PTR(&simchip_faults_obj) },
    { MP_ROM_QSTR(MP_QSTR_last_fault), MP_ROM_PTR(&simchip_last_fault_obj) },
    { MP_ROM_QSTR(MP_QSTR_level), MP_ROM_PTR(&simchip_level_obj) },
    { MP_ROM_QSTR(MP_QSTR_brightness), MP_ROM_PTR(&simchip_brightness_obj) },
    { MP_ROM_QSTR(MP_QSTR_keys_held), MP_ROM_PTR(&simchip_keys_held_obj) },
    { MP_ROM_QSTR(MP_QSTR_grounded), MP_ROM_PTR(&simchip_grounded_obj) },
    { MP_ROM_QSTR(MP_QSTR_elapsed_ms), MP_ROM_PTR(&simchip_elapsed_ms_obj) },
    { MP_ROM_QSTR(MP_QSTR_reset_asked), MP_ROM_PTR(&simchip_reset_asked_obj) },
    { MP_ROM_QSTR(MP_QSTR_set_reset_cause), MP_ROM_PTR(&simchip_set_reset_cause_obj) },
    { MP_ROM_QSTR(MP_QSTR_power_on), MP_ROM_PTR(&simchip_power_on_obj) },
};
static MP_DEFINE_CONST_DICT(simchip_globals, simchip_globals_table);

const mp_obj_module_t simchip_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&simchip_globals,
};

MP_REGISTER_MODULE(MP_QSTR_simchip, simchip_module);
