// simtime: the chip's own clock and random numbers on the measuring build, so that the same run
// writes the same flash and leaves the same heap every time (firmware/port/README.md, "The
// chip's limits, modelled").
//
// The wall clock. The ESP32 starts with its system time at 0 and our firmware never sets it
// (firmware/clock.py keeps the laptop's time in Python), so MicroPython's mp_hal_time_ns()
// (ports/esp32/mphalport.c: gettimeofday) is the time since power-up, and LittleFS stamps each
// file with it (extmod/vfs_lfs.c lfs_get_mtime: MicroPython's Epoch, 2000 on the ESP32, turned
// into nanoseconds since 1970). The unix port would stamp the laptop's clock instead, so every
// run's flash differed: its metadata CRCs, and with them LittleFS's block allocator (lfs2.c
// seeds it from those CRCs). Here the clock is the simulated time the firmware has run since
// the process (the power-up) started: whole steps (simchip's wdt_elapse, called at each) and
// the drivers' sleep_ms. mpconfigvariant.h points mp_hal_time_ns at simtime_ns.
//
// Random numbers. os.urandom and the random module's seed come from mp_hal_get_random
// (linked through --wrap, mpconfigvariant.mk). With TAFEL_CHIP_SEED=N in the environment they
// are a fixed sequence from N (splitmix64), so a flash made twice is the same byte for byte (the
// index's epoch is drawn at random); unset, the laptop's random source, as the chip's hardware
// RNG would be.
#include <stdint.h>
#include <stdlib.h>

#include "py/mphal.h"

#define SECONDS_1970_TO_2000 (946684800ULL)

static uint64_t uptime_ms;

void simtime_pass(uint64_t ms) {
    uptime_ms += ms;
}

uint64_t simtime_ns(void) {
    // the ESP32's 2000 Epoch as the unix build's 1970 one: the on-disk stamp comes out the chip's
    return (SECONDS_1970_TO_2000 * 1000ULL + uptime_ms) * 1000000ULL;
}

void __real_mp_hal_get_random(size_t n, uint8_t *buf);

static uint64_t seed_state;
static int seeded = -1;  // -1 not looked yet, 0 no seed (the laptop's randomness), 1 seeded

void __wrap_mp_hal_get_random(size_t n, uint8_t *buf) {
    if (seeded < 0) {
        const char *seed = getenv("TAFEL_CHIP_SEED");
        seeded = seed != NULL && *seed;
        if (seeded) {
            seed_state = strtoull(seed, NULL, 10);
        }
    }
    if (!seeded) {
        __real_mp_hal_get_random(n, buf);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0) {  // splitmix64: one step per eight bytes
            seed_state += 0x9E3779B97F4A7C15ULL;
        }
        uint64_t z = seed_state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        buf[i] = (uint8_t)(z >> (8 * (i % 8)));
    }
}
