# Start-up shared by the device and the simulator: storage check, the app and its first screen.
#
# The first screen: after a wake from deep sleep, the screens the table was
# on (ui/resume.py, from the record the power kept); after a plain power-on,
# the running game's standings, or home. Holding * while the device starts
# opens the self-test over that (what a maker does after soldering); the
# keypad is looked at a few times here for it, and whatever key is down then
# (the key that woke the device, too) is taken as pressed already, so it does
# nothing more once let go.
from micropython import const

from session import Session
from ui.app import App

SELFTEST_KEY = "*"
_BOOT_SCANS = const(3)  # keypad scans a debounce apart: a key held through the boot reads stable

# Boot notes worth a word on screen, the most important first (the rest is in
# store.report, which INFO and the export carry); one is shown.
_SHOWN = ("game_lost", "rounds_missing", "game_unreadable", "game_damaged", "mend_failed", "flash_full",
          "flash_formatted", "game_mended", "flash_low", "torn_tail_repaired", "settings_damaged",
          "roster_damaged")


def start(display, store, clock, capture=False, log=None, power=None, keypad=None, wlan=None, restart=None):
    """Check the flash, resume the unfinished game and show where the table left off.

    power: a power.Power (deep sleep), or None; keypad: the keypad driver, to
    see a key held at power-on, or None; wlan, restart: the app's (ui/app.py)."""
    notes = store.boot()
    _mount_notes(store, notes)
    session = Session(store, clock)
    session.resume()
    app = App(display, clock, store, session, store.settings, capture, log, power, wlan, restart)
    contrast = store.settings.get("contrast")
    if type(contrast) is int and 0 <= contrast <= 255:
        display.contrast(contrast)
    selftest = keypad is not None and held(keypad, SELFTEST_KEY, clock.ticks_ms())
    record = power.take_record() if power is not None else None
    if record is None or not _resume(app, record):
        app.show_game()
        if store.setup_draft() is not None:  # a setup the power cut interrupted: as it was (ui/setup.py)
            app.open("setup")
    if selftest:
        app.open("selftest")
    _notify_first(app, notes)
    if _rolled_back(store, clock) is not None:  # told once (bootsel.py keeps the record)
        app.notify(app.t("upd_rolled_back"))
    app.render()
    return app


def _notify_first(app, notes):
    # The weightiest note on screen, with its game's number where the text has a place for it.
    for key in _SHOWN:
        for k, detail in notes:
            if k == key:
                text = app.t(key)
                app.notify(text % detail if "%d" in text and type(detail) is int else text)
                return


def _mount_notes(store, notes):
    # What mounting did (store/mount.py: a flash without games formatted again) joins the boot
    # check's notes; the chip's _boot.py keeps store.mount loaded only while it has a note.
    import sys

    mount = sys.modules.get("store.mount")
    for note in mount.take_notes() if mount is not None else ():
        notes.insert(0, note)
        report = getattr(store, "report", None)
        if report is not None and report is not notes:
            report.insert(0, note)


def held(keypad, name, now):
    """Whether key `name` is held now; every key down is taken as reported."""
    for i in range(_BOOT_SCANS):
        keypad.scan(now + i * keypad.debounce_ms)  # times, not waits: see above
    return keypad.is_down(name)


def _rolled_back(store, clock):
    # This boot's phase of an update's trial (update/health.py: the main loop confirms it),
    # and the newest rollback not told yet.
    from update import health

    try:
        return health.begin(store.update_volume(), clock)
    except OSError:
        return None


def _resume(app, record):
    from ui.resume import restore

    return restore(app, record)
