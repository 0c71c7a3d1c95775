# Generated hardware documents: up to date with the profiles, complete, and showing the pins board.py really uses.
import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from needs import skip_unless
from tafel_host.cli import main
from tafel_host.hardware.docs import HardwareError, documents, generate
from tafel_host.hardware.model import load_parts, load_profiles, parts, parts_path, pin_uses
from tafel_host.sim import launcher as sim

ROOT = Path(__file__).resolve().parents[2]
PROFILES = load_profiles()
STALE = "hardware/%s/%s is not what the profile makes: run `make hardware` and commit the result"


def test_the_committed_documents_are_up_to_date(tmp_path):
    generate(out=tmp_path)
    for name in PROFILES:
        for filename in ("wiring.md", "wiring.svg", "bom.md"):
            committed = ROOT / "hardware" / name / filename
            assert committed.is_file(), STALE % (name, filename)
            fresh = (tmp_path / name / filename).read_text(encoding="utf-8")
            assert committed.read_text(encoding="utf-8") == fresh, STALE % (name, filename)


def test_no_documents_for_boards_that_are_gone():
    for wiring in (ROOT / "hardware").glob("*/wiring.md"):
        assert wiring.parent.name in PROFILES, "%s has no profile in hardware/boards" % wiring.parent


def test_every_board_has_a_parts_list_and_every_parts_list_a_board():
    for name in PROFILES:
        assert parts_path(name).is_file(), "write hardware/parts/%s.json" % name
    for path in (ROOT / "hardware" / "parts").glob("*.json"):
        assert path.stem in PROFILES, "%s: no board profile of that name" % path


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_parts_lists_are_well_formed(name):
    data = load_parts(name)
    assert data["board"] == name and data["mcu_board"]
    assert set(data.get("builtin", [])) <= {"display", "battery"}
    for item in data["parts"] + data.get("battery_option", []):
        assert item["part"].strip() and item["example"].strip()
        assert isinstance(item["qty"], int) and item["qty"] > 0
        assert isinstance(item["eur"], (int, float)) and 0 <= item["eur"] < 100


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_documents_show_every_gpio_and_the_bom_total(name):
    profile, data = PROFILES[name], load_parts(name)
    docs = documents(name, profile, data)
    assert docs == documents(name, profile, data)  # deterministic
    svg = ET.fromstring(docs["wiring.svg"])  # well-formed XML
    labels = ["".join(t.itertext()) for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    for use in pin_uses(profile):
        assert "GPIO %d" % use.gpio in labels, use
        assert "| GPIO %d |" % use.gpio in docs["wiring.md"] or "| %d |" % use.gpio in docs["wiring.md"], use
        assert "`%s`" % use.path in docs["wiring.md"]
    total = sum(item["qty"] * item["eur"] for item in data["parts"])
    assert "Total: **about %d EUR**" % int(total + 0.5) in docs["bom.md"]
    for item in data["parts"]:
        assert item["example"] in docs["bom.md"]


def test_the_keypad_table_follows_the_ribbon_and_the_keys():
    keypad = parts(PROFILES["esp32-devkitc-ssd1306"])[1]
    assert [w.to for w in keypad.wires] == [27, 14, 13, 23, 32, 33, 25, 26]
    assert keypad.wires[0].pin == "1 (row 1: 1 2 3 A)"
    assert keypad.wires[7].pin == "8 (column 4: A B C D)"


def test_tafel_hardware_docs_writes_into_a_folder(tmp_path, capsys):
    assert main(["hardware", "docs", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for name in PROFILES:
        assert (tmp_path / name / "wiring.svg").is_file()
        assert str(tmp_path / name / "bom.md") in out


def test_a_broken_profile_gets_no_documents_and_the_others_do(tmp_path):
    boards = tmp_path / "hardware" / "boards"
    boards.mkdir(parents=True)
    (tmp_path / "firmware" / "drivers").mkdir(parents=True)
    (tmp_path / "firmware" / "drivers" / "ssd1306.py").write_text("")
    profile = dict(PROFILES["esp32-devkitc-ssd1306"], name="broken")
    profile["keypad"] = dict(profile["keypad"], rows=[22, 14, 13, 23])
    (boards / "broken.json").write_text(json.dumps(profile))
    (boards / "fine.json").write_text(json.dumps(dict(PROFILES["esp32-devkitc-ssd1306"], name="fine")))
    with pytest.raises(HardwareError, match="GPIO 22 is used twice") as caught:
        generate(root=tmp_path, out=tmp_path / "out")
    assert "no parts list: write hardware/parts/fine.json" in str(caught.value)
    assert not (tmp_path / "out" / "broken").exists() and not (tmp_path / "out" / "fine").exists()
    parts_dir = tmp_path / "hardware" / "parts"
    parts_dir.mkdir()
    data = load_parts("esp32-devkitc-ssd1306")
    (parts_dir / "fine.json").write_text(json.dumps(dict(data, board="fine")))
    with pytest.raises(HardwareError) as caught:
        generate(root=tmp_path, out=tmp_path / "out")
    assert "broken.json" in str(caught.value) and "fine.json" not in str(caught.value)
    assert sorted(p.name for p in caught.value.args[1]) == ["bom.md", "wiring.md", "wiring.svg"]


# -- the documents against the firmware: board.build() on the MicroPython unix port --

PROBE = r"""
import sys, json
sys.path[:0] = [%(firmware)r, %(lib)r]
import board

LOG = []

def pins_in(values):
    return [v.id for v in values if isinstance(v, Pin)]

class Pin:
    IN = 1; OUT = 3; OPEN_DRAIN = 7; PULL_UP = 1; PULL_DOWN = 2; IRQ_RISING = 1; IRQ_FALLING = 2
    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = id
        LOG.append(["pin", id, mode, pull])
    def init(self, mode=-1, pull=-1, *, value=None):
        LOG.append(["pin", self.id, mode, pull])
    def value(self, v=None):
        return 1 if v is None else None
    def __call__(self, v=None):
        return self.value(v)
    def on(self): pass
    def off(self): pass
    def irq(self, handler=None, trigger=3): pass

class Anything:
    # Any bus or peripheral a driver asks the machine for (I2C, SPI, PWM, ...): it records the pins it is given.
    def __init__(self, *args, **kw):
        LOG.append(["bus", pins_in(list(args) + list(kw.values()))])
    def __getattr__(self, name):
        def call(*args, **kw):
            return 2  # writevto: acknowledged
        return call

class Machine:
    Pin = Pin
    def __getattr__(self, name):
        return Anything

profile = json.load(open(sys.argv[1]))
board.build(profile, Machine())
print(json.dumps(LOG))
"""


def _probe(name, tmp_path):
    try:
        micropython = sim.find_micropython()
    except sim.SetupError as err:
        skip_unless(False, "the MicroPython unix port", str(err))
    script = tmp_path / "probe.py"
    script.write_text(PROBE % {"firmware": str(ROOT / "firmware"), "lib": str(ROOT / "lib")})
    done = subprocess.run([str(micropython), str(script), str(ROOT / "hardware" / "boards" / (name + ".json"))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, "board.build() failed for %s:\n%s" % (name, done.stderr or done.stdout)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_board_py_configures_exactly_the_pins_the_documents_show(name, tmp_path):
    IN, OUT, OPEN_DRAIN, PULL_UP = 1, 3, 7, 1
    log = _probe(name, tmp_path)
    configured = {}
    for entry in log:
        if entry[0] == "pin":
            configured.setdefault(entry[1], []).append((entry[2], entry[3]))
    # The power pins are the power module's, not board.build's.
    shown = {use.gpio: use for use in pin_uses(PROFILES[name]) if not use.path.startswith("power.")}
    assert sorted(configured) == sorted(shown)
    for gpio, use in shown.items():
        modes = configured[gpio]
        if use.mode == "in_pull":
            assert (IN, PULL_UP) in modes, (use, modes)
        elif use.mode == "in":
            assert any(m == IN and p in (None, -1) for m, p in modes) or use.path.startswith("display."), (use, modes)
        elif use.mode == "od" and use.path.startswith("keypad."):
            assert (OPEN_DRAIN, None) in modes, (use, modes)
        elif use.mode == "out" and not use.path.startswith("display.spi."):
            assert any(m == OUT for m, p in modes), (use, modes)
