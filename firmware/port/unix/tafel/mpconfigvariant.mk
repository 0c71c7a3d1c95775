# The Tafel measuring build of the unix port (see mpconfigvariant.h); build.sh picks the manifest.
MICROPY_PY_BTREE = 0
MICROPY_PY_FFI = 0
MICROPY_PY_SSL = 0
FROZEN_MANIFEST ?= $(VARIANT_DIR)/../manifest_mpy.py
SRC_C += $(VARIANT_DIR)/heapgrow.c
# py/gc.c's heap growth adds to a void pointer (a GNU C extension the ESP32's compiler takes).
CFLAGS_EXTRA += -Wno-pointer-arith
