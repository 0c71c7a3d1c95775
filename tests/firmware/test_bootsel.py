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


def _on_probation():
    vol = updated()
    bootsel.choose(vol)
    health.begin(vol)
    run_loop(vol, health.CONFIRM_MS + 1000)  # confirmed
    return vol


def test_probation_counts_watchdog_resets_and_the_third_goes_back():
    vol = _on_probation()
    assert bootsel.choose(vol, bootsel.POWER) == ("/app/b", True)  # a power cut after 20 s: no crash, still watched
    assert bootsel.read(vol)["crashes"] == 0
    assert bootsel.choose(vol, bootsel.WATCHDOG) == ("/app/b", True)
    assert bootsel.choose(vol, bootsel.WATCHDOG) == ("/app/b", True)
    assert bootsel.read(vol)["crashes"] == 2
    assert bootsel.choose(vol, bootsel.WATCHDOG) == ("/app/a", False)
    assert bootsel.rollbacks(vol)[0]["why"] == "crashes" and bootsel.rollbacks(vol)[0]["count"] == 3


def test_probation_counts_a_panic_whatever_the_boot_before_did():
    # ESP_RST_PANIC reads HARD_RESET on the ESP32 (ports/esp32/modmachine.c): ESP-IDF out of
    # memory in the Wi-Fi stack, a crash in C; a panic loop rolls back as a hang does.
    vol = _on_probation()
    for n in (1, 2):
        assert bootsel.choose(vol, bootsel.HARD) == ("/app/b", True)
        assert bootsel.read(vol)["crashes"] == n
        run_loop(vol, health.CONFIRM_MS + 1000)  # even after it settled
    assert bootsel.choose(vol, bootsel.HARD) == ("/app/a", False)
    assert bootsel.rollbacks(vol)[0] == {"version": "0.2.0", "why": "crashes", "count": 3, "at": 0, "shown": False}


def test_probation_counts_a_power_on_only_after_a_boot_that_never_settled():
    # A brownout reads PWRON_RESET, as a power cut does: a boot cut off within CONFIRM_MS of its
    # start counts (a version that dies while it starts, a supply that sags when Wi-Fi starts);
    # one cut off after its loop ran that long is the table unplugging the device.
    vol = _on_probation()
    assert bootsel.choose(vol, bootsel.POWER) == ("/app/b", True)  # the confirmed boot settled
    assert bootsel.read(vol)["crashes"] == 0 and bootsel.read(vol)["settled"] is False
    assert bootsel.choose(vol, bootsel.POWER) == ("/app/b", True)  # that one was cut before 20 s
    assert bootsel.read(vol)["crashes"] == 1
    health.begin(vol)
    run_loop(vol, health.CONFIRM_MS - 1000)  # not long enough
    assert bootsel.read(vol)["settled"] is False
    run_loop(vol, 2000, start=health.CONFIRM_MS)
    assert bootsel.read(vol)["settled"] is True
    assert bootsel.choose(vol, bootsel.POWER) == ("/app/b", True)  # settled: not counted
    assert bootsel.read(vol)["crashes"] == 1
    assert bootsel.choose(vol, bootsel.POWER) == ("/app/b", True)
    assert bootsel.choose(vol, bootsel.POWER) == ("/app/a", False)  # two more unsettled: the third crash
    assert bootsel.rollbacks(vol)[0]["why"] == "crashes"


def test_probation_never_counts_a_wake_from_deep_sleep_or_a_soft_reboot():
    vol = _on_probation()
    bootsel.choose(vol, bootsel.POWER)  # unsettled from here
    for _ in range(5):
        for cause in (bootsel.WAKE, bootsel.SOFT):
            assert bootsel.choose(vol, cause) == ("/app/b", True)
    assert bootsel.read(vol)["crashes"] == 0


def test_a_pointer_from_an_older_firmware_counts_no_power_on():
    # Written before the settled mark: unknown is taken as settled, never as a crash.
    vol = _on_probation()
    st = bootsel.read(vol)
    del st["settled"]
    bootsel.write(vol, st)
    assert bootsel.choose(vol, bootsel.POWER) == ("/app/b", True)
    assert bootsel.read(vol)["crashes"] == 0


def test_the_reset_cause_is_read_as_the_esp32_port_reports_it():
    class _Machine:
        PWRON_RESET, HARD_RESET, WDT_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 3, 4, 5

        def __init__(self, cause):
            self.cause = cause

        def reset_cause(self):
            return self.cause

    got = [bootsel._cause(_Machine(n)) for n in (1, 2, 3, 4, 5, 99)]
    assert got == [bootsel.POWER, bootsel.HARD, bootsel.WATCHDOG, bootsel.WAKE, bootsel.SOFT, bootsel.POWER]
    assert bootsel._cause(object()) == bootsel.POWER  # a port without reset_cause()


def test_probation_ends_after_its_time_without_a_reset():
    vol = updated()
    bootsel.choose(vol)
    health.begin(vol)
    later = run_loop(vol, health.CONFIRM_MS + 1000)
    run_loop(vol, health.PROBATION_MS + 1000, start=later)
    st = bootsel.read(vol)
    assert st["tries"] is None and st["crashes"] is None
    assert bootsel.choose(vol, bootsel.WATCHDOG) == ("/app/b", False)  # no watchdog any more, nothing counted
    assert "settled" not in bootsel.read(vol)


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
