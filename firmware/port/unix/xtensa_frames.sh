#!/usr/bin/env bash
# The C stack frames of MicroPython's call path on the ESP32 (Xtensa, windowed ABI) and here
# (i386): the figures behind tafelchip.ESP32_STACK_LIMIT (firmware/port/README.md, "The C stack").
#
#   firmware/port/unix/xtensa_frames.sh     prints "function xtensa-bytes i386-bytes" a line
#
# Compiles MicroPython's py/ (build/micropython-1.28.0, unpacked by build.sh) with GCC's
# -fstack-usage twice: for the Xtensa windowed ABI at ESP-IDF's -O2 with the esp32 port's
# mpconfigport.h (ESP-IDF's own headers stubbed: only types and macros the VM never calls),
# and with the device build's own i386 flags (vm.c at -O3, the rest -Os). Nothing is linked.
# Needs Debian's gcc-xtensa-lx106 and picolibc-xtensa-lx106-elf (GCC 12 for the ESP8266's
# core; -mabi=windowed gives the ESP32's calling convention) and a device build (its qstrs).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
TREE=$REPO/build/micropython-1.28.0
BUILD=$REPO/build/unix32-frozen-1.28.0
command -v xtensa-lx106-elf-gcc >/dev/null || {
    echo "xtensa_frames.sh: needs xtensa-lx106-elf-gcc (apt-get install gcc-xtensa-lx106 picolibc-xtensa-lx106-elf)" >&2
    exit 2
}
[ -f "$BUILD/genhdr/qstrdefs.generated.h" ] || { echo "xtensa_frames.sh: make device-build first" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
INC=$WORK/inc
mkdir -p "$INC/freertos" "$INC/driver" "$INC/soc" "$INC/genhdr" "$WORK/xt" "$WORK/x86"
cp "$TREE/ports/esp32/mpconfigport.h" "$TREE/ports/esp32/boards/ESP32_GENERIC/mpconfigboard.h" "$INC/"
cat >"$INC/sdkconfig.h" <<'EOF'
#define CONFIG_IDF_TARGET_ESP32 1
#define CONFIG_IDF_TARGET_ARCH_XTENSA 1
#define CONFIG_IDF_TARGET "esp32"
#define CONFIG_FREERTOS_HZ 100
EOF
echo '#include <stdint.h>
uint32_t esp_random(void);' >"$INC/esp_random.h"
echo '#include "sdkconfig.h"' >"$INC/esp_system.h"
cat >"$INC/freertos/FreeRTOS.h" <<'EOF'
#pragma once
#include <stdint.h>
typedef uint32_t TickType_t; typedef int BaseType_t; typedef unsigned UBaseType_t;
typedef void *SemaphoreHandle_t; typedef struct { uint8_t d[80]; } StaticSemaphore_t;
typedef void *TaskHandle_t; typedef struct { uint32_t owner, count; } portMUX_TYPE;
#define portTICK_PERIOD_MS 10
#define IRAM_ATTR
EOF
for h in task semphr queue; do echo '#include "freertos/FreeRTOS.h"' >"$INC/freertos/$h.h"; done
echo 'typedef int esp_err_t; typedef int spi_host_device_t;' >"$INC/driver/spi_master.h"
cat >"$INC/driver/gpio.h" <<'EOF'
typedef int gpio_num_t;
enum { GPIO_MODE_INPUT = 1, GPIO_MODE_OUTPUT = 2, GPIO_MODE_INPUT_OUTPUT = 3, GPIO_MODE_INPUT_OUTPUT_OD = 7 };
int gpio_set_direction(int, int); int gpio_set_level(int, int); int gpio_get_level(int); int gpio_set_pull_mode(int, int);
#define GPIO_PULLUP_ONLY 0
#define GPIO_PULLDOWN_ONLY 1
#define GPIO_FLOATING 3
EOF
: >"$INC/esp_cache.h"
echo '#define GPIO_OUT_REG 0x3ff44004' >"$INC/soc/gpio_reg.h"
cp "$BUILD/genhdr/qstrdefs.generated.h" "$BUILD/genhdr/mpversion.h" "$BUILD/genhdr/moduledefs.h" "$INC/genhdr/"
# the esp32 port's own qstrs beyond the device build's
for q in __imul__ __imatmul__ __ifloordiv__ __itruediv__ __imod__ __ipow__ __ior__ __ixor__ \
        __iand__ __ilshift__ __irshift__ __isub__ __iadd__ alloc_emergency_exception_buf; do
    grep -q "(MP_QSTR_$q," "$INC/genhdr/qstrdefs.generated.h" \
        || echo "QDEF1(MP_QSTR_$q, 0, ${#q}, \"$q\")" >>"$INC/genhdr/qstrdefs.generated.h"
done
cat >"$INC/genhdr/root_pointers.h" <<'EOF'
mp_obj_base_t * cur_exception;
mp_obj_list_t mp_sys_argv_obj;
mp_obj_t persistent_code_root_pointers;
mp_obj_t sys_exitfunc;
mp_obj_t sys_mutable[MP_SYS_MUTABLE_NUM];
mp_sched_item_t sched_queue[(4)];
struct _mp_vfs_mount_t *vfs_cur;
struct _mp_vfs_mount_t *vfs_mount_table;
mp_obj_t dupterm_objs[MICROPY_PY_OS_DUPTERM];
mp_obj_t bluetooth;
EOF

SOURCES="py/vm py/runtime py/objfun py/objtype py/objboundmeth py/objclosure py/objgenerator py/cstack py/modmicropython shared/runtime/pyexec"
# ESP-IDF's flags for the ESP32 (CONFIG_COMPILER_OPTIMIZATION_PERF in boards/sdkconfig.base: -O2)
XFLAGS="-mabi=windowed -mlongcalls -O2 -std=gnu17 -ffunction-sections -fdata-sections
    -fstrict-volatile-bitfields -fno-jump-tables -fno-tree-switch-conversion -include stddef.h
    -I $INC -I $TREE -I $TREE/ports/esp32 -DNDEBUG -fstack-usage -w"
for src in $SOURCES; do
    # shellcheck disable=SC2086
    xtensa-lx106-elf-gcc $XFLAGS -S "$TREE/$src.c" -o "$WORK/xt/$(basename "$src").s"
done
# the device build's flags, as its makefile gives them
VMCMD=$(make -s -n -B -C "$TREE/ports/unix" VARIANT_DIR="$REPO/firmware/port/unix/tafel" BUILD="$BUILD" \
    FROZEN_MANIFEST="$REPO/firmware/port/unix/manifest_frozen.py" MICROPY_FORCE_32BIT=1 STRIP= \
    "$BUILD/py/vm.o" 2>/dev/null | grep -E ' -c .*py/vm\.c' | head -n 1)
BASE=$(echo "$VMCMD" | sed 's/ || (.*$//; s# -MD -MF [^ ]*##; s# -o [^ ]*/vm\.o##; s# -O3##; s# -c ##; s#\.\./\.\./py/vm\.c##')
for src in $SOURCES; do
    opt=""
    [ "$src" = py/vm ] && opt="-O3"
    (cd "$TREE/ports/unix" && eval "$BASE $opt -fstack-usage -S -o $WORK/x86/$(basename "$src").s ../../$src.c")
done
for fn in pyexec_friendly_repl parse_compile_execute mp_call_function_0 mp_call_function_n_kw \
        mp_call_method_n_kw fun_bc_call mp_execute_bytecode fun_builtin_var_call \
        mp_micropython_mem_info mp_cstack_usage mp_cstack_check type_call mp_obj_instance_make_new \
        closure_call bound_meth_call mp_call_method_self_n_kw mp_resume mp_obj_gen_resume; do
    x=$(cat "$WORK"/xt/*.su | awk -F'\t' -v f="$fn" '{n=split($1, p, ":"); if (p[n] == f) print $2}')
    i=$(cat "$WORK"/x86/*.su | awk -F'\t' -v f="$fn" '{n=split($1, p, ":"); if (p[n] == f) print $2}')
    printf '%-26s %6s %6s\n' "$fn" "${x:--}" "${i:--}"
done
