# English texts of `tafel club pair` and `tafel club unpair` (host_tools/club/pair_cli.py).
#
# As texts_en.py (lang.say formats them); lang.py joins them with the others into one catalogue, so
# no key is in two files. German in texts_de_pair.py, with the same keys.
TEXTS = {
    # their --help (host_tools/club/pair_cli.py)
    "hp_club_pair": "pair the device on --port with the club's hub",
    "hp_club_pair_desc": "Give the device a new secret, the hub's address, its table and club, and put the same "
                         "secret in the hub's database. The device then reports every saved record to the hub while a"
                         " Wi-Fi network is set on it (Settings > WLAN).",
    "hp_club_pair_hub": "the hub's MQTT broker as the table reaches it (an IPv4 address is best: a name needs DNS); "
                        "port 1883 unless given",
    "hp_club_pair_table": "the table's name on the hub (default: the device's id)",
    "hp_club_pair_club": "the club: ASCII letters, digits, '-', '_' (default: %s)",
    "hp_club_pair_db": "the hub's database (default: history.sqlite3 in the user's data directory)",
    "hp_club_unpair": "the device on --port reports to no hub any more",
    "hp_club_unpair_desc": "Take the club pairing off the device, and its secret out of the hub's database when that "
                           "is on this laptop.",
    # what they say
    "pair_bad_hub": "--hub %s: give the hub as HOST or HOST:PORT (a port from 1 to 65535)",
    "pair_bad_host": "--hub %s: a host name or IPv4 address of at most 64 letters, digits, '.', '-' or '_'",
    "pair_bad_club": "--club %s: 1 to 40 ASCII letters, digits, '-' or '_' (the name is part of every MQTT topic)",
    "pair_bad_table": "--table %s: 1 to %d printable characters",
    "pair_bad_device": "the device's id %s cannot be part of an MQTT topic",
    "pair_old_firmware": "the firmware on the device (%s) has no club link: update it first (tafel update)",
    "pair_registry": "the hub's database %s: %s",
    "pair_half": "the hub's database has the new secret but the device does not: pair again",
    "paired": "%s is table %s of the club %s and reports to %s:%d",
    "paired_wifi": "It reports while a Wi-Fi network is set on it (Settings > WLAN), also after a restart.",
    "unpaired": "%s is no longer paired: it reports to no hub",
    "unpaired_not": "%s was not paired",
    "unpaired_registry": "the hub's database %s forgot its secret",
}
