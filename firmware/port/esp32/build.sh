#!/usr/bin/env bash
# Builds the Tafel firmware image for an ESP32-WROOM-32: MicroPython v1.28.0 with the application frozen in.
#
#   firmware/port/esp32/build.sh            -> build/esp32/tafel-<version>-esp32-wroom.bin
#
# The board definition is firmware/port/boards/TAFEL_ESP32 (its manifest.py freezes
# MicroPython's own ESP32 modules and firmware/port/manifest.py, the same manifest the
# 32-bit unix build measures the heap with). ESP-IDF v5.5.1 (the version MicroPython
# v1.28.0 recommends) runs in Espressif's container image, so nothing of it is installed
# here: docker (or podman: DOCKER=podman) is all this needs, and internet access once
# for the image and MicroPython's submodules.
#
# MicroPython's source: MICROPYTHON_SRC, a git checkout of tag v1.28.0 (its submodules
# are fetched by `make submodules`); without it, the tag is cloned into
# build/micropython-1.28.0-git/. (The trimmed tarball in ../shared/vendor has no
# ESP-IDF components and builds only the unix port.)
#
# Then: tafel flash --firmware build/esp32/tafel-<version>-esp32-wroom.bin (docs/flashing.md).
set -euo pipefail
# shellcheck source=env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"  # REPO, VERSION, IDF_IMAGE, DOCKER, SRC, BOARD_DIR, BUILD, PYTHON

command -v "$DOCKER" >/dev/null || { echo "build.sh: $DOCKER is missing (or set DOCKER=podman)" >&2; exit 2; }
if [ ! -d "$SRC/.git" ]; then
    echo "build.sh: cloning MicroPython v$VERSION into $SRC" >&2
    git clone --depth 1 --branch "v$VERSION" https://github.com/micropython/micropython "$SRC"
fi
# What the image holds (compiled by the same mpy-cross as bundles): frozen beside the app.
(cd "$REPO" && "$PYTHON" -m tafel_host.update.appimage build/appimage/appimage.py)
APP_VERSION=$(sed -n 's/^VERSION = "\(.*\)"/\1/p' "$REPO/lib/tafel/version.py")

# The repository and the source are mounted at the same paths inside, so the manifest's
# relative paths (../../lib, ../../build/appimage) resolve as they do here.
"$DOCKER" run --rm -u "$(id -u):$(id -g)" -e HOME=/tmp \
    -v "$REPO:$REPO" -v "$SRC:$SRC" -w "$SRC" "$IDF_IMAGE" bash -c "
        set -e
        make -C mpy-cross
        make -C ports/esp32 BOARD_DIR=$BOARD_DIR submodules
        make -C ports/esp32 BOARD_DIR=$BOARD_DIR"
mkdir -p "$REPO/build/esp32"
OUT="$REPO/build/esp32/tafel-$APP_VERSION-esp32-wroom.bin"
cp "$BUILD/firmware.bin" "$OUT"
ls -l "$BUILD/micropython.bin" "$OUT" >&2
"$REPO/firmware/port/esp32/ci.sh" fits >&2  # at least 10 % of the app partition free, or it says so and fails
echo "$OUT"
