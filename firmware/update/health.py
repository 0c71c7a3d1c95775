# The running version proves itself healthy (bootsel.py has the trial and rollback rule).
#
#   health.begin(vol, clock)          # startup: what the pointer says of this boot; the rollback to tell once
#   health.step(now, store)           # the main loop (runner.py), once a second: feeds the watchdog,
#                                     # confirms the version, ends its probation
#   health.report(vol)                # link INFO: the update state and the rollbacks
#
# The rule: a version on trial confirms itself once its main loop has run
# CONFIRM_MS in this boot, every step of it having read the keys, served
# the link, drawn the display (runner.step does all three before it calls
# step here) with the store mounted. A confirmed version stays on probation,
# the watchdog still running, until its loop has run PROBATION_MS in one boot.
# vol: None on the device (the flash at /), else a VfsLfs2 (tests).
from micropython import const

import bootsel

# A plain int, not const(): sim/poweron.py shortens it.
CONFIRM_MS = 20000  # main-loop time that proves a new version (the watchdog's timeout is 60 s)
PROBATION_MS = const(600000)  # ten minutes without a reset end the probation after an update
REPL_WDT_MS = const(1800000)  # half an hour at the REPL after a deliberate Ctrl-C, then the app starts again

_NONE = const(0)
_TRIAL = const(1)
_PROBATION = const(2)

phase = _NONE  # of this boot, read once at begin()
_vol = None
_since = -1  # loop time when the phase's clock started (the first step)
_settled = False  # this boot has told bootsel.py that its loop ran CONFIRM_MS (probation)


def begin(vol=None, clock=None):
    """At start-up: the phase this boot runs in; the newest rollback not yet told, or None.

    The record is marked told (and stamped with the time if the clock knows it)."""
    global phase, _vol, _since, _settled
    _vol = vol
    _since = -1
    _settled = False
    st = bootsel.read(vol)
    phase = _NONE
    if st is not None:
        if st.get("tries") is not None:
            phase = _TRIAL
        elif st.get("crashes") is not None:
            phase = _PROBATION
    records = bootsel.rollbacks(vol)
    if not records or records[0].get("shown"):
        return None
    now = clock.time() if clock is not None else 0
    for rec in records:
        if not rec.get("shown"):
            rec["shown"] = True
            if not rec.get("at"):
                rec["at"] = now
    try:
        bootsel.write(vol, records, bootsel.ROLLED)
    except OSError:
        pass  # told again at the next boot
    return records[0]


def step(now, store):
    """The main loop ran a step at `now` (ms): feed the watchdog, and move on in the rule."""
    if bootsel.wdt is not None:
        bootsel.wdt.feed()
    if phase == _NONE:
        return
    if _since < 0:
        if _mounted(store):
            _start(now)
        return
    if phase == _PROBATION and not _settled and now - _since >= CONFIRM_MS and _mounted(store):
        _settle()
    elif now - _since >= (CONFIRM_MS if phase == _TRIAL else PROBATION_MS) and _mounted(store):
        _advance(now)


def _settle():
    # On probation: this boot's loop has run as long as a trial's confirmation; a power cut from
    # here on is the table's, not a crash (bootsel.py counts an unsettled boot's power-on).
    global _settled
    _settled = True
    st = bootsel.read(_vol)
    if st is not None and st.get("crashes") is not None:
        st["settled"] = True
        try:
            bootsel.write(_vol, st)
        except OSError:
            pass  # unsettled: a power cut counts, as it would have before the 20 s


def _mounted(store):
    # The store's file system answers (a statvfs: looked at twice a phase, not every step).
    try:
        store.disk.space()
        return True
    except OSError:
        return False


def _start(now):
    global _since
    _since = now


def _advance(now):
    # Trial -> probation (confirmed) -> none. A flash that refuses the pointer: the next boot tries again.
    global phase, _settled
    st = bootsel.read(_vol)
    if st is None:
        phase = _NONE
        return
    if phase == _TRIAL:
        st["tries"] = None
        st["crashes"] = 0
        st["settled"] = True  # its loop ran CONFIRM_MS in this boot
    else:
        st["crashes"] = None
        st.pop("settled", None)
    try:
        bootsel.write(_vol, st)
    except OSError:
        phase = _NONE
        return
    if phase == _TRIAL:
        _clear_stage()
        phase = _PROBATION
        _settled = True
        _start(now)
    else:
        phase = _NONE


def _clear_stage():
    # A switch cut short before it cleared the stage: what is left there is done with.
    from store.fsys import Disk

    disk = Disk(_vol, "")
    for name, _ in disk.listdir("app/stage"):
        disk.remove("app/stage/" + name)


def left_ms(now):
    """Main-loop time this boot still needs to confirm itself (0 unless on trial)."""
    if phase != _TRIAL:
        return 0
    if _since < 0:
        return CONFIRM_MS
    return max(0, CONFIRM_MS - (now - _since))


def report(vol, now):
    """(phase, tries, TRIES, watchdog ms, CONFIRM_MS, left ms, bundle id, rollback records) for INFO."""
    st = bootsel.read(vol) or {}
    tries = st.get("tries") or 0
    return (phase, tries if phase == _TRIAL else 0, bootsel.TRIES, bootsel.TRIAL_WDT_MS, CONFIRM_MS,
            left_ms(now), st.get("id") or "", bootsel.rollbacks(vol))


def relax():
    """The app stops for MicroPython's REPL on purpose (Ctrl-C outside a link session: mpremote,
    tafel flash): outside a trial or probation the watchdog then gives the REPL REPL_WDT_MS before
    it resets the device into the app again. On trial or probation it stays: the version has not
    proved itself, and its next boot counts."""
    if phase == _NONE and bootsel.wdt is not None:
        bootsel.wdt = type(bootsel.wdt)(timeout=REPL_WDT_MS)  # the chip's one watchdog, its timeout set anew


def feed():
    """Keeps the watchdog (bootsel.wdt) from resetting a version that runs (long waits outside the loop)."""
    if bootsel.wdt is not None:
        bootsel.wdt.feed()
