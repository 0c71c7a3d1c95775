# The recovery screen's three pages, drawn whole on the canvas: what is wrong, the format question, formatting.
#
# 16 columns x 8 rows on the 128x64 OLED (more on the colour board, the same
# rows at the top). Texts come from ui/texts_de.py and texts_en.py (rec_*).
from micropython import const

INFO = const(0)  # what is wrong, how to rescue, C to format
CONFIRM = const(1)  # "Alle Spiele löschen?"
FORMATTING = const(2)


def draw(canvas, t, rec):
    """Every row afresh for the Recovery `rec` (recovery/app.py); t(key): the text table's lookup."""
    for row in range(canvas.rows):
        canvas.clear(row)
    page = rec.page
    if page == INFO:
        canvas.bar(0, t("rec_title"))
        canvas.text(1, 0, t("rec_" + rec.why))
        if rec.games is not None:  # None: the start failed before a raw scan counted them
            canvas.text(2, 0, t("rec_games") % rec.games)
        canvas.text(3, 0, t("rec_rescue"))
        canvas.text(4, 0, t("rec_laptop"))
        canvas.text(5, 0, t("rec_command"))
        if rec.read_done:
            canvas.text(6, 0, t("rec_read"))
        elif rec.reading is not None:
            canvas.text(6, 0, t("rec_reading") % rec.reading)
        canvas.text(7, 0, t("rec_format_key"))
    elif page == CONFIRM:
        canvas.bar(0, t("rec_format"))
        canvas.text(2, 0, t("rec_erase_all"))
        canvas.text(3, 0, t("rec_erase_q"))
        if not rec.read_done:
            canvas.text(5, 0, t("rec_not_rescued"))
        canvas.text(7, 0, t("rec_yes_no"))
    else:
        canvas.bar(0, t("rec_format"))
        canvas.text(2, 0, t("rec_formatting"))
        canvas.text(3, 0, "%d%%" % rec.formatted)
        canvas.text(5, 0, t("rec_keep_power"))
    if rec.link_active:
        canvas.mark(0, 0, canvas.cols - 1)
