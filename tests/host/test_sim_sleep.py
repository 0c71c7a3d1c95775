# Deep sleep through the launcher's line protocol: "ok <changed> asleep" while
# the device sleeps, a key wakes it, and the launcher follows (SimDevice.asleep).
import sys
from pathlib import Path

import pytest

import fakechip
from tafel_host.sim import launcher as sim
from tafel_host.sim.device import SimDevice, SimError
from test_sim import WORKED_EXAMPLE

ROOT = Path(__file__).resolve().parents[2]
RUN_PY = ROOT / "firmware" / "sim" / "run.py"


def play(device, script):
    for step in sim.parse_script(script):
        if step.kind == "key":
            device.key(step.arg)
        else:
            device.wait(step.arg)


def test_asleep_replies_are_understood(tmp_path):
    # a wait and a turn of the knob are one run of the chip's time, a key two (held, let go): each answered
    fake = fakechip.script(["ok asleep", "ok asleep", "ok asleep", "ok", "ok dozing"])
    device = SimDevice([sys.executable, "-c", fake], log=(tmp_path / "log.txt").open("w"), profile=fakechip.PROFILE)
    try:
        device.start()
        assert not device.asleep
        assert device.wait(1000) is False and device.asleep
        assert device.key("CW") is False and device.asleep
        assert device.key("5") is False and not device.asleep  # the fake draws nothing
        with pytest.raises(SimError):
            device.wait(10)  # a second word that is not "asleep"
    finally:
        device.close()
        device.log.close()


def test_the_real_firmware_sleeps_and_a_key_brings_the_game_back(tmp_path):
    assert RUN_PY.is_file(), "the simulator is gone from %s" % RUN_PY  # never a skip: fail if it moved
    board = sim.find_board(sim.DEFAULT_BOARD)
    command = sim.auto_command(RUN_PY, tmp_path / "flash.img", board)
    device = SimDevice(command, log=(tmp_path / "log.txt").open("w"))
    try:
        device.start()
        play(device, "4 D D D B *")  # settings: deep sleep after 10 min (the shortest), home
        play(device, WORKED_EXAMPLE + " # #")  # Anna 89, saved
        before = device.snap()
        assert before.text[1].split()[:2] == ["Anna", "89"]
        device.wait(9 * 60000)
        assert not device.asleep
        device.wait(61000)
        assert device.asleep and device.snap().data == bytes(len(before.data))  # dark
        assert device.key("CW") is False and device.asleep  # a turn does not wake it
        assert device.key("PUSH") is True and not device.asleep
        after = device.snap()
        assert after.text[:7] == before.text[:7] and after.data[:7 * 128] == before.data[:7 * 128]  # the hint row takes turns
    finally:
        device.close()
        device.log.close()
