# Short forms of the seats' names that players can read and tell apart in a narrow column.
#
# A name that fits is itself. A team seat ("Anna & Ben") keeps a start of each
# member, joined by "&" without the spaces ("Anna&Ben", "An&Be", "A&B"). Any
# other longer name is cut to its first letters. Where two seats would then look
# the same, or differ only in the last column ("Christina", "Christian" -> "Christ"
# in 6 columns, "Christin", "Christia" in 8), each keeps as many first letters as
# it can, a dot and the letters that tell it apart from the end: "Christ.a",
# "Christ.n" (8 columns), "Chri.a", "Chri.n" (6), "C.a", "C.n" (3). A team whose
# form would look like another's gets more letters of its later members, then
# the same dot form. The whole list is looked at once, so every seat gets a
# form no other seat has on the same screen. Nothing here runs per key: a
# screen makes its forms once.


def short_names(names, width):
    """One short form per name, each at most `width` characters, all different when possible."""
    n = len(names)
    turn = [0] * n  # which of its forms a seat shows: 0 the first choice, then the next ...
    out = [_form(names[i], width, 0) for i in range(n)]
    if width < 3:
        return out
    for _ in range(2 * width + 4):  # each round moves every seat of a look-alike group on one form
        moved = False
        cut = [turn[i] == 0 and len(names[i]) > width and _members(names[i]) is None for i in range(n)]
        clash = [len(names[i]) > width and _taken(out, i, width, cut) for i in range(n)]
        for i in range(n):
            if clash[i]:
                form = _form(names[i], width, turn[i] + 1)
                if form is not None:
                    turn[i] += 1
                    out[i] = form
                    moved = True
        if not moved:
            break
    return out


def _taken(forms, i, width, cut):
    # Another seat shows the same form, or both are cut names that differ only in the last
    # column ("Christin", "Christia": the eye reads the start, and both look like whole names).
    f = forms[i]
    for j in range(len(forms)):
        g = forms[j]
        if j != i and (g == f or cut[i] and cut[j] and len(f) == len(g) == width and f[:width - 1] == g[:width - 1]):
            return True
    return False


def _form(name, width, k):
    """The k-th form of `name` in `width` columns (0: the first choice), None after the last."""
    if len(name) <= width:
        return name if k == 0 else None
    if width < 3:
        return name[:width] if k == 0 else None
    parts = _members(name)
    if parts is not None:
        if len(parts) - 1 + len(parts) <= width:  # one letter of each and the "&"s fit
            from ui.team_names import team, team_forms  # only a table with a team seat needs them

            form = team(parts, width, k)
            if form is not None:
                return form
            k -= team_forms(parts, width) - 1  # then the dot forms of the whole team
        name = "&".join(parts)
    if k == 0:
        return name[:width].rstrip()
    # k = 1, 2 ...: the start, a dot, the last k letters (1 .. width - 2 of them)
    if k > width - 2:
        return None
    return name[:width - 1 - k] + "." + name[len(name) - k:]


def _members(name):
    # The members of a team seat ("Anna & Ben" -> ["Anna", "Ben"]), or None for a plain name.
    if name.find("&") < 0:
        return None
    parts = [p.strip() for p in name.split("&")]
    for p in parts:
        if not p:
            return None
    return parts


def window(name, width, step):
    """`width` characters of a long name running past, `step` letters on (the marquee on screen)."""
    if len(name) <= width:
        return name
    loop = name + "   "
    start = step % len(loop)
    return (loop[start:] + name)[:width]
