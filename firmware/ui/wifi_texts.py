# Texts of the Wi-Fi screens (ui/wifi_entry.py, ui/wifi_update.py), German and English, at most 16 columns.
# Apart from texts_de/en so they are loaded only while such a screen is open; pairs, as texts_de.py
# has them (its header says why): (language, ((key, text), ...)).
from ui.texts import find

TEXTS = (
    ("de", (
        ("title_wifi_ssid", "WLAN-Name"),
        ("title_wifi_key", "Passwort"),
        ("title_upd_server", "Server"),
        ("help_text", "A=abc/ABC/123"),
        ("help_address", "A=.  B=:  leer=?"),
        ("keys_entry", "#=ok *=löschen"),
        ("title", "Update"),
        ("join", "WLAN verbinden"),
        ("find", "Suche Server"),
        ("ask", "Frage Server"),
        ("offer", "Neu:"),
        ("running", "Jetzt:"),
        ("keys_offer", "#=laden *=zur."),
        ("load", "Lade"),
        ("check", "Prüfe alles"),
        ("done", "Neustart ..."),
        ("by_hand", "Bitte neu start."),
        ("keys_back", "*=zurück"),
        ("refused", "Kein Update"),
        ("resume", "Später: weiter"),
        # refusals: the UpdateError key, or key_detail where the detail says more
        ("no_network_no_wifi", "WLAN fehlt"),
        ("no_network_no_ap", "Netz nicht da"),
        ("no_network_password", "Passwort falsch"),
        ("no_network_timeout", "WLAN: Zeitlimit"),
        ("no_server", "Kein Server"),
        ("adv_no_network", "WLAN prüfen"),
        ("adv_no_server", "Laptop prüfen"),
        ("server_gone", "Server weg"),
        ("bad_offer", "Kein Tafel-Srv."),
        ("same_version", "Schon aktuell"),
        ("downgrade", "Ältere Version"),
        ("foreign_key", "Fremde Signatur"),
        ("bad_signature", "Signatur falsch"),
        ("bad_manifest", "Manifest falsch"),
        ("bad_file", "Datei defekt"),
        ("truncated", "Unvollständig"),
        ("needs_boot", "Boot zu alt"),
        ("wrong_mpy", "Falsches mpy"),
        ("incomplete_app", "App unvollst."),
        ("version_mismatch", "Version falsch"),
        ("no_space", "Flash zu voll"),
        ("on_trial", "Erst neu starten"),
        ("other", "Abgelehnt"),
    )),
    ("en", (
        ("title_wifi_ssid", "Wi-Fi name"),
        ("title_wifi_key", "Password"),
        ("title_upd_server", "Server"),
        ("help_text", "A=abc/ABC/123"),
        ("help_address", "A=.  B=:  none=?"),
        ("keys_entry", "#=ok *=delete"),
        ("title", "Update"),
        ("join", "Joining Wi-Fi"),
        ("find", "Finding server"),
        ("ask", "Asking server"),
        ("offer", "New:"),
        ("running", "Now:"),
        ("keys_offer", "#=load *=back"),
        ("load", "Loading"),
        ("check", "Checking all"),
        ("done", "Restarting ..."),
        ("by_hand", "Please restart"),
        ("keys_back", "*=back"),
        ("refused", "No update"),
        ("resume", "Later: resumes"),
        ("no_network_no_wifi", "No Wi-Fi set"),
        ("no_network_no_ap", "Net not found"),
        ("no_network_password", "Wrong password"),
        ("no_network_timeout", "Wi-Fi timed out"),
        ("no_server", "No server"),
        ("adv_no_network", "Check Wi-Fi"),
        ("adv_no_server", "Check the laptop"),
        ("server_gone", "Server gone"),
        ("bad_offer", "Not a Tafel srv"),
        ("same_version", "Up to date"),
        ("downgrade", "Older version"),
        ("foreign_key", "Unknown key"),
        ("bad_signature", "Bad signature"),
        ("bad_manifest", "Bad manifest"),
        ("bad_file", "File damaged"),
        ("truncated", "Incomplete"),
        ("needs_boot", "Boot too old"),
        ("wrong_mpy", "Wrong mpy"),
        ("incomplete_app", "App incomplete"),
        ("version_mismatch", "Version differs"),
        ("no_space", "Flash too full"),
        ("on_trial", "Restart first"),
        ("other", "Refused"),
    )),
)


def _table(app):
    return find(TEXTS, app.settings.get("lang", "de")) or find(TEXTS, "de")


def t(app, key, missing=None):
    table = _table(app)
    text = find(table, key)
    if text is None:
        text = missing if missing is not None else find(find(TEXTS, "de"), key, find(table, "other"))
    return text


def refusal(app, err):
    """The words for an UpdateError: its key with its detail where that says more, else its key."""
    table = _table(app)
    detail = err.detail if isinstance(err.detail, str) else ""
    return find(table, "%s_%s" % (err.key, detail)) or find(table, err.key) or find(table, "other")
