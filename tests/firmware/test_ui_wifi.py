# Settings > WLAN and Settings > Update on the simulated device: the network typed with multi-tap
# (password masked), kept in the settings across a reboot; an update asked of a real loopback
# server (httpd.py) and the refusals shown in words: no network set, nobody listening, the
# version running already, a bundle signed with a key the device does not trust. The whole way
# from N to N+1 runs in tests/host/test_update_wifi.py.
from crypto.test_bundle_read import FIXTURE

import bootsel
from httpd import Httpd
from tafel.version import VERSION
from test_update_fetch import offer_of
from ui.wifi_texts import TEXTS as PAIRS
from uisim import device, new_game, power_cut

TEXTS = dict((lang, dict(table)) for lang, table in PAIRS)  # pairs, looked up here as dicts

SETTINGS = "4"  # from the home menu: its entries keep their digits
WLAN = "C C C #"  # from the top of the settings: up round to the self-test, Update, WLAN
UPDATE = "D #"  # from WLAN, where wifi() leaves the cursor
SSID = "8 2 3 3 3 wait:1200 3 3 5 5 5 #"  # tafel
KEY = "4 3 3 4 4 wait:1200 3 3 4 4 4 6 A A 4 2"  # geheim42 (A A: abc -> ABC -> 123); then #


def address(port):
    """Keys for 127.0.0.1:port in the server field (A ".", B ":")."""
    return " ".join("127A0A0A1B" + str(port)) + " #"


def wifi(dev, server_keys="#"):
    dev.app.home()
    dev.play("wait:10 " + SETTINGS + " " + WLAN + " " + SSID + " " + KEY + " # " + server_keys)


def update(dev, keys=UPDATE, wait=400):
    """Open Update in the settings and let it look."""
    dev.play(keys + " wait:%d" % wait)
    return dev.screen()


def test_the_network_is_typed_masked_and_kept():
    dev = device()
    dev.app.home()
    dev.play("wait:10 " + SETTINGS + " C C C")
    assert dev.screen()[1:3] == ["WLAN", "           keins"]
    dev.play("# " + SSID + " 4 3 3 4 4")
    screen = dev.screen()
    assert screen[0] == "Passwort     abc" and screen[3] == "**h_"  # only the letter being chosen
    dev.play("wait:1200")
    assert dev.screen()[3] == "***_"
    dev.play("* * * " + KEY)
    assert dev.screen()[0] == "Passwort     123" and dev.screen()[3] == "********_"
    dev.play("# " + address(7070))
    assert dev.app.settings["wifi_ssid"] == "tafel" and dev.app.settings["wifi_key"] == "geheim42"
    assert dev.app.settings["upd_server"] == "127.0.0.1:7070"
    assert dev.screen()[2].strip() == "tafel" and dev.screen()[-1] == "Gespeichert"
    dev = power_cut(dev)
    assert dev.app.settings["wifi_ssid"] == "tafel" and dev.app.settings["wifi_key"] == "geheim42"
    assert dev.errors == []


def test_leaving_the_entry_with_star_changes_nothing():
    dev = device()
    wifi(dev)
    dev.play("# * * * * * *")  # the name deleted letter by letter, then * leaves
    assert dev.app.settings["wifi_ssid"] == "tafel" and dev.screen()[0] == "Einstellungen"
    assert dev.app.store.settings["wifi_ssid"] == "tafel"


def test_without_a_network_the_update_says_so():
    dev = device()
    dev.app.home()
    dev.play("wait:10 " + SETTINGS)
    screen = update(dev, "C C #")
    assert screen[0] == "Kein Update" and screen[2] == "WLAN fehlt" and screen[3] == "WLAN prüfen"  # what to check, never the raw key
    dev.play("*")
    assert dev.screen()[0] == "Einstellungen"
    assert dev.errors == []


def test_nobody_listening_is_no_server():
    dev = device()
    srv = Httpd(offer_of(FIXTURE), FIXTURE)
    srv.stop()  # a port nobody listens on now
    wifi(dev, address(srv.port))
    screen = update(dev)
    assert screen[2] == "Kein Server" and screen[3] == "Laptop prüfen"


def test_the_running_version_offered_is_up_to_date():
    offer = offer_of(FIXTURE)
    offer["app"] = VERSION
    srv = Httpd(offer, FIXTURE)
    dev = device()
    dev.app.settings["lang"] = "en"
    dev.app.set_language("en")
    try:
        wifi(dev, address(srv.port))
        screen = update(dev)
    finally:
        srv.stop()
    assert screen[0] == "No update" and screen[2] == "Up to date" and srv.ranges == []


def test_a_bundle_the_device_does_not_trust_is_refused_after_asking():
    srv = Httpd(offer_of(FIXTURE), FIXTURE)  # signed with the crypto tests' key: not in trusted.py
    dev = device()
    try:
        wifi(dev, address(srv.port))
        screen = update(dev)
        assert screen[2] == "Neu: 1.2.3" and screen[3] == "Jetzt: " + VERSION
        assert screen[-1] == "#=laden *=zur."
        dev.play("# wait:400")
        screen = dev.screen()
    finally:
        srv.stop()
    assert screen[0] == "Kein Update" and screen[2] == "Fremde Signatur" and screen[3] == ""  # never the raw key
    assert srv.ranges and srv.ranges[-1][1] < len(FIXTURE) - 33  # only the head came
    assert bootsel.read(dev.app.store.disk.vol) is None and dev.errors == []


def test_a_confirmed_fetch_lets_the_game_go_and_the_table_gets_it_back_after():
    # The transfer needs the heap the game holds: it goes on confirm (it is on flash), and
    # "continue" brings it back whole once the update is refused or left.
    srv = Httpd(offer_of(FIXTURE), FIXTURE)
    dev = device()
    new_game(dev)
    dev.play("A D 3 6 D 5 0 B 3 # #")  # a round: Anna 89
    standings = dev.screen()[:-1]  # the last row says "saved" for a moment
    try:
        wifi(dev, address(srv.port))
        update(dev)
        assert dev.app.session.game is not None  # only asking: the game stays
        dev.play("# wait:400")
        assert dev.screen()[2] == "Fremde Signatur"
    finally:
        srv.stop()
    session = dev.app.session
    assert session.game is None and session.game_id is not None
    dev.play("* * 2")  # back to settings, home, "continue"
    assert dev.screen()[:-1] == standings and len(session.game.rounds) == 1
    assert dev.errors == []


def test_the_wifi_texts_fit_the_display_in_both_languages():
    assert sorted(TEXTS["de"]) == sorted(TEXTS["en"])
    for lang in ("de", "en"):
        for key, text in TEXTS[lang].items():
            assert len(text) <= 16, (lang, key, text)
