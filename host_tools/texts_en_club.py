# English texts of the club evening's hub (tafel club: the registry, the hub's lines, why a message was refused).
#
# As texts_en.py (lang.say formats them); its keys and these are one catalogue (lang.py joins
# them), so no key is in both. German in texts_de_club.py, with the same keys.
TEXTS = {
    # the registry (club/registry.py)
    "club_schema": "%s has club tables of schema %s; this tafel knows %d",
    "club_bad_device": "%r is no device id a topic can carry (1 to 40 letters a-z, digits, '-', '_')",
    "club_bad_club": "%r is no club name a topic can carry (1 to 40 letters a-z, digits, '-', '_')",
    "club_bad_table": "a table's name is 1 to %d printable characters, not %r",
    "club_bad_secret": "a device's secret is %d random bytes",
    # tafel club serve (club/serve.py, club/cli.py)
    "club_needs_amqtt": "tafel club serve needs amqtt, the club extra: pip install 'tafel[club]' "
                        "(pipx install '.[club]' from a checkout)",
    "club_no_club": "name the club with --club (no device is paired yet: tafel club pair)",
    "club_several_clubs": "name the club with --club: devices are paired for %s",
    "club_bad_name": "--club %r: a club's name is 1 to 40 letters a-z, digits, '-', '_'",
    "club_bad_listen": "--listen takes HOST:PORT, not %r",
    "club_bad_broker": "--broker takes mqtt://HOST[:PORT], not %r",
    "club_cannot_listen": "cannot listen on %s: %s",
    "club_embedded": "the broker built in, on %s",
    "club_ready": "hub of club %s ready: %s; history %s; %s paired. Ctrl-C stops.",
    "club_no_broker": "cannot reach the broker at %s (%s): trying again",
    "club_lost_broker": "lost the broker (%s): connecting again",
    "club_back": "connected to the broker again",
    "club_stored": "%s (%s): game %d, record %d (%s) stored",
    "club_refused": "refused %s: %s%s",
    "club_status": "%s (%s): %s",
    "club_stopped": "hub stopped: %s stored, %s refused",
    "club_record": ("record", "records"),
    "club_refusal": ("message", "messages"),
    "club_device": ("device", "devices"),
    # a record's kind
    "club_kind_create": "new game",
    "club_kind_round": "round",
    "club_kind_edit": "round edited",
    "club_kind_undo": "round undone",
    "club_kind_finish": "game ended",
    # why a message was refused (club/ingest.py, REASONS)
    "club_why_not_tafel": "not a Tafel topic",
    "club_why_wrong_club": "another club's",
    "club_why_not_for_hub": "not a topic the hub reads",
    "club_why_unknown_device": "no such device is paired",
    "club_why_bad_mac": "signature wrong (forged, damaged, or another secret)",
    "club_why_bad_status": "status neither online nor offline",
    "club_why_bad_state": "game state unreadable",
    "club_why_bad_record": "record unreadable",
    "club_why_duplicate": "stored before (answered again)",
    "club_why_conflict": "differs from the record stored under its number",
    "club_why_out_of_order": "records before it missing",
    "club_why_does_not_apply": "does not fit its game",
    "club_why_history_refused": "the history holds another copy of the game",
}
