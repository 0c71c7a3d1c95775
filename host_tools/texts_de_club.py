# German texts of the club evening's hub (tafel club: the registry, the hub's lines, why a message was refused).
#
# As texts_de.py (lang.say formats them); its keys and these are one catalogue (lang.py joins
# them), so no key is in both. English in texts_en_club.py, with the same keys.
TEXTS = {
    # the registry (club/registry.py)
    "club_schema": "%s hat Club-Tabellen im Schema %s; dieses tafel kennt %d",
    "club_bad_device": "%r ist keine Geräte-ID, die ein Topic tragen kann (1 bis 40 Buchstaben a-z, Ziffern, '-', '_')",
    "club_bad_club": "%r ist kein Clubname, den ein Topic tragen kann (1 bis 40 Buchstaben a-z, Ziffern, '-', '_')",
    "club_bad_table": "ein Tischname hat 1 bis %d druckbare Zeichen, nicht %r",
    "club_bad_secret": "das Geheimnis eines Geräts sind %d zufällige Bytes",
    # tafel club serve (club/serve.py, club/cli.py)
    "club_needs_amqtt": "tafel club serve braucht amqtt, das Extra club: pip install 'tafel[club]' "
                        "(pipx install '.[club]' aus einem Checkout)",
    "club_no_club": "den Club mit --club nennen (noch ist kein Gerät gekoppelt: tafel club pair)",
    "club_several_clubs": "den Club mit --club nennen: Geräte sind gekoppelt für %s",
    "club_bad_name": "--club %r: ein Clubname hat 1 bis 40 Buchstaben a-z, Ziffern, '-', '_'",
    "club_bad_listen": "--listen nimmt HOST:PORT, nicht %r",
    "club_bad_broker": "--broker nimmt mqtt://HOST[:PORT], nicht %r",
    "club_cannot_listen": "kann nicht auf %s lauschen: %s",
    "club_embedded": "eingebauter Broker auf %s",
    "club_ready": "Zentrale des Clubs %s bereit: %s; Verlauf %s; %s gekoppelt. Strg-C beendet.",
    "club_no_broker": "Broker unter %s nicht erreichbar (%s): neuer Versuch",
    "club_lost_broker": "Broker verloren (%s): verbinde neu",
    "club_back": "wieder mit dem Broker verbunden",
    "club_stored": "%s (%s): Spiel %d, Eintrag %d (%s) gespeichert",
    "club_refused": "abgewiesen %s: %s%s",
    "club_status": "%s (%s): %s",
    "club_stopped": "Zentrale beendet: %s gespeichert, %s abgewiesen",
    "club_record": ("Eintrag", "Einträge"),
    "club_refusal": ("Nachricht", "Nachrichten"),
    "club_device": ("Gerät", "Geräte"),
    # a record's kind
    "club_kind_create": "neues Spiel",
    "club_kind_round": "Runde",
    "club_kind_edit": "Runde geändert",
    "club_kind_undo": "Runde zurückgenommen",
    "club_kind_finish": "Spiel beendet",
    # why a message was refused (club/ingest.py, REASONS)
    "club_why_not_tafel": "kein Tafel-Topic",
    "club_why_wrong_club": "von einem anderen Club",
    "club_why_not_for_hub": "kein Topic, das die Zentrale liest",
    "club_why_unknown_device": "kein solches Gerät gekoppelt",
    "club_why_bad_mac": "Signatur falsch (gefälscht, beschädigt oder anderes Geheimnis)",
    "club_why_bad_status": "Status weder online noch offline",
    "club_why_bad_state": "Spielstand unlesbar",
    "club_why_bad_record": "Eintrag unlesbar",
    "club_why_duplicate": "schon gespeichert (erneut bestätigt)",
    "club_why_conflict": "anders als der unter seiner Nummer gespeicherte Eintrag",
    "club_why_out_of_order": "Einträge davor fehlen",
    "club_why_does_not_apply": "passt nicht zu seinem Spiel",
    "club_why_history_refused": "der Verlauf hat eine andere Fassung des Spiels",
    # tafel club --help (club/cli.py)
    "hp_club": "Clubabende: der Hub, dem jeder Tisch seine Spiele meldet (MQTT), und seine Live-Tafel",
    "hp_club_desc": "Ein Clubabend: die Tafel jedes Tisches schickt jeden gespeicherten Eintrag über MQTT an einen "
                    "Hub, der die Spiele im Verlauf speichert und jeden Tisch live auf einer Webseite zeigt "
                    "(docs/club.md).",
    "hp_club_serve": "den Hub starten: die Einträge der Tische bis Strg-C in den Verlauf übernehmen",
    "hp_club_serve_desc": "Den Hub des Clubs starten: die Einträge, den Stand und den Status der Tische abonnieren, "
                          "jeden signierten Eintrag, der zu seinem Spiel passt, in der Verlaufsdatenbank speichern "
                          "und bestätigen, und die Live-Tafel unter --http zeigen. Ohne --broker läuft ein "
                          "eingebauter MQTT-Broker, der auf --listen wartet.",
    "hp_club_broker": "der MQTT-Broker des Clubs, mqtt://HOST[:PORT] (Vorgabe: der eingebaute)",
    "hp_club_listen": "wo der eingebaute Broker wartet (Vorgabe: %(default)s)",
    "hp_club_club": "der Club (Vorgabe: der Club der gekoppelten Geräte)",
    "hp_club_db": "Verlaufsdatenbank (Vorgabe: history.sqlite3 im Datenordner des Benutzers)",
    "hp_club_verbose": "jede Nachricht und was der Broker tut protokollieren",
    "hp_club_http": "wo die Webseite der Live-Tafel erscheint (Vorgabe: %(default)s; 'off': gar nicht)",
    "hp_club_password": "das Passwort der Turnierleitung zum Auslosen der Runden (Vorgabe: $%s; ohne es lost "
                        "niemand aus)",
    "hp_club_stale": "Minuten ohne Runde, nach denen die Tafel einen Tisch markiert (Vorgabe: %(default)s)",
    "hp_club_rank": "die Reihenfolge der Rangliste: `wins` (Siege), `points` (Punkte), `games` (Spiele), durch "
                    "Kommas getrennt (Vorgabe: %(default)s)",
    "club_bad_rank": "--rank %s: eine Reihenfolge besteht aus Schlüsseln von %s, durch Kommas getrennt, jeder einmal",
    "club_bad_stale": "--stale %d: mindestens 1 Minute",
    "club_board_at": "Live-Tafel: http://%s:%d/",
    "club_bad_variant": "keine Variante %r: standard, penalty oder challenge",
    "club_bad_target": "ein Ziel ist eine ganze Zahl von 1 bis 100000, nicht %r",
    "club_too_few_tables": "%d Tische verlangt, %d gekoppelt",
    "club_not_connected": "der Hub ist gerade nicht mit dem Broker verbunden: gleich noch einmal versuchen",
    "club_named_twice": "ein Name steht zweimal in der Liste",
    "club_do_not_fit": "%d Spieler passen nicht an %d Tische (%d bis %d an einem Tisch)",
    # tafel club round (club/round_cli.py)
    "club_round_no_password": "das Passwort der Turnierleitung fehlt: --password oder $%s",
    "club_round_unreachable": "der Hub unter %s ist nicht erreichbar (%s): läuft dort `tafel club serve`, mit "
                              "der Live-Tafel auf diesem Port (--http)?",
    "club_round_not_hub": "%s antwortet, aber nicht wie die Live-Tafel eines Tafel-Hubs: ist das die Adresse "
                          "von `tafel club serve --http`?",
    "club_round_password": "der Hub lehnt das Passwort ab: das angeben, mit dem `tafel club serve` gestartet "
                           "wurde (--password oder $%s; ein Hub ohne Passwort lost keine Runden aus)",
    "club_round_refused": "der Hub hat keine Runde ausgelost: %s",
    "col_table": "Tisch",
    "col_players": "Spieler",
    "hp_club_round": "die nächste Turnierrunde am laufenden Hub auslosen und an die Tische schicken",
    "hp_club_round_desc": "Die nächste Turnierrunde des Abends über den laufenden Hub auslosen (tafel club serve, "
                          "die Adresse seiner Live-Tafel): Runde 1 zufällig, spätere nach der Rangliste, wobei "
                          "wer schon zusammen saß getrennt wird. Der Hub schickt jedem Tisch seine Spieler und "
                          "behält die Runde; sie wird ausgegeben, eine Zeile je Tisch.",
    "hp_club_round_players": "die Spieler, durch Kommas getrennt (Anna,Ben,Cleo,...)",
    "hp_club_round_tables": "wie viele Tische spielen (die gekoppelten Tische in der Reihenfolge ihrer Namen)",
    "hp_club_round_variant": "die Variante an den Tischen: %s (Vorgabe: %%(default)s)",
    "hp_club_round_target": "bis zu wie vielen Punkten gespielt wird (Vorgabe: %(default)s)",
    "hp_club_round_hub": "die Live-Tafel des Hubs (Vorgabe: %(default)s)",
    "hp_club_round_password": "das Passwort der Turnierleitung, wie bei tafel club serve angegeben (Vorgabe: $%s)",
}
