# Runs under MicroPython for bench/key_counts.py (a bench helper: not a test, never deployed).
#
#   micropython bench/mpy/key_counts.py
#
# Plays the table's everyday flows on the simulated device (default board, a
# RAM flash) exactly as a player presses them, checks that each did what it
# should, and prints one line per flow: "flow<TAB>presses<TAB>keys". Presses
# are keys and rotary steps; the pauses multi-tap needs are not presses.
import sys

sys.path[:0] = ["firmware", "lib", "tests/firmware"]
sys.path.append("host_tools")  # the board around the chip (simboard), last: sim.simmachine.from_profile

from sim.device import Device  # noqa: E402
from sim.flashdev import FlashDev  # noqa: E402

PROFILE = "hardware/boards/esp32-devkitc-ssd1306.json"


def presses(keys):
    return len([k for k in keys.split() if not k.startswith("wait:")])


def device():
    dev = Device(PROFILE, flash=FlashDev())
    dev.app.log = lambda err: sys.print_exception(err)
    return dev


def report(name, keys, ok):
    print("%s\t%d\t%s\t%s" % (name, presses(keys), keys, "ok" if ok else "FAILED"))


def main():
    dev = device()
    dev.app.store.save_roster(["Anna", "Ben", "Cleo", "Dirk"])
    # a game of three from the roster: new game, down to "+ player", three names by their digit, start
    keys = "1 D D # 2 # 2 # 2 D #"
    dev.play(keys)
    game = dev.app.session.game
    report("set up a game of three from the roster", keys,
           game is not None and game.players == ("Anna", "Ben", "Cleo"))
    dev = device()
    dev.app.session.start(("Anna", "Ben", "Cleo", "Dirk"), "standard", 500)
    dev.app.show_game()
    # a round of four: open it, Anna won, three hands typed, check, save
    keys = "# A D 3 6 D 5 0 D 1 2 # #"
    dev.play(keys)
    game = dev.app.session.game
    report("a round of four (the winner marked, three hands)", keys,
           len(game.rounds) == 1 and game.total(0) == 98)
    keys = "A #"
    dev.play(keys)
    report("undo the last round", keys, len(game.rounds) == 0)
    # the winner last: three hands typed in seat order, # after each; the one seat left without a hand
    # went out, so the third # shows the result at once
    keys = "# 3 6 # 5 0 # 1 2 # #"
    dev.play(keys)
    report("a round of four (the winner found: the seat left)", keys,
           len(game.rounds) == 1 and game.total(3) == 98)
    dev.play("A #")
    dev.play("# A D 3 6 D 5 0 D 1 2 # # # A D 1 D 2 D 3 # #")
    # edit round 1 (the rounds list shows the newest first): Ben held 40, not 36
    keys = "B D # D 4 0 # #"
    dev.play(keys)
    report("edit a past round (one hand changed)", keys,
           len(game.rounds) == 2 and game.rounds[0].hands[1] == 40 and game.total(0) == 108)


main()
