# Short forms of the seats' names that stay different from each other in a narrow column.
#
# A name that fits is itself. A longer one is cut; if two cut names would look
# the same ("Christina", "Christian" -> "Christ"), each keeps its start and gets
# the letters that tell it apart from the others at its end ("Chri.na",
# "Chri.an"). The whole list is looked at once, so every seat gets a form no
# other seat has on the same screen.


def short_names(names, width):
    """One short form per name, each at most `width` characters, all different when possible."""
    n = len(names)
    out = [None] * n
    for i in range(n):
        out[i] = names[i] if len(names[i]) <= width else names[i][:width].rstrip()
    if width < 3:
        return out
    # every name of a look-alike group changes, so none keeps a cut form that hides the others
    clash = [_taken(out, i) and len(names[i]) > width for i in range(n)]
    for i in range(n):
        if clash[i]:
            out[i] = _distinct(names, i, width)
    return out


def _taken(forms, i):
    for j in range(len(forms)):
        if j != i and forms[j] == forms[i]:
            return True
    return False


def _distinct(names, i, width):
    # The longest tail that, after a shortened head and a dot, no other name's form shares.
    name = names[i]
    for tail in range(2, width - 1):
        form = name[:width - 1 - tail] + "." + name[len(name) - tail:]
        clash = False
        for j in range(len(names)):
            if j != i and (names[j] == form or (names[j][:width - 1 - tail] == form[:width - 1 - tail]
                                                 and names[j][len(names[j]) - tail:] == name[len(name) - tail:])):
                clash = True
        if not clash:
            return form
    return name[:width - 3] + "." + name[-2:]


def window(name, width, step):
    """`width` characters of a long name running past, `step` letters on (the marquee on screen)."""
    if len(name) <= width:
        return name
    loop = name + "   "
    start = step % len(loop)
    return (loop[start:] + name)[:width]
