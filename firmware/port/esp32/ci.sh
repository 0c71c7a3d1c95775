#!/usr/bin/env bash
# The firmware pipeline's steps (.github/workflows/firmware.yml runs them; each also runs by hand).
#
#   firmware/port/esp32/ci.sh build   the image: build.sh, in ESP-IDF's container (docker)
#   firmware/port/esp32/ci.sh size    ESP-IDF's size report, then fits
#   firmware/port/esp32/ci.sh fits    the built image against its partition: at least 10 % free
#   firmware/port/esp32/ci.sh qemu    the image booted in Espressif's QEMU; smoke.py over its UART
#
# NEVER RUN: no machine of ours reaches docker images, Espressif's QEMU or GitHub's runners
# (README, "The firmware image"). Every step was written against MicroPython v1.28.0's
# ports/esp32 (Makefile targets `size`, makeimg.py's layout) and ESP-IDF v5.5.1's tools
# (idf_tools.py installs qemu-xtensa; `qemu-system-xtensa -machine esp32` boots a 4 MB
# flash image); what was checked here is the YAML (tests/host/test_esp32_ci.py), this
# script's shell syntax, and smoke.py on the 32-bit unix build with the app frozen.
set -euo pipefail
# shellcheck source=env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"  # REPO, VERSION, IDF_IMAGE, DOCKER, SRC, BOARD_DIR, BUILD, PYTHON
PORT=${QEMU_PORT:-5555}
MIN_FREE_PERCENT=10  # the app partition must keep this much free (issue 24)

in_idf() {  # a command in ESP-IDF's container, the repository and the source at their own paths
    "$DOCKER" run --rm -u "$(id -u):$(id -g)" -e HOME=/tmp -v "$REPO:$REPO" -v "$SRC:$SRC" -w "$SRC" \
        "$IDF_IMAGE" bash -c "$1"
}

factory_size() {  # the factory partition's size in bytes, from the board's partition table
    local size
    size=$(awk -F, '$1 ~ /^factory/ {gsub(/ /, "", $5); print $5}' "$BOARD_DIR/partitions-tafel.csv")
    echo $((size))
}

case "${1:-}" in
build)
    "$REPO/firmware/port/esp32/build.sh"
    ;;
size)
    in_idf "make -C ports/esp32 BOARD_DIR=$BOARD_DIR size"
    "$0" fits
    ;;
fits)  # build.sh runs this too
    app=$(stat -c %s "$BUILD/micropython.bin")
    part=$(factory_size)
    free=$(( (part - app) * 100 / part ))
    echo "application $app bytes in a $part-byte factory partition: $free % free (at least $MIN_FREE_PERCENT % wanted)"
    if [ "$free" -lt "$MIN_FREE_PERCENT" ]; then
        echo "The image does not fit: it leaves less than $MIN_FREE_PERCENT % of its factory partition free" \
             "(firmware/port/boards/TAFEL_ESP32/partitions-tafel.csv). Make the partition larger, or the image" \
             "smaller (firmware/port/boards/TAFEL_ESP32/sdkconfig.board)." >&2
        exit 1
    fi
    ;;
qemu)
    # A 4 MB flash image: firmware.bin (bootloader, table, application) at 0x1000, 0xFF elsewhere.
    FLASH=$REPO/build/esp32/qemu-flash.bin
    mkdir -p "$REPO/build/esp32"
    "$PYTHON" - "$BUILD/firmware.bin" "$FLASH" <<'EOF'
import sys
image = open(sys.argv[1], "rb").read()
flash = bytearray(b"\xff" * (4 << 20))
flash[0x1000:0x1000 + len(image)] = image
open(sys.argv[2], "wb").write(flash)
EOF
    name=tafel-qemu-$$
    "$DOCKER" run -d --rm --name "$name" -p "$PORT:$PORT" -v "$REPO:$REPO" "$IDF_IMAGE" bash -c "
        python \$IDF_PATH/tools/idf_tools.py install qemu-xtensa >/dev/null && . \$IDF_PATH/export.sh >/dev/null &&
        qemu-system-xtensa -nographic -machine esp32 \
            -drive file=$FLASH,if=mtd,format=raw -serial tcp::$PORT,server,nowait"
    trap '"$DOCKER" rm -f "$name" >/dev/null 2>&1 || true' EXIT
    for _ in $(seq 120); do  # QEMU's install and the first boot (it makes the file system)
        "$PYTHON" -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 1)" \
            2>/dev/null && break
        sleep 2
    done
    sleep 20
    "$REPO/.venv/bin/mpremote" connect "socket://127.0.0.1:$PORT" run "$REPO/firmware/port/esp32/smoke.py" \
        | tee "$REPO/build/esp32/smoke.log"
    grep -q "^SMOKE ok" "$REPO/build/esp32/smoke.log"
    ;;
*)
    echo "usage: firmware/port/esp32/ci.sh build|size|fits|qemu" >&2
    exit 2
    ;;
esac
