# Following a new version's trial after `tafel update` switched it (docs/updates.md, "Trial boots
# and rollback"): INFO every POLL_S until it confirms itself, is rolled back (the device's own
# record says why), or the time a whole trial may take is over; and the line tafel update shows
# meanwhile. client.py uses it; so do the end-to-end tests and bench/update_speed.py.
import sys
import time

from ..lang import say
from ..link.cli import ON_TRIAL
from ..link.errors import DeviceGone, LinkError

# Waiting for the trial (tests shorten these): the longest a trial may take is
# tries_max x (wdt_ms + BOOT_ALLOWANCE) + confirm_ms + TRIAL_MARGIN, from the INFO before the update.
BOOT_ALLOWANCE = 15.0  # seconds a trial boot takes beyond its watchdog's timeout (reset, boot, imports)
TRIAL_MARGIN = 30.0  # seconds on top of the whole trial
POLL_S = 1.0  # seconds between two looks at the device while it is on trial

# wait_trial's outcomes
CONFIRMED = "confirmed"  # the new version runs and confirmed itself
ROLLED_BACK = "rolled_back"  # the previous version runs again (Trial.record says why, if the device keeps records)
SILENT = "silent"  # no answer at the end of the time allowed
STILL_ON_TRIAL = "on_trial"  # the new version answers, still on trial, at the end of the time allowed
NOT_SWITCHED = "not_switched"  # the previous version answers, no rollback recorded, at the end of the time allowed


class Trial:
    """What wait_trial saw. outcome: CONFIRMED, ROLLED_BACK, SILENT, STILL_ON_TRIAL or NOT_SWITCHED;
    info: the device's last INFO (None if it never answered); record: the rollback record of the
    new version (ROLLED_BACK; None when the device keeps none); link: the link to use now (another
    one if the port had to be opened again; None if it could not be); seconds: waited in all;
    quiet: seconds since the device last answered; limit: the time allowed."""

    def __init__(self, link, limit):
        self.link, self.limit = link, limit
        self.outcome = SILENT
        self.info = self.record = None
        self.seconds = self.quiet = 0.0


def trial_seconds(info):
    """The longest a new version's trial may take, from the INFO before the update: every boot
    running until its watchdog resets it, then the last one running until it confirms itself."""
    return (info["tries_max"] * (info["wdt_ms"] / 1000.0 + BOOT_ALLOWANCE) + info["confirm_ms"] / 1000.0
            + TRIAL_MARGIN)


def new_rollback(info, before, version):
    """The device's record of `version` rolled back, if it is newer than the records in `before`
    (the INFO before the update); else None."""
    records = info["rollbacks"]
    if records and records != before["rollbacks"] and records[0]["version"] == version:
        return records[0]
    return None


def wait_trial(link, version, before, reopen=None, show=None):
    """Follow the trial of `version` after UPDATE_END until it confirms itself, is rolled back, or
    the time a whole trial may take (trial_seconds(before)) is over; a Trial.

    before: the INFO from before the update (the trial's figures, the rollback records then, the
    version that ran). Every POLL_S a handshake and an INFO; a device that resets (it does, on a
    failing trial) is simply asked again. reopen(): a new Link on the same port, for a port that
    went away (a native USB device re-enumerates); without it the link's port is kept.
    show(text, countdown, elapsed, limit): the state now ("on trial: boot 2 of 3", ", confirms in
    12 s"; "waiting for the device to come back", "")."""
    started = time.monotonic()
    t = Trial(link, trial_seconds(before))
    heard = started
    seen = False  # the new version answered
    while True:
        time.sleep(POLL_S)
        info = _look(t, reopen)
        now = time.monotonic()
        t.seconds = now - started
        if info is not None:
            heard = now
            t.info = info
            fw = info["firmware"]
            if fw == version:
                seen = True
                if info["state"] != ON_TRIAL:
                    t.outcome = CONFIRMED
                    return t
                text = say("tr_boot", info["tries"], info["tries_max"])
                countdown = say("tr_confirms_in", -(-info["confirm_left_ms"] // 1000))
            else:
                t.record = new_rollback(info, before, version)
                if info["state"] != ON_TRIAL and (t.record is not None or seen):
                    t.outcome = ROLLED_BACK
                    return t
                text, countdown = say("tr_restart_into", version), ""
        else:
            text, countdown = say("tr_come_back"), ""
        t.quiet = now - heard
        if t.seconds >= t.limit:
            if info is None:
                t.outcome = SILENT
            else:
                t.outcome = STILL_ON_TRIAL if info["firmware"] == version else NOT_SWITCHED
            return t
        if show is not None:
            show(text, countdown, t.seconds, t.limit)


def _look(t, reopen):
    """The device's INFO after a new handshake, or None if it does not answer now."""
    try:
        if t.link is None:
            if reopen is None:
                return None
            t.link = reopen()  # opens the port and does the handshake
        else:
            t.link.handshake(tries=1)
        return t.link.info()
    except DeviceGone:  # the port went away, or the device went silent in the middle of a request
        if reopen is not None:
            try:
                t.link.close()
            except Exception:  # a port that vanished may not close cleanly
                pass
            t.link = None
        return None
    except (LinkError, OSError, ValueError):  # no answer, the port is not there (yet), a garbled INFO
        return None


class Waiting:
    """The trial's state while tafel update waits: on a terminal one status line with a bar over the
    time allowed (standard error); elsewhere a line on standard output whenever the state changes."""

    def __init__(self):
        self.enabled = sys.stdout.isatty() and sys.stderr.isatty()
        self.bar = self.task = self.last = None

    def __call__(self, text, countdown, elapsed, limit):
        if not self.enabled:
            if text != self.last:
                self.last = text
                print("  " + text)
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            self.bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                                console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(text, total=limit)
        self.bar.update(self.task, description=text + countdown, completed=min(elapsed, limit), total=limit)

    def stop(self):
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
