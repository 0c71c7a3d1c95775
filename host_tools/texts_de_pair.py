# German texts of `tafel club pair` and `tafel club unpair` (host_tools/club/pair_cli.py).
#
# The same keys as texts_en_pair.py (tests/host/test_laptop_language.py checks it).
TEXTS = {
    # their --help (host_tools/club/pair_cli.py)
    "hp_club_pair": "das Gerät an --port mit dem Hub des Clubs koppeln",
    "hp_club_pair_desc": "Dem Gerät ein neues Geheimnis, die Adresse des Hubs, seinen Tisch und Club geben und "
                         "dasselbe Geheimnis in die Datenbank des Hubs legen. Das Gerät meldet dann jeden "
                         "gespeicherten Eintrag an den Hub, solange ein WLAN darauf eingestellt ist (Einstellungen > "
                         "WLAN).",
    "hp_club_pair_hub": "der MQTT-Broker des Hubs, wie ihn der Tisch erreicht (am besten eine IPv4-Adresse: ein Name "
                        "braucht DNS); Port 1883, wenn keiner angegeben ist",
    "hp_club_pair_table": "der Name des Tisches beim Hub (Vorgabe: die Kennung des Geräts)",
    "hp_club_pair_club": "der Club: ASCII-Buchstaben, Ziffern, '-', '_' (Vorgabe: %s)",
    "hp_club_pair_db": "die Datenbank des Hubs (Vorgabe: history.sqlite3 im Datenordner des Benutzers)",
    "hp_club_unpair": "das Gerät an --port meldet an keinen Hub mehr",
    "hp_club_unpair_desc": "Die Club-Kopplung vom Gerät nehmen und sein Geheimnis aus der Datenbank des Hubs, wenn "
                           "sie auf diesem Laptop liegt.",
    # what they say
    "pair_bad_hub": "--hub %s: den Hub als HOST oder HOST:PORT angeben (ein Port von 1 bis 65535)",
    "pair_bad_host": "--hub %s: ein Rechnername oder eine IPv4-Adresse aus höchstens 64 Buchstaben, Ziffern, "
                     "'.', '-' oder '_'",
    "pair_bad_club": "--club %s: 1 bis 40 ASCII-Buchstaben, Ziffern, '-' oder '_' (der Name steht in jedem "
                     "MQTT-Topic)",
    "pair_bad_table": "--table %s: 1 bis %d druckbare Zeichen",
    "pair_bad_device": "die Kennung des Geräts, %s, kann nicht in einem MQTT-Topic stehen",
    "pair_old_firmware": "die Firmware auf dem Gerät (%s) kann keinen Club-Abend: erst aktualisieren "
                         "(tafel update)",
    "pair_registry": "die Datenbank des Hubs %s: %s",
    "pair_half": "die Datenbank des Hubs hat das neue Geheimnis, das Gerät nicht: noch einmal koppeln",
    "paired": "%s ist Tisch %s im Club %s und meldet an %s:%d",
    "paired_wifi": "Es meldet, solange ein WLAN darauf eingestellt ist (Einstellungen > WLAN), auch nach "
                   "einem Neustart.",
    "unpaired": "%s ist nicht mehr gekoppelt: es meldet an keinen Hub",
    "unpaired_not": "%s war nicht gekoppelt",
    "unpaired_registry": "die Datenbank des Hubs %s hat sein Geheimnis vergessen",
}
