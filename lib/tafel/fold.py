# The plain forms of letters the device has no glyph for (tafel.names: imported only when a
# name has such a letter, so the table is in the device's heap only then).
#
# Letters the device has no glyph for but a plain form of: FOLD_FROM[i] is shown and kept as
# FOLD_TO[i] (one character for one, so a name keeps its length). The laptop stores a name
# in this form before it sends it (tafel roster push says so), the device keeps a roster
# it is sent in this form, and draws any other name's letter from here the same way.
# What is in neither (Æ, Œ, Þ, Greek, Cyrillic, CJK, emoji ...) a name may not have.
FOLD_FROM = ("ÀÁÂÃÅĀĂĄàáâãåāăąÇĆĈĊČçćĉċčĎĐďđÈÉÊËĒĔĖĘĚèêëēĕėęěĜĞĠĢĝğġģĤĦĥħÌÍÎÏĨĪĬĮİìíîïĩīĭįı"
             "ĴĵĶķĹĻĽĿŁĺļľŀłÑŃŅŇñńņňÒÓÔÕØŌŎŐòóôõøōŏőŔŖŘŕŗřŚŜŞŠśŝşšŢŤŦţťŧȘșȚțÙÚÛŨŪŬŮŰŲùúûũūŭůűų"
             "ŴŵÝŸŶýÿŷŹŻŽźżžÐðẞ\u00a0\u2018\u2019\u2013\u2014")
FOLD_TO = ("AAAAAAAAaaaaaaaaCCCCCcccccDDddEEEEEEEEEeeeeeeeeGGGGggggHHhhIIIIIIIIIiiiiiiiii"
           "JjKkLLLLLlllllNNNNnnnnOOOOOOOOooooooooRRRrrrSSSSssssTTTtttSsTtUUUUUUUUUuuuuuuuuu"
           "WwYYYyyyZZZzzzDdß ''--")


def fold(name):
    """`name` with each letter of FOLD_FROM as its FOLD_TO (what tafel.names.folded() gives)."""
    out = []
    for ch in name:
        i = -1 if (" " <= ch <= "~") else FOLD_FROM.find(ch)
        out.append(FOLD_TO[i] if i >= 0 else ch)
    return "".join(out)
