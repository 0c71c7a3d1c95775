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
    # tafel club --help (club/cli.py)
    "hp_club": "club evenings: the hub every table reports its games to (MQTT), and its live board",
    "hp_club_desc": "A club evening: each table's Tafel sends every saved record over MQTT to one hub, which "
                    "stores the games in the history and shows every table live on a web page (docs/club.md).",
    "hp_club_serve": "run the hub: take the tables' records into the history until Ctrl-C",
    "hp_club_serve_desc": "Run the club's hub: subscribe to the tables' records, state and status, store every "
                          "signed record that fits its game in the history database and acknowledge it, and "
                          "serve the live board on --http. Without --broker an MQTT broker is built in, "
                          "listening on --listen.",
    "hp_club_broker": "the club's MQTT broker, mqtt://HOST[:PORT] (default: the broker built in)",
    "hp_club_listen": "where the broker built in listens (default: %(default)s)",
    "hp_club_club": "the club (default: the club of the paired devices)",
    "hp_club_db": "history database (default: history.sqlite3 in the user's data directory)",
    "hp_club_verbose": "log every message and the broker's doings",
    "hp_club_http": "where the live board's web page is served (default: %(default)s; 'off': not at all)",
    "hp_club_password": "the organiser's password for drawing tournament rounds (default: $%s; without it "
                        "nobody draws)",
    "hp_club_stale": "minutes without a round after which the board marks a table (default: %(default)s)",
    "hp_club_rank": "the leaderboard's order: `wins`, `points`, `games`, comma-separated (default: %(default)s)",
    "club_bad_rank": "--rank %s: an order is keys out of %s, comma-separated, each once",
    "club_bad_stale": "--stale %d: at least 1 minute",
    "club_board_at": "live board: http://%s:%d/",
    "club_bad_variant": "no variant %r: standard, penalty or challenge",
    "club_bad_target": "a target is a whole number from 1 to 100000, not %r",
    "club_too_few_tables": "%d tables asked for, %d paired",
    "club_not_connected": "the hub is not connected to the broker just now: try again in a moment",
    "club_named_twice": "a player is named twice",
    "club_do_not_fit": "%d players do not fit %d tables (%d to %d at a table)",
    # tafel club round (club/round_cli.py)
    "club_round_no_password": "the organiser's password is needed: --password, or $%s",
    "club_round_unreachable": "cannot reach the hub at %s (%s): is `tafel club serve` running there, its live "
                              "board on that port (--http)?",
    "club_round_not_hub": "%s answers, but not as a Tafel hub's live board does: is it the address of "
                          "`tafel club serve --http`?",
    "club_round_password": "the hub refused the password: give the one `tafel club serve` was started with "
                           "(--password or $%s; a hub started without one draws no rounds)",
    "club_round_refused": "the hub drew no round: %s",
    "col_table": "table",
    "col_players": "players",
    "hp_club_round": "draw the next tournament round on the running hub and send it to the tables",
    "hp_club_round_desc": "Draw the evening's next tournament round through the running hub (tafel club serve, "
                          "its live board's address): round 1 at random, later rounds by the leaderboard, parting "
                          "players who sat together. The hub sends each table its players and keeps the round; "
                          "the round is printed, a line per table.",
    "hp_club_round_players": "the players, comma-separated (Anna,Ben,Cleo,...)",
    "hp_club_round_tables": "how many tables play (the paired tables in the order of their names)",
    "hp_club_round_variant": "the variant the tables play: %s (default: %%(default)s)",
    "hp_club_round_target": "the points a game is played to (default: %(default)s)",
    "hp_club_round_hub": "the hub's live board (default: %(default)s)",
    "hp_club_round_password": "the organiser's password, as given to tafel club serve (default: $%s)",
}
