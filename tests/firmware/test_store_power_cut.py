# Power cuts at every flash operation of the scripted evening (issue 3).
# slow: a power cut at every flash operation of an evening (about 4 minutes)
#
# One recorded run gives the write log; the image before each program/erase
# is rebuilt from it (WriteLog) and booted: every acknowledged action must be
# there, the action in flight wholly there or wholly absent, every game must
# load and agree with its history entry, and the next action must succeed.
# Cuts are clean (the operation never happened) and torn (half of it landed).
# Then cuts during the recovery itself, real re-runs that check the log
# approach, and random multi-cut evenings with real cuts.
import random

import evening as ev
from collecting import collecting_when_full
from sim.flashdev import FlashDev, PowerCut, WriteLog, copy_image, same_image
from store import index as ix

ix.urandom = lambda n: b"\x5a" * n  # the index's change-log epoch: the same in every re-run

_recorded = []
RUNS = 25  # random evenings
SECOND_CUTS = 2  # cuts during each recovery, its first and last write (the bench cuts at every one)


def _recording():
    if not _recorded:
        _recorded.append(ev.record())
    return _recorded[0]


def test_the_evening_is_what_the_issue_asks():
    names = [name for name, _ in ev.steps()]
    assert names[0] == "create A" and names.count("edit A5") == 1 and "undo A" in names
    assert sum(1 for n in names if n.startswith("round A")) == 30
    assert names[-4:] == ["create B", "round B1", "roster", "settings"]
    base, log, snaps, ends = _recording()
    assert ends[-1] == len(log) and len(snaps) == len(names) + 1


@collecting_when_full
def test_every_clean_cut_of_the_evening():
    base, log, snaps, ends = _recording()
    n, before, after = ev.sweep(range(len(log)), recorded=_recording())
    print("  sweep (clean cuts): %d cut points, %d lost the action in flight, %d kept it" % (n, before, after))
    assert n == len(log) and before > 0 and after > 0


@collecting_when_full
def test_every_torn_cut_of_the_evening():
    base, log, snaps, ends = _recording()
    n, before, after = ev.sweep(range(len(log)), tear=True, recorded=_recording())
    print("  sweep (torn cuts): %d cut points, %d lost the action in flight, %d kept it" % (n, before, after))
    assert n == len(log)


@collecting_when_full
def test_a_second_cut_during_the_recovery():
    # For every cut of the evening, cut again during the boot that follows
    # (when it writes at all): at up to SECOND_CUTS of its operations, spread
    # from the first to the last (bench/storage_wear.py cuts at every one of
    # them: a recovery that mends a copy writes a dozen times), then boot
    # cleanly and check.
    base, log, snaps, ends = _recording()
    evening = ev.steps()
    wl = WriteLog(base, log)
    image = scratch = None
    pairs = 0
    for op in range(len(log)):
        tear = op % 2 == 1
        image = wl.image_before(op, tear, image)
        scratch = copy_image(image, scratch)
        probe = FlashDev(blocks=ev.BLOCKS, image=scratch)
        ev.boot(dev=probe)
        k = ev.step_at(ends, op)
        for second in _spread(probe.ops, SECOND_CUTS):
            scratch = copy_image(image, scratch)
            ev.check_after_cut(scratch, snaps, k, evening, next_cut=second)
            pairs += 1
    print("  cuts during recovery: %d (first cut, second cut) pairs" % pairs)
    assert pairs > 0


def test_the_write_log_agrees_with_real_power_cuts():
    base, log, snaps, ends = _recording()
    wl = WriteLog(base, log)
    evening = ev.steps()
    points = list(range(0, len(log), max(1, len(log) // 12))) + [len(log) - 1]
    for op in points:
        # as record() does, then the evening
        dev, store, _ = ev.boot()
        dev.cut_at = dev.ops + op
        ctx = ev.Context(store)
        try:
            for _, step in evening:
                step(ctx)
        except PowerCut:
            pass
        assert dev.dead, op
        assert same_image(wl.image_before(op), dev.image), "real cut at op %d differs from the log" % op


@collecting_when_full
def test_random_evenings_with_real_cuts_everywhere():
    # Whole evenings played on one chip that loses power again and again,
    # during steps and during the boot after. The evening is deterministic, so
    # the recorded snapshots say what the flash may hold: before or after the
    # step in flight. The evening goes on from there until it is done.
    base, log, snaps, ends = _recording()
    evening = ev.steps()
    rng = random.Random(3) if hasattr(random, "Random") else random
    if rng is random:
        random.seed(3)
    cuts = 0
    for run in range(RUNS):
        dev, store, _ = ev.boot()
        k = 0
        while k < len(evening):
            dev.cut_at = dev.ops + rng.randint(0, 40)
            dev.tear = rng.randint(0, 1) == 1
            ctx = ev.Context(store, snaps[k].copy())
            try:
                while k < len(evening):
                    evening[k][1](ctx)
                    k += 1
                break
            except PowerCut:
                cuts += 1
            while True:  # boot, maybe losing power again while recovering
                dev = FlashDev(blocks=ev.BLOCKS, image=dev.image)
                if rng.randint(0, 2) == 0:
                    dev.cut_at = rng.randint(0, 6)
                try:
                    dev, store, _ = ev.boot(dev=dev)
                    break
                except PowerCut:
                    cuts += 1
            got = ev.observe(store)
            if got.same(snaps[k + 1]):
                k += 1
            else:
                assert got.same(snaps[k]), "run %d, step %d (%s): flash matches neither side" % (run, k, evening[k][0])
        assert ev.observe(store).same(snaps[-1])
        assert dev.overwrites == 0
    print("  random evenings: %d runs, %d real cuts" % (RUNS, cuts))
    assert cuts > RUNS


def _spread(n, most):
    """Up to `most` of range(n), the first and the last among them, evenly apart."""
    if n <= most:
        return list(range(n))
    return sorted(set([i * (n - 1) // (most - 1) for i in range(most)]))
