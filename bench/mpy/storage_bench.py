# MicroPython side of bench/storage_wear.py (run that, not this).
#
#   micropython bench/mpy/storage_bench.py REPO SECTION
# prints one JSON object per line. Sections:
#   wear     flash programmed/erased per saved round of a 10-seat game, for the
#            store and for two naive single-file journals, at rounds 1/100/300
#   listing  boot and history listing with 500 stored games vs loading one
#   capacity how many typical games a 2 MB chip stores before new ones are refused
#   sweep    power-cut sweep sizes: the evening (every op, clean and
#            torn, plus cuts during recovery) and a 300-round evening
#   sweep-quick  the evening only
import json
import sys
import time

REPO = sys.argv[1]
for sub in ("/tests/firmware", "/firmware", "/lib"):
    sys.path.insert(0, REPO + sub)


class _CollectWhenFull:
    # The sweep's firmware gets this as `gc`: its own gc.collect() calls (one per save, where the
    # chip lets its heap reserve go) do nothing, the interpreter still collects when the heap is
    # full. Here the heap is megabytes, most of it the emulated flash's images, which every
    # collection scans: a 300-round sweep took an hour of collections. What the sweep proves (no
    # cut loses an acknowledged action) does not depend on when garbage is collected.
    def collect(self):
        pass

    def __getattr__(self, name):
        return getattr(_gc, name)


if sys.argv[2].startswith("sweep"):
    import gc as _gc

    sys.modules["gc"] = _CollectWhenFull()  # before the firmware's modules import it

import vfs  # noqa: E402

from sim.flashdev import FlashDev  # noqa: E402
from store.fsys import Disk  # noqa: E402
from store.gamelog import SEGMENT_MAX  # noqa: E402
from store.mount import mount  # noqa: E402
from store.space import Space  # noqa: E402
from store.store import Store  # noqa: E402
from tafel.game import Game  # noqa: E402

TEN = ("Anna", "Ben", "Cleo", "Dieter", "Eva", "Fritz", "Gül", "Hanna & Ömer", "Ida", "Jan")
MARKS = (1, 100, 300)


def emit(**row):
    print(json.dumps(row))


def hands_for(players, r):
    # Plausible hands: 0 for the winner, 0..199 for the others (about a third
    # of them take a 2-byte varint).
    winner = players[r % len(players)]
    seed = r * 7919 + 17
    hands = {}
    for p in players:
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        hands[p] = 0 if p == winner else (seed >> 16) % 200
    return hands, winner


def new_store(blocks=512, mtime=True):
    dev = FlashDev(blocks=blocks)
    vol, _ = mount(dev, mtime=mtime)  # mtime: as the ESP32 mounts it
    store = Store(Disk(vol, "/data"))
    store.boot()
    return dev, vol, store


def start(store, players, target, when=0, variant="standard"):
    game_id = store.next_game_id()
    game = Game(players, variant, target, None, when, game_id)
    store.new_game(game_id, game.create_record())
    return game_id, game


# ---- wear ---------------------------------------------------------------------


def wear():
    dev, vol, store = new_store()
    game_id, game = start(store, TEN, 10 ** 6, variant="penalty")
    records = []
    per = []
    for r in range(1, 301):
        rec = game.round_record(*hands_for(TEN, r))
        records.append(rec)
        p0, e0, n0 = dev.programmed, dev.erases, dev.programs
        store.append(game_id, rec)
        game.apply(rec)
        per.append((dev.programmed - p0, dev.erases - e0, dev.programs - n0))
    # putting the finished game away (compact copy + index), once per game
    rec = game.finish_record(1)
    store.append(game_id, rec)
    game.apply(rec)
    p0, e0 = dev.programmed, dev.erases
    store.game_finished(game_id, game)
    away = (dev.programmed - p0, dev.erases - e0)
    summary("store", per, len(records[-1]))
    emit(section="wear", design="store", round="put away", programmed=away[0], erases=away[1], programs=0,
         segment=SEGMENT_MAX)
    for design in ("reopen", "keep-open"):
        summary(design, naive(records, design), len(records[-1]))


def summary(design, per, size):
    for r in MARKS:
        p, e, n = per[r - 1]
        emit(section="wear", design=design, round=str(r), programmed=p, erases=e, programs=n, record=size)
    emit(section="wear", design=design, round="mean", programmed=sum(x[0] for x in per) // len(per),
         erases=sum(x[1] for x in per) / len(per), programs=sum(x[2] for x in per) // len(per))
    emit(section="wear", design=design, round="max", programmed=max(x[0] for x in per),
         erases=max(x[1] for x in per), programs=max(x[2] for x in per))


def naive(records, design):
    # The obvious designs: one journal file per game, appended and synced.
    from tafel import journal

    dev = FlashDev()
    vfs.VfsLfs2.mkfs(dev)
    vol = vfs.VfsLfs2(dev)
    f = vol.open("/game", "ab") if design == "keep-open" else None
    per = []
    for seq in range(len(records)):
        data = journal.frame(seq + 1, records[seq])
        p0, e0, n0 = dev.programmed, dev.erases, dev.programs
        if f is None:
            g = vol.open("/game", "ab")
            g.write(data)
            g.close()
        else:
            f.write(data)
            f.flush()
        per.append((dev.programmed - p0, dev.erases - e0, dev.programs - n0))
    if f is not None:
        f.close()
    return per


# ---- listing vs loading -----------------------------------------------------------


class FillStore(Store):
    # A store that never asks LittleFS for free space (that walks every file,
    # and filling hundreds of games would spend minutes on it): for building
    # fixtures only, never for measuring.
    def space(self):
        return Space(1 << 20, 1 << 20, 4096)


def fill(store, count, when=1000):
    # Typical finished games: 4 seats, standard to 500.
    players = ("Anna", "Ben", "Cleo", "Dieter")
    for n in range(count):
        game_id, game = start(store, players, 500, when + n)
        r = 0
        while not game.finished:
            rec = game.round_record(*hands_for(players, r + n))
            store.append(game_id, rec)
            game.apply(rec)
            r += 1
        store.game_finished(game_id, game)


def best_of(runs, fn):
    best = None
    for _ in range(runs):
        t = time.ticks_us()
        fn()
        dt = time.ticks_diff(time.ticks_us(), t)
        best = dt if best is None or dt < best else best
    return best


def listing():
    # 500 typical games do not fit a 2 MB chip (see capacity), so this uses an
    # 8 MB emulated chip (both copies); the listing cost depends on the count, not the size.
    dev, vol, store = new_store(blocks=2048)
    store = FillStore(store.disk)
    store.boot()
    fill(store, 500)
    big_id, big = start(store, TEN, 10 ** 6, variant="penalty")
    for r in range(300):
        rec = big.round_record(*hands_for(TEN, r))
        store.append(big_id, rec)
        big.apply(rec)
    rec = big.finish_record(2)
    store.append(big_id, rec)
    big.apply(rec)
    store.game_finished(big_id, big)
    image = dev.image
    box = {}

    def boot():
        d = FlashDev(blocks=2048, image=image)
        v, _ = mount(d)
        s = Store(Disk(v, "/data"))
        s.boot()
        box["store"], box["dev"] = s, d

    def listing_all():
        s = box["store"]
        s.summaries(s.history())

    def page():
        s = box["store"]
        s.summaries(s.history()[:6])

    boot()
    typical = box["store"].history()[1]

    def load_typical():
        box["store"].read_game(typical)

    def load_big():
        box["store"].read_game(big_id)

    def space():
        box["store"].forget_space()
        box["store"].space()

    rows = (("boot: mount + boot check (incl. free space)", boot),
            ("  of which the free-space walk (statvfs)", space),
            ("history: ids + first page (6 summaries)", page),
            ("history: ids + all 501 summaries", listing_all),
            ("load one typical game (4 seats, ~6 rounds)", load_typical),
            ("load one 10-seat game of 300 rounds", load_big))
    for name, fn in rows:
        boot()
        d = box["dev"]
        d.reset_counters()
        fn()
        d = box["dev"]  # boot() made a new one
        reads, read_bytes = d.reads, d.read_bytes
        us = best_of(5, fn)
        emit(section="listing", what=name, us=us, reads=reads, read_bytes=read_bytes)


def capacity():
    # Typical games until the store refuses a new one. While the flash is far
    # from the warning, games are added in batches of 10 without the store's
    # own space check (it walks every file: minutes in the emulator), then
    # one by one through the real policy.
    dev, vol, real = new_store()
    fast = FillStore(real.disk)
    fast.boot()
    n = 0
    while True:
        real.forget_space()
        if real.space().level != "ok" or real.space().free < 120:
            break
        fill(fast, 10, when=n)
        n += 10
    real.boot()
    low = n if real.space_note() else None
    while True:
        note = real.space_note()
        if note == "flash_low" and low is None:
            low = n
        try:
            fill(real, 1, when=n)
        except Exception as err:  # StoreError("flash_full", kB)
            emit(section="capacity", games=n, warned_at=low, refusal=str(err.args),
                 free_kb=real.space().free_kb, total_kb=real.space().total_kb)
            return
        n += 1


# ---- sweep ---------------------------------------------------------------------------


def sweep(quick=False):
    import evening as ev
    from sim.flashdev import WriteLog, copy_image

    evenings = (("issue evening (30 rounds)", 30), ("long evening (300 rounds)", 300))
    for name, rounds in evenings[:1] if quick else evenings:
        evening = ev.steps(rounds, 10 ** 6)
        t = time.ticks_ms()
        recorded = ev.record(evening)
        ops = len(recorded[1])
        clean = ev.sweep(range(ops), evening=evening, recorded=recorded)
        torn = ev.sweep(range(ops), tear=True, evening=evening, recorded=recorded)
        pairs = 0
        if rounds == 30:
            base, log, snaps, ends = recorded
            wl = WriteLog(base, log)
            image = scratch = None
            for op in range(ops):
                image = wl.image_before(op, op % 2 == 1, image)
                scratch = copy_image(image, scratch)
                probe = FlashDev(blocks=ev.BLOCKS, image=scratch)
                ev.boot(dev=probe)
                k = ev.step_at(ends, op)
                for second in range(probe.ops):
                    scratch = copy_image(image, scratch)
                    ev.check_after_cut(scratch, snaps, k, evening, next_cut=second)
                    pairs += 1
        emit(section="sweep", evening=name, steps=len(evening), ops=ops, clean=clean[0], torn=torn[0],
             recovery_pairs=pairs, kept_in_flight=clean[2] + torn[2],
             seconds=time.ticks_diff(time.ticks_ms(), t) // 1000)


SECTIONS = {"wear": wear, "listing": listing, "capacity": capacity, "sweep": sweep,
            "sweep-quick": lambda: sweep(True)}
if sys.argv[2] in SECTIONS:
    SECTIONS[sys.argv[2]]()
