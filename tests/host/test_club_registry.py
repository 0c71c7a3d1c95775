# The hub's registry (club/registry.py): paired tables and their secrets in the history database,
# as `tafel club pair` writes them and `tafel club serve` reads them; the rejection log.
import os
import sqlite3

import pytest

from club_fixtures import CLUB, DEVICE, OTHER, OTHER_SECRET, SECRET, TABLE
from needs import POSIX, needs
from tafel_host.club import registry as club_registry
from tafel_host.club.registry import Device, Registry, RegistryError
from tafel_host.history.database import History, HistoryError


def test_a_paired_device_has_its_secret_table_and_club(tmp_path):
    with Registry(tmp_path / "h.sqlite3") as reg:
        assert reg.secret(DEVICE) is None and reg.device(DEVICE) is None and reg.devices() == []
        reg.pair(DEVICE, TABLE, SECRET, CLUB, now=100)
        reg.pair(OTHER, "Tisch 1", bytearray(OTHER_SECRET), "schachclub", now=200)
        assert reg.secret(DEVICE) == SECRET and isinstance(reg.secret(DEVICE), bytes)
        assert reg.device(DEVICE) == Device(DEVICE, TABLE, CLUB, 100)
        assert reg.devices() == [Device(OTHER, "Tisch 1", "schachclub", 200), Device(DEVICE, TABLE, CLUB, 100)]
        assert reg.devices(CLUB) == [Device(DEVICE, TABLE, CLUB, 100)]
        assert reg.clubs() == [CLUB, "schachclub"]
    with Registry(tmp_path / "h.sqlite3") as reg:  # kept
        assert reg.secret(OTHER) == OTHER_SECRET


def test_pairing_again_replaces_and_unpairing_forgets_the_secret_only(tmp_path):
    with Registry(tmp_path / "h.sqlite3") as reg:
        reg.pair(DEVICE, TABLE, SECRET, CLUB)
        reg.pair(DEVICE, "Tisch 9", OTHER_SECRET, CLUB)
        assert reg.secret(DEVICE) == OTHER_SECRET and reg.device(DEVICE).table_name == "Tisch 9"
        assert len(reg.devices()) == 1
        assert reg.unpair(DEVICE) is True
        assert reg.unpair(DEVICE) is False
        assert reg.secret(DEVICE) is None and reg.devices() == []


@pytest.mark.parametrize("device, table, secret, club, word", [
    ("esp32 a1", TABLE, SECRET, CLUB, "device id"),
    ("", TABLE, SECRET, CLUB, "device id"),
    ("a/b", TABLE, SECRET, CLUB, "device id"),
    (DEVICE, TABLE, SECRET, "Kartenclub+", "club name"),
    (DEVICE, TABLE, SECRET, "x" * 41, "club name"),
    (DEVICE, "", SECRET, CLUB, "table's name"),
    (DEVICE, "T" * 41, SECRET, CLUB, "table's name"),
    (DEVICE, "Tisch\n3", SECRET, CLUB, "table's name"),
    (DEVICE, TABLE, SECRET[:16], CLUB, "32 random bytes"),
    (DEVICE, TABLE, "0" * 32, CLUB, "32 random bytes"),
])
def test_what_a_topic_or_the_hmac_cannot_take_is_refused(tmp_path, device, table, secret, club, word):
    with Registry(tmp_path / "h.sqlite3") as reg:
        with pytest.raises(RegistryError, match=word):
            reg.pair(device, table, secret, club)
        assert reg.devices() == []


def test_the_registry_lives_in_the_history_database(tmp_path, data_home):
    with Registry(None) as reg:
        assert reg.path == data_home / "history.sqlite3"
        reg.pair(DEVICE, TABLE, SECRET, CLUB)
    with History(None) as hist:  # the history opens it as ever
        assert hist.counts()["games"] == 0


@needs(POSIX, "file modes", "run it on Linux or macOS")
def test_pairing_makes_the_database_its_owners_alone(tmp_path):
    path = tmp_path / "h.sqlite3"
    with Registry(path) as reg:
        os.chmod(path, 0o644)
        reg.pair(DEVICE, TABLE, SECRET, CLUB)
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_club_tables_of_another_version_are_refused(tmp_path):
    path = tmp_path / "h.sqlite3"
    Registry(path).close()
    db = sqlite3.connect(str(path))
    with db:
        db.execute("UPDATE meta SET value = '9' WHERE key = 'club_schema'")
    db.close()
    with pytest.raises(RegistryError, match="club tables of schema 9"):
        Registry(path)
    (tmp_path / "junk").write_bytes(b"not a database" * 100)
    with pytest.raises(HistoryError):
        Registry(tmp_path / "junk")


def test_rejections_are_logged_newest_first_and_the_log_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(club_registry, "MAX_REJECTIONS", 1500)
    with Registry(tmp_path / "h.sqlite3") as reg:
        for i in range(2500):
            reg.reject(DEVICE if i % 2 else None, "tafel/x/%d/records" % i, "bad_mac", "detail %d" % i, now=i)
        newest = reg.rejections(3)
        assert [(r.time, r.device, r.reason, r.detail) for r in newest] == [
            (2499, DEVICE, "bad_mac", "detail 2499"), (2498, None, "bad_mac", "detail 2498"),
            (2497, DEVICE, "bad_mac", "detail 2497")]
        assert 1500 <= len(reg.rejections(10000)) < 2500
