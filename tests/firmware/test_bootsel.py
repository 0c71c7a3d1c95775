# The boot selector's rule (firmware/bootsel.py) and the app's side of it (firmware/update/health.py):
# trial boots, confirming by the running main loop, probation and its crashes, the recovery key,
# and the rollback records told once. On a real LittleFS volume on the emulated flash chip.
import json

import bootsel
from sim import simmachine
from sim.flashdev import FlashDev
from store.fsys import Disk
from store.mount import mount
from uisim import PROFILE
from update import health


def volume(pointer):
    vol, _ = mount(FlashDev())
    vol.mkdir("app")
    bootsel.write(vol, pointer)
    return vol


def updated():
    """A device just switched from 0.1.0 in slot a to 0.2.0 in slot b, on trial."""
    return volume({"slot": "b", "prev": "a", "version": "0.2.0", "prev_version": "0.1.0", "id": "bb" * 8,
                   "prev_id": "aa" * 8, "tries": 0, "crashes": None})


class Store:
    """What health.step asks of the store: its disk (statvfs answers while mounted)."""

    def __init__(self, vol, mounted=True):
        self.disk = Disk(vol, "/data")
        self.mounted = mounted
        if not mounted:
            self.disk.space = self._gone

    def _gone(self):
        raise OSError(5)


def run_loop(vol, ms, store=None, start=0):
    """The main loop's health steps, once a second, for ms of device time."""
    store = store or Store(vol)
    for now in range(start, start + ms + 1, 1000):
        health.step(now, store)
    return start + ms + 1000


def test_each_trial_boot_is_counted_and_watched_and_the_fourth_goes_back():
    vol = updated()
    for tries in (1, 2, 3):
        assert bootsel.choose(vol) == ("/app/b", True)
        assert bootsel.read(vol)["tries"] == tries
    assert bootsel.choose(vol) == ("/app/a", False)  # never confirmed in 3 boots: back to 0.1.0
    st = bootsel.read(vol)
    assert (st["slot"], st["version"], st["id"], st["tries"], st["crashes"]) == ("a", "0.1.0", "aa" * 8, None, None)
    assert st["prev"] is None  # the broken version is no way back
    assert bootsel.rollbacks(vol) == [{"version": "0.2.0", "why": "boots", "count": 3, "at": 0, "shown": False}]


def test_a_version_confirms_only_after_its_loop_ran_the_rules_time():
    vol = updated()
    bootsel.choose(vol)
    assert health.begin(vol) is None
    later = run_loop(vol, health.CONFIRM_MS - 1000)  # the loop ran, but not long enough
    assert bootsel.read(vol)["tries"] == 1
    assert health.report(vol, later)[0] == 1 and 0 < health.left_ms(later - 1000) <= 1000
    run_loop(vol, 1000, start=later)
    st = bootsel.read(vol)
    assert st["tries"] is None and st["crashes"] == 0  # confirmed, on probation
    assert health.report(vol, later)[:3] == (2, 0, bootsel.TRIES)


def test_no_confirmation_while_the_store_is_not_mounted():
    vol = updated()
    bootsel.choose(vol)
    health.begin(vol)
    run_loop(vol, 3 * health.CONFIRM_MS, Store(vol, mounted=False))
    assert bootsel.read(vol)["tries"] == 1


def test_probation_counts_watchdog_resets_and_the_third_goes_back():
    vol = updated()
    bootsel.choose(vol)
    health.begin(vol)
    run_loop(vol, health.CONFIRM_MS + 1000)  # confirmed
    assert bootsel.choose(vol, after_watchdog=False) == ("/app/b", True)  # a power cut: no crash, still watched
    assert bootsel.read(vol)["crashes"] == 0
    assert bootsel.choose(vol, after_watchdog=True) == ("/app/b", True)
    assert bootsel.choose(vol, after_watchdog=True) == ("/app/b", True)
    assert bootsel.read(vol)["crashes"] == 2
    assert bootsel.choose(vol, after_watchdog=True) == ("/app/a", False)
    assert bootsel.rollbacks(vol)[0]["why"] == "crashes" and bootsel.rollbacks(vol)[0]["count"] == 3


def test_probation_ends_after_its_time_without_a_reset():
    vol = updated()
    bootsel.choose(vol)
    health.begin(vol)
    later = run_loop(vol, health.CONFIRM_MS + 1000)
    run_loop(vol, health.PROBATION_MS + 1000, start=later)
    st = bootsel.read(vol)
    assert st["tries"] is None and st["crashes"] is None
    assert bootsel.choose(vol, after_watchdog=True) == ("/app/b", False)  # no watchdog any more, nothing counted


def test_the_recovery_key_goes_back_to_the_previous_version_or_to_no_app_at_all():
    vol = updated()
    assert bootsel.choose(vol, key=True) == ("/app/a", False)
    assert bootsel.rollbacks(vol)[0]["why"] == "key"
    # now nothing is left to go back to: the key starts no application (the REPL waits for tafel flash)
    assert bootsel.choose(vol, key=True) == (None, False)
    assert bootsel.read(vol)["slot"] == "a"  # and changes nothing


def test_staging_a_new_bundle_gives_the_previous_slot_up():
    from update.stage import Stager

    vol = updated()
    st = bootsel.read(vol)
    st["tries"] = None
    bootsel.write(vol, st)
    stager = Stager(vol, [], running_version="0.2.0", mpy=None)
    stager.begin(b"12345678", 100)  # the other slot will be written over
    assert bootsel.read(vol)["prev"] is None
    assert bootsel.choose(vol, key=True) == (None, False)


def test_a_rollback_is_told_once_and_stamped_with_the_time_if_known():
    vol = updated()
    for _ in range(4):
        bootsel.choose(vol)

    class Clock:
        def time(self):
            return 1764670000

    told = health.begin(vol, Clock())
    assert (told["version"], told["why"], told["at"]) == ("0.2.0", "boots", 1764670000)
    assert health.begin(vol, Clock()) is None  # the next boot says nothing
    assert health.report(vol, 0)[-1][0]["shown"] is True  # INFO still has it


def test_only_the_newest_rollbacks_are_kept():
    vol = updated()
    for n in range(bootsel.KEEP + 2):
        bootsel.write(vol, {"slot": "b", "prev": "a", "version": "0.2.%d" % n, "tries": bootsel.TRIES})
        bootsel.choose(vol)
    records = bootsel.rollbacks(vol)
    assert [r["version"] for r in records] == ["0.2.%d" % n for n in range(bootsel.KEEP + 1, 1, -1)]


def test_the_recovery_key_is_read_off_the_keypad_pins_of_the_profile():
    with open(PROFILE) as f:
        profile = json.load(f)
    machine = simmachine.from_profile(profile)
    assert not bootsel.held(machine, PROFILE)
    machine.matrix.press("5")
    assert not bootsel.held(machine, PROFILE)
    machine.matrix.press(bootsel.RECOVERY_KEY)
    assert bootsel.held(machine, PROFILE)
    assert not bootsel.held(machine, "/no/such/profile.json")  # no profile: no key, the normal boot
