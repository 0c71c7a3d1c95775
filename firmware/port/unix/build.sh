#!/usr/bin/env bash
# Builds (once, then incrementally) the 32-bit MicroPython unix ports that measure the device here.
#
#   firmware/port/unix/build.sh mpy|frozen     prints the path of the micropython binary
#
#   mpy     the application is not frozen: imported as .mpy files (stock MicroPython on a board)
#   frozen  the application frozen in by firmware/port/manifest.py, as in the ESP32 image
#
# Both: 32-bit (the ESP32's object sizes), the heap in two areas like the ESP32's
# (tafel/mpconfigvariant.h), asyncio and the simulator's machine (firmware/sim) frozen.
# Unstripped, so valgrind's callgrind can name functions.
#
# The source, the first of: MICROPYTHON_SRC (a tarball or a folder of MicroPython v1.28.0);
# ../shared/vendor/micropython-1.28.0.tar.gz beside the repository; a shallow clone of the
# tag v1.28.0 from GitHub with the submodules the unix port needs, where the network allows.
# It is unpacked into build/micropython-<version>/ (it says which it took); each build goes
# to build/unix32-<kind>-<version>/.
# Needs a C compiler that builds 32-bit code (Debian/Ubuntu: apt-get install gcc-multilib).
set -euo pipefail
KIND=${1:-}
case "$KIND" in mpy|frozen) ;; *) echo "usage: $0 mpy|frozen" >&2; exit 2 ;; esac

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
VERSION=1.28.0
VENDORED=$REPO/../shared/vendor/micropython-$VERSION.tar.gz
SRC_IN=${MICROPYTHON_SRC:-$VENDORED}
UPSTREAM=https://github.com/micropython/micropython.git
TREE=$REPO/build/micropython-$VERSION
OUT=$REPO/build/unix32-$KIND-$VERSION
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

say() { echo "build.sh: $*" >&2; }

if [ ! -f "$TREE/py/mpconfig.h" ]; then
    if [ -d "$SRC_IN" ]; then
        say "MicroPython source: the folder $SRC_IN"
        [ -f "$SRC_IN/py/mpconfig.h" ] || { say "$SRC_IN is no MicroPython source folder"; exit 2; }
        mkdir -p "$TREE" && cp -a "$SRC_IN/." "$TREE/"
    elif [ -f "$SRC_IN" ]; then
        say "MicroPython source: the tarball $SRC_IN"
        mkdir -p "$REPO/build" && rm -rf "$TREE.part" && mkdir "$TREE.part"
        tar xzf "$SRC_IN" -C "$TREE.part" --strip-components=1
        mv "$TREE.part" "$TREE"
    elif [ -z "${MICROPYTHON_SRC:-}" ] && command -v git >/dev/null; then
        say "MicroPython source: no MICROPYTHON_SRC and no $VENDORED; cloning tag v$VERSION of $UPSTREAM"
        mkdir -p "$REPO/build" && rm -rf "$TREE.part"
        if git clone --quiet --depth 1 --branch "v$VERSION" "$UPSTREAM" "$TREE.part" \
                && make -C "$TREE.part/ports/unix" submodules >/dev/null; then
            mv "$TREE.part" "$TREE"
        else
            rm -rf "$TREE.part"
            say "the clone failed (no network?). Set MICROPYTHON_SRC to a tarball or folder of MicroPython v$VERSION."
            exit 2
        fi
    else
        say "no MicroPython source: $SRC_IN is missing."
        say "Set MICROPYTHON_SRC to a tarball or folder of MicroPython v$VERSION, e.g. a clone of"
        say "$UPSTREAM at tag v$VERSION."
        exit 2
    fi
fi
grep -q "MICROPY_VERSION_MINOR $(echo $VERSION | cut -d. -f2)\$" "$TREE/py/mpconfig.h" \
    || { say "$TREE is not MicroPython v$VERSION"; exit 2; }

if ! echo 'int main(void){return 0;}' | ${CC:-gcc} -m32 -x c -o /dev/null - 2>/dev/null; then
    say "the C compiler cannot build 32-bit programs (Debian/Ubuntu: apt-get install gcc-multilib)"
    exit 2
fi

if [ "$KIND" = frozen ]; then  # what the image holds: firmware/port/manifest.py freezes it beside the app
    (cd "$REPO" && "${PYTHON:-$REPO/.venv/bin/python}" -m tafel_host.update.appimage build/appimage/appimage.py)
fi
# The compiler's chatter goes to a log; on a failure its end is shown.
LOG=$REPO/build/unix32-$KIND-$VERSION.log
[ -x "$OUT/micropython" ] || say "building the 32-bit MicroPython v$VERSION ($KIND) into ${OUT#$REPO/} (about a minute)"
build() {
    { make -C "$TREE/mpy-cross" -j"$JOBS" && make -C "$TREE/ports/unix" -j"$JOBS" \
        VARIANT_DIR="$REPO/firmware/port/unix/tafel" BUILD="$OUT" \
        FROZEN_MANIFEST="$REPO/firmware/port/unix/manifest_$KIND.py" \
        MICROPY_FORCE_32BIT=1 STRIP=; } >"$LOG" 2>&1
}
# The frozen code's own qstrs are those the firmware has beyond the interpreter's; MicroPython's
# makefile does not freeze again when the interpreter's set grows (a new C module, say), and the
# stale frozen_content.c then declares a qstr twice: it is made anew once.
if ! build && ! { grep -q "redeclaration of enumerator .MP_QSTR_" "$LOG" \
        && rm -f "$OUT/frozen_content.c" && build; }; then
    tail -n 30 "$LOG" >&2
    say "the build failed; the whole log: $LOG"
    exit 1
fi
echo "$OUT/micropython"
