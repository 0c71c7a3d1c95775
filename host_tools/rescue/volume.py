# The folders and files of a raw LittleFS image as far as they can be read, every version of each.
#
# Every block is tried as a metadata block (lfs.py); the folders are linked
# by their directory entries starting at the root pair {0, 1}. Folders no
# readable parent names (the root is gone, or a parent's metadata is) are
# orphans: they are named by what they hold ("?data@37,38" holds an index
# and a live/ folder) and their own subfolders hang below them. Files come
# from every state of every metadata block: the current state of a folder
# (rank 0) and every older commit or older block of its pair (rank 1), so a
# file the newest commit lost is still found; each distinct version is read
# once. Where each file's bytes lie is kept, so the raw frame scan can leave
# out bytes a file already accounts for.
from ..lang import Phrase
from . import lfs
from .frames import game_file

CURRENT, OLDER = 0, 1
_ROOT = (0, 1)


class FileCopy:
    """One version of one file: path, rank, pieces [(offset, bytes)], where
    [(block, offset, length)] its bytes lie, problem (None or a text), and
    sure: False when its name is uncertain (it comes after lost commits)."""

    __slots__ = ("path", "name", "rank", "pieces", "where", "problem", "sure")

    def __init__(self, path, name, rank, pieces, where, problem):
        self.path, self.name, self.rank = path, name, rank
        self.pieces, self.where, self.problem, self.sure = pieces, where, problem, True


class Volume:
    def __init__(self, image, block_size=lfs.BLOCK_SIZE, progress=None):
        self.image = image
        self.block_size = block_size
        self.count = len(image) // block_size
        self.meta = {}  # block -> (revision, commits, states)
        self.erased = set()
        erased = b"\xff" * block_size
        for b in range(self.count):
            buf = self.block(b)
            if buf == erased:
                self.erased.add(b)
            else:
                got = lfs.parse_block(buf)
                if got is not None:
                    self.meta[b] = (got[0], got[1], lfs.states(got[1]))
            if progress is not None and b % 32 == 31:
                progress((b + 1) * block_size, len(image))
        self.partner = {}  # block -> the other block of its pair, where some reference says
        self.paths = {}  # metadata block -> its folder's path, ending in "/"
        self.orphans = []  # paths given to folders no readable parent names
        self._named_blocks()
        self._link()
        self.superblock = self._superblock()
        self.files = self._files()

    def block(self, n):
        start = n * self.block_size
        return self.image[start:start + self.block_size]

    def unusable(self, n):
        """Why block n cannot hold file data, or None if it can."""
        if not 0 <= n < self.count:
            return Phrase("rs_outside")
        if n in self.erased:
            return Phrase("rs_erased")
        if n in self.meta:
            return Phrase("rs_meta_now")
        return None

    def current(self, b):
        """Whether block b is the newer block of its pair (or has no known partner)."""
        other = self.partner.get(b)
        if other is None or other not in self.meta:
            return True
        return not lfs.newer(self.meta[other][0], self.meta[b][0])

    # ---- folders ---------------------------------------------------------------------

    def _refs(self, b):
        """(subfolders [(name, pair)], tails [(pair, hard)]) over every state of block b,
        the current state's first, each once."""
        subs, tails = {}, {}
        for state in reversed(self.meta[b][2]):
            for e in state.entries:
                if e is None or lfs.NAME not in e or lfs.STRUCT not in e or lfs.UNSURE in e:
                    continue
                name, struct_ = e[lfs.NAME], e[lfs.STRUCT]
                if name[0] == lfs.DIR and struct_[0] == lfs.DIRSTRUCT and len(struct_[1]) == 8:
                    subs.setdefault((_text(name[1]), _pair(struct_[1])), None)
            if state.tail is not None:
                tails.setdefault((state.tail, state.hard), None)
        return list(subs), list(tails)

    def _named_blocks(self):
        # A block that metadata names as a folder's but whose first commit is
        # damaged: its later commits are looked for too (for any block that
        # would cost seconds, and a data block has no commits to find).
        todo = set()
        for b in self.meta:
            subs, tails = self._refs(b)
            for pair in [p for _, p in subs] + [p for p, _ in tails]:
                todo.update(x for x in pair if 0 <= x < self.count)
        for b in sorted(todo - set(self.meta) - self.erased):
            got = lfs.parse_block(self.block(b), known=True)
            if got is not None:
                self.meta[b] = (got[0], got[1], lfs.states(got[1]))

    def log_damage(self):
        """{block: ([(start, end)] lost, commits recovered after the loss)} of
        every metadata block whose log is not whole."""
        out = {}
        for b in sorted(self.meta):
            commits = self.meta[b][1]
            gaps = lfs.lost(self.block(b), commits)
            if gaps:
                out[b] = (gaps, sum(1 for c in commits if c.resynced))
        return out

    def _link(self):
        refs = {b: self._refs(b) for b in self.meta}
        child = set()
        for subs, tails in refs.values():
            for _, pair in subs:
                self._pair_up(pair)
                child.update(pair)
            for pair, hard in tails:
                self._pair_up(pair)
                if hard:
                    child.update(pair)
        self._pair_up(_ROOT)
        if 0 in self.meta or 1 in self.meta:
            self._walk(_ROOT, "/", refs)
        # What no readable folder names: orphans, named by their content.
        while True:
            left = [b for b in sorted(self.meta) if b not in self.paths]
            if not left:
                break
            roots = [b for b in left if b not in child] or left[:1]
            b = roots[0]
            if b not in self.partner:
                self._pair_by_content(b, roots, refs)
            pair = self._pair_of(b)
            newest = max((x for x in pair if x in self.meta), key=lambda x: (self.current(x), x))
            guess = guess_name(self.meta[newest][2][-1])
            path = "/?%s@%s/" % (guess, ",".join(str(x) for x in pair))
            self.orphans.append(path)
            self._walk(pair, path, refs)

    def _pair_by_content(self, b, roots, refs):
        # Two orphan blocks naming the same subfolders are the two blocks of one pair.
        mine = set(pair for _, pair in refs[b][0])
        for other in roots:
            if other != b and other not in self.partner and mine & set(pair for _, pair in refs[other][0]):
                self._pair_up((b, other))
                return

    def _pair_up(self, pair):
        a, b = pair
        if a != b and 0 <= a < self.count and 0 <= b < self.count:
            self.partner.setdefault(a, b)
            self.partner.setdefault(b, a)

    def _pair_of(self, b):
        other = self.partner.get(b)
        return (b,) if other is None else tuple(sorted((b, other)))

    def _walk(self, pair, path, refs):
        todo = [(pair, path)]
        while todo:
            pair, path = todo.pop(0)
            blocks = [x for x in pair if x in self.meta and x not in self.paths]
            if not blocks:
                continue
            for x in blocks:
                self.paths[x] = path
            blocks.sort(key=lambda x: not self.current(x))  # the newer block's names first
            for x in blocks:
                subs, tails = refs[x]
                for name, sub in subs:
                    todo.append((sub, path + name + "/"))
                for tail, hard in tails:
                    if hard:  # the same folder continues in another pair
                        todo.append((tail, path))

    def _superblock(self):
        """(version, block size, block count) from the root pair's superblock entry, or None."""
        for b in _ROOT:
            if b not in self.meta or not self.current(b):
                continue
            for e in self.meta[b][2][-1].entries:
                if e and e.get(lfs.NAME, (None,))[0] == lfs.SUPERBLOCK and lfs.STRUCT in e:
                    data = e[lfs.STRUCT][1]
                    if len(data) >= 12:
                        return _le32(data, 0), _le32(data, 4), _le32(data, 8)
        return None

    # ---- files -----------------------------------------------------------------------

    def _files(self):
        seen = {}  # (path, struct type, struct bytes) -> FileCopy
        for b in sorted(self.meta):
            path = self.paths.get(b, "/?@%d/" % b)
            states = self.meta[b][2]
            newest = self.current(b)
            for k, state in enumerate(states):
                rank = CURRENT if newest and k == len(states) - 1 else OLDER
                for e in state.entries:
                    if e is None or e.get(lfs.NAME, (None,))[0] != lfs.REG or lfs.STRUCT not in e:
                        continue
                    name = _text(e[lfs.NAME][1])
                    kind, data, off = e[lfs.STRUCT]
                    key = (path + name, kind, data)
                    sure = lfs.UNSURE not in e
                    if key in seen:
                        seen[key].rank = min(seen[key].rank, rank)
                        seen[key].sure = seen[key].sure or sure
                        continue
                    copy = self._read(path + name, name, rank, b, kind, data, off)
                    if copy is not None:
                        copy.sure = sure
                        seen[key] = copy
        return sorted(seen.values(), key=lambda c: (c.path, c.rank))

    def _read(self, path, name, rank, b, kind, data, off):
        if kind == lfs.INLINESTRUCT:
            return FileCopy(path, name, rank, [(0, data)] if data else [], [(b, off, len(data))], None)
        if kind == lfs.CTZSTRUCT and len(data) == 8:
            head, size = _le32(data, 0), _le32(data, 4)
            if size > self.count * self.block_size:
                return FileCopy(path, name, rank, [], [], Phrase("rs_size_impossible", size))
            pieces, where, problem = lfs.read_ctz(self.block, head, size, self.unusable, self.block_size)
            return FileCopy(path, name, rank, pieces, where, problem)
        return None

    def game_files(self):
        """(game id, FileCopy) of every file whose name is a game's, in any folder."""
        out = []
        for copy in self.files:
            got = game_file(copy.name) if copy.sure else None
            if got is not None:
                out.append((got, copy))
        return out

    def uncertain(self):
        """The file versions whose names are uncertain (after lost commits)."""
        return [copy for copy in self.files if not copy.sure]

    def covered(self):
        """{block: [(start, end)]}: bytes some file (any file) accounts for."""
        out = {}
        for copy in self.files:
            for b, start, length in copy.where:
                out.setdefault(b, []).append((start, start + length))
        return out

    def folders(self):
        """{path: newest state's entry names} of every folder found, for the report."""
        out = {}
        for b in sorted(self.meta, key=lambda x: not self.current(x)):
            path = self.paths.get(b)
            if path is None or path in out:
                continue
            names = []
            for e in self.meta[b][2][-1].entries:
                if e and lfs.NAME in e and e[lfs.NAME][0] in (lfs.REG, lfs.DIR):
                    names.append(_text(e[lfs.NAME][1]) + ("/" if e[lfs.NAME][0] == lfs.DIR else ""))
            out[path] = sorted(names)
        return out


def guess_name(state):
    """A name for a folder found without its parent, from the names it holds."""
    files, dirs = set(), set()
    for e in state.entries:
        if e is None or lfs.NAME not in e:
            continue
        kind, raw = e[lfs.NAME][0], e[lfs.NAME][1]
        if kind == lfs.SUPERBLOCK:
            return "root"
        (dirs if kind == lfs.DIR else files).add(_text(raw))
    if dirs & {"data", "twin", "app"}:
        return "root"
    if dirs & {"live", "games"}:
        if files & {"index", "settings", "roster"}:
            return "data"
        return "twin" if files & {"next", "layout"} else "data-or-twin"
    kinds = set()
    for name in files:
        got = game_file(name)
        if got is not None:
            kinds.add("keep" if "-" in name else "games" if ".tj" in name else "live")
    if len(kinds) == 1:
        return kinds.pop()
    return "folder"


def _text(raw):
    return bytes(raw).decode("utf-8", "replace")


def _le32(data, at):
    return int.from_bytes(data[at:at + 4], "little")


def _pair(data):
    return _le32(data, 0), _le32(data, 4)
