# `tafel club pair` and `unpair` on the laptop's side: the hub's address read, what the device would refuse
# refused before a device is asked, the registry's secret, a firmware without the club link.
# (Against the simulated device's firmware: tests/host/test_club_device.py.)
import pytest

from fakedevice import FakeDevice
from tafel_host.cli import main
from tafel_host.club import pair_cli
from tafel_host.club.registry import Registry


def test_the_hub_is_host_and_port_the_port_mqtts_unless_given():
    assert pair_cli.parse_hub("192.168.1.20") == ("192.168.1.20", 1883)
    assert pair_cli.parse_hub("hub.local:8883") == ("hub.local", 8883)
    for bad in ("", ":1883", "hub:", "hub:x", "hub:0", "hub:70000"):
        with pytest.raises(ValueError):
            pair_cli.parse_hub(bad)


@pytest.mark.parametrize("args, said", [
    (["--hub", "hub:x"], "--hub hub:x: give the hub as HOST or HOST:PORT"),
    (["--hub", "a hub"], "--hub a hub: a host name or IPv4 address"),
    (["--hub", "hub", "--club", "Käthes Club"], "--club Käthes Club: 1 to 40 ASCII letters"),
    (["--hub", "hub", "--table", "x" * 41], "--table %s: 1 to 40 printable characters" % ("x" * 41)),
])
def test_what_the_device_would_refuse_is_refused_before_it_is_asked(args, said, capsys, data_home, tmp_path):
    db = tmp_path / "hub.sqlite3"
    assert main(["club", "pair", "--port", "socket://127.0.0.1:9", "--db", str(db)] + args) == 2
    assert said in capsys.readouterr().err
    assert not db.exists()


def test_a_firmware_without_the_club_link_says_so(capsys, data_home, tmp_path):
    dev = FakeDevice()  # answers CLUB_PAIR as a firmware from before it: ERR unknown
    db = tmp_path / "hub.sqlite3"
    try:
        assert main(["club", "pair", "--port", dev.url, "--hub", "127.0.0.1", "--db", str(db)]) == 1
        err = capsys.readouterr().err
        assert "has no club link: update it first" in err and "pair again" in err
        with Registry(db) as registry:
            assert len(registry.secret("fake-0001")) == 32  # the registry came first; pairing again replaces it
        assert main(["club", "unpair", "--port", dev.url, "--db", str(db)]) == 1
    finally:
        dev.close()


def test_the_registry_keeps_one_secret_per_device(tmp_path):
    with Registry(tmp_path / "hub.sqlite3") as registry:
        registry.pair("esp32-a1b2c3d4e5f6", "Tisch 3", bytes(32), "kartenclub")
        registry.pair("esp32-a1b2c3d4e5f6", "Tisch 4", bytes(range(32)), "kartenclub")
        assert registry.secret("esp32-a1b2c3d4e5f6") == bytes(range(32))
        assert registry.unpair("esp32-a1b2c3d4e5f6") and not registry.unpair("esp32-a1b2c3d4e5f6")
        assert registry.secret("esp32-a1b2c3d4e5f6") is None
