# The ESP32 image's build settings, one place for build.sh and ci.sh (sourced, not run).
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
VERSION=1.28.0
IDF_IMAGE=${IDF_IMAGE:-espressif/idf:v5.5.1}
DOCKER=${DOCKER:-docker}
SRC=${MICROPYTHON_SRC:-$REPO/build/micropython-$VERSION-git}
BOARD_DIR=$REPO/firmware/port/boards/TAFEL_ESP32
BUILD=$SRC/ports/esp32/build-TAFEL_ESP32  # where MicroPython's esp32 Makefile builds this board
PYTHON=${PYTHON:-$REPO/.venv/bin/python}
