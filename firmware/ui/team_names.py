# A team seat's short forms ("Anna & Ben" -> "An&Be"): each member keeps a start, joined by "&".
# Imported by ui/names.py only when a seat is a team, so a table without one never holds it.


def team_forms(parts, width):
    # How many team forms there are: the first, then one more letter to the last member at a time.
    return 1 + _team_extra(parts, width)


def _team_extra(parts, width):
    # How many letters the last member can take from the others (each keeps one).
    last = len(parts) - 1
    base = _shares(parts, width, 0)
    return max(0, min(len(parts[last]) - base[last], sum(base) - base[last] - last))


def team(parts, width, k):
    # The k-th team form: the letters shared out, k of them moved to the last member; None after the last.
    if k > _team_extra(parts, width):
        return None
    share = _shares(parts, width, k)
    return "&".join(parts[i][:share[i]] for i in range(len(parts)))


def _shares(parts, width, extra):
    # Letters for each member: shared round from the front (never more than a member has);
    # with `extra`, the last member has that many more and the others share what is left.
    n = len(parts)
    share = _share_out(parts, width - (n - 1), n)
    if extra:
        last = share[n - 1] + extra
        share = _share_out(parts, width - (n - 1) - last, n - 1)
        share.append(last)
    return share


def _share_out(parts, room, n):
    # `room` letters for the first n members, one each round from the front.
    share = [1] * n
    room -= n
    given = True
    while room > 0 and given:
        given = False
        for i in range(n):
            if room > 0 and share[i] < len(parts[i]):
                share[i] += 1
                room -= 1
                given = True
    return share
