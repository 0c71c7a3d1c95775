# `tafel update` and `tafel info` against a fake device (host_tools/update/client.py, link/cli.py):
# a bundle that is not whole is refused before connecting; INFO's update state decides what is
# sent (this very bundle already there, a version rolled back, the same version from other
# content, a version on trial); after the switch the trial is followed to its end (confirmed,
# rolled back with the device's reason, silence). The transfer itself runs in the simulator
# (test_update_e2e.py); here `send` is replaced where the test is about what comes before or after.
import calendar

import pytest

from fakedevice import FakeDevice
from simlink import ROOT
from tafel import wire
from tafel.records import put_text, put_varint
from tafel_host.cli import main
from tafel_host.exits import Exit
from tafel_host.link import client as link_client
from tafel_host.update import bundle_build, keys
from tafel_host.update import client as update_client
from tafel_host.update import trial as update_trial

OLD, NEW = "0.3.0", "0.3.5"
AT = calendar.timegm((2026, 12, 2, 10, 31, 0, 0, 0, 0))  # 2026-12-02 10:31 UTC
BOOTS = {"version": NEW, "why": "boots", "at": AT, "count": 3}


def app(version, extra=b""):
    return [("main.py", b"import app\napp.run()\n"),
            ("app.py", b"def run():\n    pass\n" + extra),
            ("lib/tafel/version.py", b'VERSION = "%s"\n' % version.encode()),
            ("ui/text.mpy", b"tafel " * 500)]  # compresses: a deflated body


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    folder = tmp_path_factory.mktemp("update-client")
    key = keys.load_private(keys.generate(folder / "keys")[0])
    out = {}
    for name, version, extra in (("new", NEW, b""), ("other", NEW, b"# built again\n")):
        path = folder / ("%s.bundle" % name)
        path.write_bytes(bundle_build.pack(app(version, extra), version, key, 6))
        out[name] = path
    out["dir"] = folder
    return out


class TrialDevice(FakeDevice):
    """A fake Tafel with a firmware version, an update state and rollback records the test sets.

    phases: what each coming handshake finds, one per handshake: None (silent: resetting,
    booting), "reset" (the connection drops, as a port that goes away), or a dict of changes
    ("fw", "rollbacks", INFO's state fields) after which it answers. refuse: "key:detail" for an
    ERR update to UPDATE_BEGIN."""

    def __init__(self, fw=OLD, **changes):
        FakeDevice.__init__(self)
        self.fw, self.rollbacks, self.refuse = fw, [], None
        self.state = {"state": 0, "tries": 0, "tries_max": 3, "wdt_ms": 100, "confirm_ms": 200,
                      "confirm_left_ms": 0, "bundle_id": ""}
        self.phases = []
        self.handshakes = 0
        self.change(changes)

    def change(self, changes):
        changes = dict(changes)
        self.fw = changes.pop("fw", self.fw)
        self.rollbacks = changes.pop("rollbacks", self.rollbacks)
        assert set(changes) <= set(self.state), changes
        self.state.update(changes)

    def _handle(self, line):
        if line == wire.HANDSHAKE:
            self.handshakes += 1
            if self.phases:
                phase = self.phases.pop(0)
                if phase is None:
                    return None
                if phase == "reset":
                    return "vanish"
                self.change(phase)
            self.session, self.last = True, None
            self._send(wire.hello_line(self.device_id, self.fw, self.window, self.chunk))
            return None
        return FakeDevice._handle(self, line)

    def _do(self, kind, r):
        if kind == wire.INFO:
            out = bytearray()
            for n in (1800, 1984, 0, 0, AT + 600, 1):
                put_varint(out, n)
            put_text(out, self.fw)
            put_text(out, "ok")
            for key in ("state", "tries", "tries_max", "wdt_ms", "confirm_ms", "confirm_left_ms"):
                put_varint(out, self.state[key])
            put_text(out, self.state["bundle_id"])
            put_varint(out, len(self.rollbacks))
            for rec in self.rollbacks:
                put_text(out, rec["version"])
                put_text(out, rec["why"])
                put_varint(out, rec["at"])
                put_varint(out, rec["count"])
            return out, None
        if kind == wire.UPDATE_BEGIN and self.refuse:
            raise wire.WireError("update", self.refuse)
        return FakeDevice._do(self, kind, r)


@pytest.fixture(autouse=True)
def fast(monkeypatch):
    """Waits shortened: no test sleeps more than a fraction of a second."""
    monkeypatch.setattr(link_client, "HANDSHAKE_TIMEOUT", 0.1)
    monkeypatch.setattr(link_client, "REPLY_TIMEOUT", 0.3)
    monkeypatch.setattr(update_trial, "POLL_S", 0.01)
    monkeypatch.setattr(update_trial, "BOOT_ALLOWANCE", 0.05)
    monkeypatch.setattr(update_trial, "TRIAL_MARGIN", 0.2)
    monkeypatch.delenv("TAFEL_PORT", raising=False)


@pytest.fixture
def device():
    dev = TrialDevice()
    yield dev
    dev.close()


class FakeSend:
    """update_client.send replaced: records that it was called, then the device runs `phases`."""

    def __init__(self, dev, phases, version=NEW):
        self.dev, self.phases, self.version, self.calls = dev, phases, version, 0

    def __call__(self, link, data, progress=None):
        self.calls += 1
        self.dev.phases = list(self.phases)
        result = update_client.Result()
        result.version, result.files = self.version, 4
        return result


def update(dev, path, *more):
    return main(["update", "--port", dev.url, *more, str(path)])


def plain(text):
    """A refusal as people read it: sentences, no tuples, no 'key: ...' as the text."""
    assert "((" not in text and "('" not in text and "UpdateError" not in text, text
    for key in ("truncated:", "trailing_data:", "not_bundle:", "bad_manifest:", "same_version:", "rolled_back:"):
        assert key not in text, text
    return text


# ---- before connecting: the file ----------------------------------------------------------

def refused_file(dev, tmp_path, capsys, data):
    path = tmp_path / "x.bundle"
    path.write_bytes(data)
    assert update(dev, path) == Exit.USAGE
    assert dev.handshakes == 0 and dev.log == []  # refused before connecting
    return plain(capsys.readouterr().err)


def test_a_truncated_bundle_is_refused_before_connecting(bundles, device, tmp_path, capsys):
    data = bundles["new"].read_bytes()
    m = bundle_build.read_manifest_unchecked(data)
    last = m.files[-1]
    err = refused_file(device, tmp_path, capsys, data[:last.offset + 3])
    assert "ends early, inside the body of %s" % last.path in err
    assert "It has {:,} of its {:,} bytes.".format(last.offset + 3, len(data)) in err
    assert err.rstrip().endswith("(truncated)")
    err = refused_file(device, tmp_path, capsys, data[:m.body_start - 10])
    assert "ends early, inside its signature" in err and "of its {:,} bytes".format(len(data)) in err
    err = refused_file(device, tmp_path, capsys, data[:60])
    assert "ends early, inside its manifest" in err and "It has 60 bytes" in err
    err = refused_file(device, tmp_path, capsys, data[:12])
    assert "ends early, inside its header" in err


def test_trailing_data_is_refused_before_connecting(bundles, device, tmp_path, capsys):
    err = refused_file(device, tmp_path, capsys, bundles["new"].read_bytes() + b"12345")
    assert "has 5 bytes after its last file" in err and err.rstrip().endswith("(trailing_data)")


def test_another_file_and_a_damaged_bundle_are_told_apart(bundles, device, tmp_path, capsys):
    err = refused_file(device, tmp_path, capsys, b"PK\x03\x04 a zip file, say" * 3)
    assert "not a Tafel update bundle" in err and "(not_bundle)" in err
    err = refused_file(device, tmp_path, capsys, b"")
    assert "empty" in err
    data = bytearray(bundles["new"].read_bytes())
    at = data.index(b"app " + NEW.encode())
    data[at:at + 3] = b"apq"  # the manifest's first line altered
    err = refused_file(device, tmp_path, capsys, bytes(data))
    assert "manifest is damaged" in err and "not a Tafel update bundle" not in err
    data = bytearray(bundles["new"].read_bytes())
    m = bundle_build.read_manifest_unchecked(bytes(data))
    raw = next(e for e in m.files if e.encoding == "raw")
    data[raw.offset] ^= 1  # a body altered
    err = refused_file(device, tmp_path, capsys, bytes(data))
    assert "does not match the signed manifest" in err and "(bad_file)" in err
    assert "not a Tafel update bundle" not in err


def test_an_unreadable_path_is_exit_2(device, tmp_path, capsys):
    assert update(device, tmp_path / "missing.bundle") == Exit.USAGE
    assert "cannot read" in capsys.readouterr().err


# ---- after connecting: what the device runs and gave up --------------------------------------

def test_a_rolled_back_version_is_refused_without_force_and_sent_with_it(bundles, device, capsys, monkeypatch):
    device.change({"rollbacks": [BOOTS]})
    fake = FakeSend(device, [{"fw": NEW, "state": 2, "rollbacks": [BOOTS]}])
    monkeypatch.setattr(update_client, "send", fake)
    assert update(device, bundles["new"]) == Exit.FAILED
    err = plain(capsys.readouterr().err)
    assert ("0.3.5 was rolled back on this device on 2026-12-02 10:31 UTC (it never confirmed itself in 3 boots); "
            "send it again with --force") in err
    assert fake.calls == 0
    assert update(device, bundles["new"], "--force") == Exit.OK
    out = capsys.readouterr().out
    assert fake.calls == 1 and "sending it again (--force)" in out
    assert "the device restarted and runs 0.3.5; it confirmed itself healthy" in out and "probation" in out


def test_the_same_version_from_this_very_bundle_is_nothing_to_do(bundles, device, capsys, monkeypatch):
    device.change({"fw": NEW, "bundle_id": update_client.bundle_id(bundles["new"].read_bytes())})
    fake = FakeSend(device, [])
    monkeypatch.setattr(update_client, "send", fake)
    assert update(device, bundles["new"]) == Exit.OK
    assert "the device runs 0.3.5 already (this very bundle)" in capsys.readouterr().out
    assert fake.calls == 0


def test_this_very_bundle_on_trial_is_waited_for(bundles, device, capsys, monkeypatch):
    device.change({"fw": NEW, "state": 1, "tries": 1, "confirm_left_ms": 900,
                   "bundle_id": update_client.bundle_id(bundles["new"].read_bytes())})
    fake = FakeSend(device, [])
    monkeypatch.setattr(update_client, "send", fake)
    device.phases = [{}, {"confirm_left_ms": 100}, {"state": 2, "tries": 0, "confirm_left_ms": 0}]
    assert update(device, bundles["new"]) == Exit.OK
    out = capsys.readouterr().out
    assert "(this very bundle)" in out and "it is on trial: waiting for it to confirm itself" in out
    assert "it confirmed itself healthy" in out and fake.calls == 0


def test_the_same_version_from_other_content_needs_force_and_then_the_devices_consent(bundles, device, capsys):
    device.change({"fw": NEW, "bundle_id": update_client.bundle_id(bundles["other"].read_bytes())})
    assert update(device, bundles["new"]) == Exit.FAILED
    err = plain(capsys.readouterr().err)
    assert "the device runs 0.3.5 already, built from other content" in err and "--force" in err
    assert not [name for name, _ in device.log if name.startswith("update")]
    # sent with --force: the device refuses the same version (not signed with --allow-downgrade)
    device.refuse = "same_version:0.3.5"
    assert update(device, bundles["new"], "--force") == Exit.FAILED
    err = plain(capsys.readouterr().err)
    assert "the device refused the update: The device runs 0.3.5 already." in err
    assert "--allow-downgrade" in err and err.rstrip().endswith("(same_version)")
    assert [name for name, _ in device.log].count("update_begin") == 1


def test_a_device_on_trial_is_not_sent_another_version(bundles, device, capsys, monkeypatch):
    device.change({"fw": "0.3.4", "state": 1, "tries": 2, "confirm_left_ms": 14000})
    fake = FakeSend(device, [])
    monkeypatch.setattr(update_client, "send", fake)
    assert update(device, bundles["new"]) == Exit.FAILED
    err = plain(capsys.readouterr().err)
    assert "still on trial" in err and "boot 2 of 3" in err and "14 s" in err and fake.calls == 0


def test_a_device_refusal_is_a_sentence_with_its_key_in_brackets(bundles, device, capsys):
    device.refuse = "downgrade:0.3.5 0.4.0"
    assert update(device, bundles["new"]) == Exit.FAILED
    err = plain(capsys.readouterr().err)
    assert "The bundle holds 0.3.5, older than the 0.4.0 the device runs" in err and "(downgrade)" in err


# ---- after the switch: the trial ------------------------------------------------------------

def test_a_trial_that_confirms_is_success(bundles, device, capsys, monkeypatch):
    trial = [None, "reset", {"fw": NEW, "state": 1, "tries": 1, "confirm_left_ms": 150},
             {"confirm_left_ms": 40}, {"state": 0, "tries": 0, "confirm_left_ms": 0}]
    monkeypatch.setattr(update_client, "send", FakeSend(device, trial))
    assert update(device, bundles["new"]) == Exit.OK
    out = capsys.readouterr().out
    assert "on trial: boot 1 of 3" in out  # the state as it changes (no terminal here)
    assert "the device restarted and runs 0.3.5; it confirmed itself healthy" in out and "probation" not in out


def test_a_rollback_is_reported_with_the_devices_reason(bundles, device, capsys, monkeypatch):
    device.change({"wdt_ms": 400})
    trial = [{"fw": NEW, "state": 1, "tries": 1, "confirm_left_ms": 200}, "reset", None,
             {"tries": 2}, "reset", None, {"tries": 3}, "reset",
             {"fw": OLD, "state": 0, "tries": 0, "rollbacks": [BOOTS]}]
    monkeypatch.setattr(update_client, "send", FakeSend(device, trial))
    assert update(device, bundles["new"]) == Exit.FAILED
    captured = capsys.readouterr()
    assert "on trial: boot 3 of 3" in captured.out
    assert ("the update was rolled back: 0.3.5 never confirmed itself in 3 boots; the device runs 0.3.0 again"
            in plain(captured.err))


def test_an_old_record_of_the_same_version_is_no_rollback_of_this_update(bundles, device, capsys, monkeypatch):
    # 0.3.5 was rolled back before (crashes) and is sent again with --force; until the device
    # restarts, the old version answers with that same record: not this update's rollback.
    old = {"version": NEW, "why": "crashes", "at": AT - 86400, "count": 3}
    device.change({"rollbacks": [old], "wdt_ms": 400})
    key = {"version": NEW, "why": "key", "at": 0, "count": 0}
    trial = [{}, {}, {"fw": NEW, "state": 1, "tries": 1}, "reset", {"fw": OLD, "state": 0, "rollbacks": [key, old]}]
    monkeypatch.setattr(update_client, "send", FakeSend(device, trial))
    assert update(device, bundles["new"], "--force") == Exit.FAILED
    err = plain(capsys.readouterr().err)
    assert "the update was rolled back: the recovery key was held at power-on; the device runs 0.3.0 again" in err


def test_a_device_that_stays_silent_is_reported_with_advice(bundles, device, capsys, monkeypatch):
    device.change({"wdt_ms": 10})
    monkeypatch.setattr(update_client, "send", FakeSend(device, [None] * 100))
    assert update(device, bundles["new"]) == Exit.FAILED
    err = plain(capsys.readouterr().err)
    assert "the device has not answered for" in err and "tafel info" in err
    assert "hold 0 while switching it on" in err


def test_wait_trial_keeps_the_link_when_it_cannot_reopen(device):
    link = link_client.Link.open(device.url)
    before = link.info()
    device.phases = [None, {"fw": NEW, "state": 1, "tries": 1, "confirm_left_ms": 90}, {"state": 2}]
    seen = []
    t = update_client.wait_trial(link, NEW, before, show=lambda *a: seen.append(a[0] + a[1]))
    assert t.outcome == update_client.CONFIRMED and t.link is link and t.info["state"] == 2
    assert "waiting for the device to come back" in seen and "on trial: boot 1 of 3, confirms in 1 s" in seen
    link.close()


def test_the_time_allowed_is_the_whole_trial():
    info = {"tries_max": 3, "wdt_ms": 60000, "confirm_ms": 20000}
    allowance, margin = update_trial.BOOT_ALLOWANCE, update_trial.TRIAL_MARGIN
    assert update_client.trial_seconds(info) == 3 * (60 + allowance) + 20 + margin


def test_the_recovery_key_told_is_the_boot_selectors():
    source = (ROOT / "firmware" / "bootsel.py").read_text()
    assert 'RECOVERY_KEY = "%s"' % update_client.RECOVERY_KEY in source


# ---- tafel info ------------------------------------------------------------------------------

def test_info_prints_the_update_state_and_the_rollbacks(device, capsys):
    device.change({"fw": NEW, "state": 1, "tries": 2, "confirm_left_ms": 13200,
                   "rollbacks": [{"version": "0.3.4", "why": "crashes", "at": AT, "count": 3},
                                 {"version": "0.3.3", "why": "key", "at": 0, "count": 0}]})
    assert main(["info", "--port", device.url]) == 0
    out = capsys.readouterr().out
    assert "update   0.3.5 on trial: boot 2 of 3, confirms after 14 s more of running" in out
    assert "rollback 0.3.4 given up on 2026-12-02 10:31 UTC: it crashed 3 times soon after the update" in out
    assert "rollback 0.3.3 given up at an unknown time: the recovery key was held at power-on" in out
    device.change({"state": 2, "tries": 0, "rollbacks": []})
    assert main(["info", "--port", device.url]) == 0
    assert "update   0.3.5 on probation" in capsys.readouterr().out


# ---- in German (issue 27: the laptop speaks the table's language) ----------------------------

def german(capsys, tmp_path, dev, path, *more):
    """`tafel update` under --lang de: its exit code and what it said, checked for English words."""
    from test_laptop_language import english_words

    code = main(["--lang", "de", "update", "--port", dev.url, *more, str(path)])
    out, err = capsys.readouterr()
    assert english_words(out + err, tmp_path) == [], out + err
    return code, out, err


def test_tafel_update_tells_in_german_what_it_sends_and_how_the_trial_ends(bundles, device, capsys, monkeypatch,
                                                                           tmp_path):
    code, _, err = german(capsys, tmp_path, device, tmp_path / "fehlt.paket")
    assert code == Exit.USAGE and "diese Datei gibt es nicht" in err
    device.change({"rollbacks": [BOOTS]})
    fake = FakeSend(device, [{"fw": NEW, "state": 2, "rollbacks": [BOOTS]}])
    monkeypatch.setattr(update_client, "send", fake)
    code, _, err = german(capsys, tmp_path, device, bundles["new"])
    assert code == Exit.FAILED and "mit --force noch einmal senden" in err and fake.calls == 0
    code, out, _ = german(capsys, tmp_path, device, bundles["new"], "--force")
    assert code == Exit.OK and "es hat sich als gesund bestätigt (auf Bewährung" in out
    device.change({"fw": NEW, "state": 0, "rollbacks": [],
                   "bundle_id": update_client.bundle_id(bundles["other"].read_bytes())})
    code, _, err = german(capsys, tmp_path, device, bundles["new"])
    assert code == Exit.FAILED and "das Gerät läuft schon mit 0.3.5, aus anderem Inhalt gebaut" in err
    device.change({"bundle_id": update_client.bundle_id(bundles["new"].read_bytes())})
    code, out, _ = german(capsys, tmp_path, device, bundles["new"])
    assert code == Exit.OK and "(genau diesem Paket)" in out


def test_a_silent_device_is_reported_in_german_with_advice(bundles, device, capsys, monkeypatch, tmp_path):
    device.change({"wdt_ms": 10})
    monkeypatch.setattr(update_client, "send", FakeSend(device, [None] * 100))
    code, _, err = german(capsys, tmp_path, device, bundles["new"])
    assert code == Exit.FAILED and "das Gerät antwortet seit" in err and "0 beim Einschalten halten" in err
