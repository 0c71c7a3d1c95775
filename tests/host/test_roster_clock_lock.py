# `tafel roster` and `tafel clock` refuse what the device cannot hold, and one port serves one tafel command.
import os
import subprocess
import sys
import time

import pytest

from fakedevice import FakeDevice
from needs import POSIX, needs
from simlink import SimPort, tafel
from tafel import wire
from tafel_host.cli import main
from tafel_host.link import ports
from tafel_host.link.client import Link
from tafel_host.link.export import csv_rows

on_posix = needs(POSIX, "pseudo-terminals", "the simulator's serial is one: run it on Linux or macOS")


@pytest.fixture
def device():
    dev = FakeDevice([])
    yield dev
    dev.close()


def pushes(dev):
    return [name for name, _ in dev.log if name == "roster_push"]


# ---- names --------------------------------------------------------------------------

@pytest.mark.parametrize("names, says", [
    (["Anna", "Cleo\x1b[2J"], "name 2: the name 'Cleo\\x1b[2J' has a control character (\\x1b) at position 5"),
    (["Anna\x00Ben", "Cleo"], "name 1: the name 'Anna\\x00Ben' has a control character (\\x00) at position 5"),
    (["Anna\nBen", "Cleo"], "at position 5"),
    (["Anna", "X" * 30], "longer than 20 letters"),
    (["P%d" % i for i in range(70)], "70 names: the device's roster holds at most 64"),
    ([""], "name 1 is blank: give names, or empty the roster with `tafel roster clear`"),
    (["Anna", "  "], "name 2 is blank"),
    (["Anna", "Ærø"], "name 2: the name 'Ærø' has 'Æ' at position 1, which the device cannot show"),
    (["Anna", "Li 李"], "has '李' at position 4, which the device cannot show"),
    (["Anna", "Ben 🙂"], "at position 5, which the device cannot show"),
])
def test_roster_push_refuses_before_sending_with_exit_2(device, data_home, capsys, names, says):
    device.roster = ["Anna", "Ben"]
    assert main(["roster", "push", *names, "--port", device.url]) == 2
    err = capsys.readouterr().err
    assert says in err and "Nothing was sent; the roster stays as it is." in err
    assert "\x1b" not in err and "\x00" not in err  # the bad character is named, never printed raw
    assert device.roster == ["Anna", "Ben"] and pushes(device) == []


def test_roster_push_takes_64_names_of_20_letters_and_clear_empties_it(device, data_home, capsys):
    names = ["%s%02d" % ("N" * 18, i) for i in range(64)]
    assert main(["roster", "push", *names, "--port", device.url]) == 0
    assert device.roster == names
    assert main(["roster", "clear", "--port", device.url]) == 0
    assert device.roster == [] and "emptied" in capsys.readouterr().out


def test_roster_push_sends_letters_the_device_has_no_glyph_for_plain_and_says_so(device, data_home, capsys):
    # the device draws A-Z, a-z, Ä Ö Ü ä ö ü ß é; other Latin letters go in their plain form
    assert main(["roster", "push", "Zoë", "Łukasz", "Şükrü", "Özlem", "René", "--port", device.url]) == 0
    assert device.roster == ["Zoe", "Lukasz", "Sükrü", "Özlem", "René"]
    err = capsys.readouterr().err
    assert "'Zoë' is sent as 'Zoe'" in err and "'Łukasz' is sent as 'Lukasz'" in err
    assert "Özlem" not in err and "René" not in err  # drawn as they are: nothing to say


def test_roster_pull_and_info_print_old_control_characters_escaped(device, data_home, capsys):
    device.roster = ["Anna", "Cleo\x1b[2J"]
    assert main(["roster", "pull", "--port", device.url]) == 0
    assert capsys.readouterr().out.splitlines() == ["Anna", "Cleo\\x1b[2J"]


def test_csv_shows_a_stored_control_character_escaped_on_one_line():
    doc = {"device": {"id": "d"}, "games": [{
        "id": 1, "created": 0, "variant": "standard", "target": 500, "players": ["Anna", "Ben\n\x1b"],
        "rounds": [{"number": 1, "winner": "Anna", "hands": [0, 9], "scores": [9, 0]}]}]}
    rows = list(csv_rows(doc))
    assert [r["player"] for r in rows] == ["Anna", "Ben\\x0a\\x1b"]


# ---- the clock ----------------------------------------------------------------------

@pytest.mark.parametrize("now", [2 ** 32 - 5, wire.CLOCK_MAX + 1, 0])
def test_a_laptop_clock_the_device_cannot_hold_is_refused_before_setting(device, data_home, capsys,
                                                                          monkeypatch, now):
    monkeypatch.setattr("tafel_host.link.cli.time.time", lambda: now)
    assert main(["clock", "--port", device.url]) == 2
    err = capsys.readouterr().err
    assert "the device takes 1 to %d (up to 2099-12-31 23:59:59 UTC)" % wire.CLOCK_MAX in err
    assert "Set this laptop's clock right" in err
    assert device.clock == 0 and not device.log  # never asked


def test_the_latest_clock_the_device_takes_is_set(device, data_home, monkeypatch):
    monkeypatch.setattr("tafel_host.link.cli.time.time", lambda: wire.CLOCK_MAX)
    assert main(["clock", "--port", device.url]) == 0
    assert device.clock == wire.CLOCK_MAX


# ---- the port lock ------------------------------------------------------------------

HOLD = """
import sys, time
from tafel_host.link import ports
ports.lock(sys.argv[1])
print("held", flush=True)
sys.stdin.read()
"""


OTHER = """
import sys, serial
port = serial.Serial(sys.argv[1], exclusive=True)
print("open", flush=True)
sys.stdin.read()
"""


def test_a_port_locked_by_another_process_is_busy_naming_its_pid(tmp_path, data_home):
    port = tmp_path / "ttyFAKE"
    port.write_text("")
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(port)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ports.PortBusy) as busy:
            ports.lock(str(port))
        assert busy.value.code == 1
        assert str(busy.value).startswith("port %s is in use by another tafel command (pid %d)" % (port, holder.pid))
        link = tmp_path / "by-id"
        link.symlink_to(port)
        with pytest.raises(ports.PortBusy):  # the same device by another name
            ports.lock(str(link))
    finally:
        holder.stdin.close()
        holder.wait(10)
    release = ports.lock(str(port))  # free again once the holder ended
    again = ports.lock(str(port))  # within one process the lock is shared
    release()
    again()
    assert ports.lock_path("socket://127.0.0.1:1") is None


@on_posix
def test_a_second_tafel_command_on_a_port_in_use_is_told_so(tmp_path, data_home):
    script = tmp_path / "idle.txt"
    script.write_text("wait:10\n")
    with SimPort(script, tmp_path / "flash.img", tmp_path) as sim:
        link = Link.open(sim.port)  # one tafel command in a session on the port
        try:
            second = subprocess.run(tafel("info", "--port", sim.port), capture_output=True, text=True, timeout=60)
            assert second.returncode == 1
            assert ("port %s is in use by another tafel command (pid %d)" % (sim.port, os.getpid())) in second.stderr
            assert "went silent" not in second.stderr and "Traceback" not in second.stderr
            assert link.info()["games"] == 0  # the first one's session went on undisturbed
            link.bye()
        finally:
            link.close()
        again = subprocess.run(tafel("info", "--port", sim.port), capture_output=True, text=True, timeout=60)
        assert again.returncode == 0, again.stderr
        other = subprocess.Popen([sys.executable, "-c", OTHER, sim.port], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)  # another program, pyserial exclusive
        try:
            assert other.stdout.readline().strip() == "open"
            third = subprocess.run(tafel("info", "--port", sim.port), capture_output=True, text=True, timeout=60)
            assert third.returncode == 1
            assert "port %s is in use by another program" % sim.port in third.stderr
        finally:
            other.stdin.close()
            other.wait(10)


@on_posix
def test_roster_and_clock_on_the_simulated_device(tmp_path, data_home, capsys):
    script = tmp_path / "idle.txt"
    script.write_text("wait:10\n")
    with SimPort(script, tmp_path / "flash.img", tmp_path) as sim:
        assert main(["roster", "push", "Anna", "Ben", "Gül", "--port", sim.port]) == 0
        assert main(["roster", "push", "Cleo\x1b[2J", "--port", sim.port]) == 2
        assert main(["roster", "push", "", "--port", sim.port]) == 2
        capsys.readouterr()
        assert main(["roster", "pull", "--port", sim.port]) == 0
        assert capsys.readouterr().out.splitlines() == ["Anna", "Ben", "Gül"]
        link = Link.open(sim.port)  # the device itself refuses what tafel would not send
        try:
            from tafel_host.link.errors import DeviceError

            with pytest.raises(DeviceError) as err:
                link.roster_push(["Anna", "Cleo\x1b[2J"])
            assert "name 2" in err.value.detail and "position 5" in err.value.detail
            with pytest.raises(DeviceError) as err:
                link.set_clock(wire.CLOCK_MAX + 1)
            assert err.value.code == "bad_request"
            assert link.roster_pull() == ["Anna", "Ben", "Gül"]
            link.bye()
        finally:
            link.close()
        assert main(["clock", "--port", sim.port]) == 0
        assert main(["roster", "clear", "--port", sim.port]) == 0
        assert main(["info", "--port", sim.port]) == 0
        assert "clock    %s" % time.strftime("%Y-%m-%d", time.gmtime()) in capsys.readouterr().out


def test_the_history_table_prints_an_old_control_character_escaped(capsys):
    from tafel_host.history.cli import _print_table

    _print_table([["player", "games"], ["Ben\x00\n", "3"]])
    out = capsys.readouterr().out
    assert "Ben\\x00\\x0a" in out and "\x00" not in out and len(out.splitlines()) == 2


def test_find_passes_a_busy_port_on_as_it_is():
    class Info:
        device, vid, pid = "/dev/ttyUSB0", 0x10C4, 0xEA60

    def probe(port):
        raise ports.PortBusy("port %s is in use by another tafel command (pid 42)" % port)

    for kw in ({"port": "/dev/ttyUSB0"}, {"env": {}, "list_ports": lambda: [Info()]}):
        with pytest.raises(ports.PortBusy) as busy:
            ports.find(probe, **kw)
        assert busy.value.code == 1 and "(pid 42)" in str(busy.value)
