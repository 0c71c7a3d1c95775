# The Tafel measuring build of the unix port (see mpconfigvariant.h); build.sh picks the manifest.
MICROPY_PY_BTREE = 0
MICROPY_PY_FFI = 0
MICROPY_PY_SSL = 0
FROZEN_MANIFEST ?= $(VARIANT_DIR)/../manifest_mpy.py
# The ESP-IDF heap model (idfheap.c), the module tafelchip (tafelchip.c) and the simulator's chip
# side, the module simchip (simchip.c, simflash.c, simnet.c), the chip's clock and randomness (simtime.c).
# ports/unix/Makefile also takes every .c of the variant's folder into SRC_C (a wildcard); SRC_QSTR is SRC_C, so
# MP_REGISTER_MODULE and the qstrs are found either way (a name twice is harmless: make lists
# a prerequisite once).
SRC_C += $(VARIANT_DIR)/idfheap.c $(VARIANT_DIR)/tafelchip.c $(VARIANT_DIR)/simchip.c $(VARIANT_DIR)/simflash.c \
	$(VARIANT_DIR)/simnet.c $(VARIANT_DIR)/simtime.c
# os.urandom and the random module's seed through simtime.c (fixed by TAFEL_CHIP_SEED).
LDFLAGS_EXTRA += -Wl,--wrap=mp_hal_get_random
# `import socket` once a Wi-Fi station was made: simnet.c's counted sockets (sim/simnet.py's sys.modules entry).
LDFLAGS_EXTRA += -Wl,--wrap=mp_module_get_builtin
# py/gc.c's heap growth adds to a void pointer (a GNU C extension the ESP32's compiler takes).
CFLAGS_EXTRA += -Wno-pointer-arith
