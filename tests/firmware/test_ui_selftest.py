# The self-test on the simulated device: every key and the encoder show as they
# are pressed, the display patterns, the flash check (passing, on a dead flash,
# on a wrong read-back, on a full flash), leaving with * * *, and holding * at
# power-on; its texts fit the display in both languages.
from sim.device import Device
from sim.flashdev import FlashDev, copy_image
from store.space import Space
from ui import selftest, texts_de, texts_en
from uisim import PROFILE, device, new_game, power_cut, text

DE, EN = dict(texts_de.TEXTS), dict(texts_en.TEXTS)  # (key, text) pairs, looked up here as dicts

SELFTEST = "4 C #"  # from the home menu: settings, up to the last entry, open it
GRID = ["1 2 3 A", "4 5 6 B", "7 8 9 C", "* 0 # D"]
EMPTY = "· · · ·"


def open_selftest(dev):
    dev.app.home()
    dev.play("wait:10 " + SELFTEST)
    assert dev.screen()[0].startswith(("Selbsttest", "Self-test")), text(dev)


def grid(dev):
    return [line[:7] for line in dev.screen()[1:5]]


def test_every_key_and_the_encoder_show_as_they_are_pressed():
    dev = device()
    open_selftest(dev)
    screen = dev.screen()
    assert screen[0] == "Selbsttest  0/19"
    assert grid(dev) == [EMPTY] * 4
    assert screen[1].split()[-2:] == ["CW", "0"] and screen[2].split()[-2:] == ["CCW", "0"]
    assert screen[3].split()[-2:] == ["Knopf", "0"]
    assert screen[7] == "3x * = Ende"
    seen = 0
    for key in "D 9 1 # 4 A 6 2 C 8 B 3 5 7 * 0".split():
        # 0 steps through the patterns, four times round to this page again (it counts once)
        dev.play("0 0 0 0" if key == "0" else key)
        seen += 1
        assert dev.screen()[0].endswith(" %d/19" % seen)
        assert dev.screen()[4].split()[-1] == key  # the last input, at the right
    assert grid(dev) == GRID
    dev.play("CW CW PUSH PUSH CW CCW")
    screen = dev.screen()
    assert screen[0] == "Selbsttest 19/19"
    assert screen[1] == "1 2 3 A CW     3"
    assert screen[2] == "4 5 6 B CCW    1"
    assert screen[3] == "7 8 9 C Knopf  2"
    assert screen[4] == "* 0 # D      CCW"
    assert screen[7] == "Alles gesehen!"  # said once everything was seen, until the next key
    assert dev.errors == []


def test_three_stars_in_a_row_leave_and_nothing_else_does():
    dev = device()
    open_selftest(dev)
    dev.play("* * 5 * 1 2 3 A B C D # 0 5 CW wait:5000 *")
    assert dev.screen()[0].startswith("Selbsttest")
    dev.play("* *")
    screen = dev.screen()
    assert screen[0] == "Einstellungen" and screen[5] == "Selbsttest"  # back where it was opened
    assert dev.errors == []


def test_holding_star_at_power_on_opens_it_over_the_running_game():
    dev = device()
    new_game(dev)
    dev.play("A D 3 6 D 5 0 B 3 # #")
    dev.flash.dead = True
    dev = Device(PROFILE, flash=FlashDev(image=copy_image(dev.flash.image)), hold="*")
    dev.errors = []
    dev.app.log = dev.errors.append
    assert dev.screen()[0] == "Selbsttest  0/19"  # the * held through the boot does not count
    dev.play("wait:500")
    assert dev.screen()[0] == "Selbsttest  0/19" and grid(dev) == [EMPTY] * 4
    dev.play("* * *")
    assert dev.screen()[0].startswith("Stand R1") and dev.screen()[1].split()[:2] == ["Anna", "89"]
    dev = power_cut(dev)  # without the key: the game as always
    assert dev.screen()[0].startswith("Stand R1")
    assert dev.errors == []


def test_the_display_patterns():
    dev = device()
    open_selftest(dev)
    dev.play("wait:10")
    page = dev.screen()
    dev.play("0")
    assert dev.chip.glass() == b"\xff" * 1024  # every pixel lit
    dev.play("0")
    glass = dev.chip.glass()
    assert glass[0] in (0x55, 0xAA) and glass == bytes(glass[i & 1] for i in range(1024))
    assert glass[0] ^ glass[1] == 0xFF  # neighbouring columns differ: a checkerboard
    dev.play("0")
    assert dev.chip.glass() == bytes(b ^ 0xFF for b in glass)  # the other one
    dev.play("0")
    assert dev.screen()[0] == "Selbsttest  1/19" and dev.screen()[1:4] == page[1:4]
    assert dev.screen()[4] == "· 0 · ·        0"
    dev.play("0 5")  # any other input ends a pattern too, and counts
    assert dev.screen()[0] == "Selbsttest  2/19" and dev.screen()[2][:3] == "· 5"
    assert dev.errors == []


def test_the_flash_check_passes_and_leaves_nothing_behind():
    dev = device()
    store = dev.app.store
    before = dev.flash.ops
    open_selftest(dev)
    assert dev.screen()[5] == "Flash R/W     ok"
    assert dev.flash.ops > before  # it did write
    assert store.disk.size(selftest.SCRATCH) is None
    ram, free = dev.screen()[6].split()[1], dev.screen()[6].split()[-1]
    assert ram.endswith("K") and free.endswith("K") and 0 < int(free[:-1]) < 2048
    assert dev.errors == []


def test_the_flash_check_fails_cleanly_on_a_dead_flash():
    dev = device()
    new_game(dev)
    dev.play("A D 3 6 D 5 0 B 3 # #")
    dev.app.home()
    dev.play("wait:10 4 C")
    dev.flash.cut_at = dev.flash.ops  # the chip dies at its next write
    dev.play("#")
    assert dev.screen()[0].startswith("Selbsttest")
    assert dev.screen()[5] == "Flash R/W FEHLER"
    dev.play("1 CW * * *")  # the rest of the test goes on
    assert dev.screen()[0] == "Einstellungen"
    assert dev.errors == []
    dev = power_cut(dev)  # what the dead chip kept: the game, no scratch file
    assert dev.screen()[0].startswith("Stand R1") and dev.screen()[1].split()[:2] == ["Anna", "89"]
    assert dev.app.store.disk.size(selftest.SCRATCH) is None
    assert dev.errors == []


def test_a_wrong_read_back_is_a_failure_and_the_file_still_goes():
    dev = device()
    disk = dev.app.store.disk
    real = disk.read

    def garbled(rel):
        data = bytearray(real(rel))
        data[500] ^= 0x10
        return bytes(data)

    disk.read = garbled
    open_selftest(dev)
    assert dev.screen()[5] == "Flash R/W FEHLER"
    assert disk.size(selftest.SCRATCH) is None
    assert dev.errors == []


def test_a_full_flash_is_not_written_for_a_test():
    dev = device()
    store = dev.app.store
    store.space = lambda: Space(20, 512, 4096)  # less than the running game's room
    before = dev.flash.ops
    open_selftest(dev)
    assert dev.screen()[5] == "Flash R/W   voll"
    assert dev.flash.ops == before
    assert dev.errors == []


def test_in_english():
    dev = device()
    dev.play("4 #")  # settings: language -> English
    open_selftest(dev)
    screen = dev.screen()
    assert screen[0] == "Self-test   0/19" and screen[3].split()[-2:] == ["Push", "0"]
    assert screen[5] == "Flash R/W     ok" and screen[7] == "3x * = exit"
    dev.play("wait:3000")
    assert dev.screen()[7] == "0 = pattern"
    assert dev.errors == []


MINE = ("st_", "ds_", "set_deep", "set_selftest")


def test_the_texts_exist_in_both_languages_and_fit():
    mine = [k for k in DE if k.startswith(MINE)]
    assert len(mine) >= 17
    assert sorted(mine) == sorted(k for k in EN if k.startswith(MINE))
    for table in (DE, EN):
        for k in mine:
            assert len(table[k]) <= 16, (k, table[k])
        for result in ("st_ok", "st_failed", "st_full"):  # label and result share a row
            assert len(table["st_flash"]) + 1 + len(table[result]) <= 16
        assert len(table["st_push"]) <= 5
        assert len(table["st_title"]) + len(" 19/19") <= 16
