// simchip.Flash: the simulator's flash chip kept only in its image file, in C (the reference:
// firmware/sim/fileflash.py and blockdev.py; firmware/port/README.md, "The simulator's chip in C").
//
//   Flash(path, blocks=512, block_size=4096)   the image file, made erased when missing; a file
//                                              of another size is refused (OSError naming it)
//   readblocks(block, buf, off=0)              the extended block protocol vfs.VfsLfs2 speaks
//   writeblocks(block, buf, off=None)          off None: erase the blocks, then program them
//   ioctl(op, arg)                             1 init, 2 deinit, 3 sync, 4 count, 5 size, 6 erase
//   close()
//   blocks, block_size, path, reads, read_bytes, programs, programmed, erases   (attributes)
//
// NOR rules: an erase sets a block to 0xFF, a program only clears bits (old AND new). Every
// program and erase reaches the file with pwrite(2) before it returns (a power cut is the
// launcher killing the process); sync is fsync(2), as the reference's flush() is. One object of
// 64 bytes on the Python heap; the cells go through static buffers.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "py/runtime.h"
#include "py/mperrno.h"
#include "py/mphal.h"
#include "simchip.h"

#define CHUNK (256)  // the reference writes erased cells 256 bytes at a time

typedef struct {
    mp_obj_base_t base;
    int fd;
    char *path;  // the image's path, in the C heap (malloc): nothing of the simulator in the chip's heap
    mp_int_t blocks;
    mp_int_t block_size;
    uint64_t reads;
    uint64_t read_bytes;
    uint64_t programs;
    uint64_t programmed;  // bytes
    uint64_t erases;
} flash_obj_t;

static uint8_t ones[4096];  // erased cells (0xFF), filled once
static uint8_t cells[4096];  // the cells under a program

static const uint8_t *erased_cells(void) {
    if (ones[0] != 0xFF) {
        memset(ones, 0xFF, sizeof(ones));
    }
    return ones;
}

static void pwrite_all(int fd, const uint8_t *p, size_t n, off_t at) {
    while (n > 0) {
        ssize_t r;
        MP_HAL_RETRY_SYSCALL(r, pwrite(fd, p, n, at), mp_raise_OSError(err));
        p += r;
        n -= r;
        at += r;
    }
}

static size_t pread_all(int fd, uint8_t *p, size_t n, off_t at) {
    size_t got = 0;
    while (got < n) {
        ssize_t r;
        MP_HAL_RETRY_SYSCALL(r, pread(fd, p + got, n - got, at + got), mp_raise_OSError(err));
        if (r == 0) {
            break;
        }
        got += r;
    }
    return got;
}

// `count` runs of CHUNK erased cells from `at`.
static void write_erased(int fd, off_t at, size_t count) {
    const uint8_t *e = erased_cells();
    size_t n = count * CHUNK;
    while (n > 0) {
        size_t part = n < sizeof(ones) ? n : sizeof(ones);
        pwrite_all(fd, e, part, at);
        at += part;
        n -= part;
    }
}

static void do_fsync(int fd) {
    int r;
    MP_HAL_RETRY_SYSCALL(r, fsync(fd), {
        if (err != EINVAL) {
            mp_raise_OSError(err);
        }
    });
}

static flash_obj_t *open_flash(mp_obj_t self_in) {
    flash_obj_t *self = MP_OBJ_TO_PTR(self_in);
    if (self->fd < 0) {
        mp_raise_OSError(MP_EBADF);
    }
    return self;
}

static void check(flash_obj_t *self, mp_int_t block, mp_int_t off, size_t n) {
    long long end = (long long)block * self->block_size + off + n;
    if (block < 0 || block >= self->blocks || off < 0 || end > (long long)self->blocks * self->block_size) {
        mp_raise_msg_varg(&mp_type_OSError, MP_ERROR_TEXT("access outside the device: block %d offset %d length %d"),
            (int)block, (int)off, (int)n);
    }
}

static void program(flash_obj_t *self, mp_int_t block, mp_int_t off, const uint8_t *data, size_t n) {
    check(self, block, off, n);
    off_t at = (off_t)block * self->block_size + off;
    size_t done = 0;
    while (done < n) {  // old AND new: a NOR cell never goes back to 1
        size_t part = n - done < sizeof(cells) ? n - done : sizeof(cells);
        size_t got = pread_all(self->fd, cells, part, at + done);
        memset(cells + got, 0xFF, part - got);
        for (size_t i = 0; i < part; i++) {
            cells[i] &= data[done + i];
        }
        pwrite_all(self->fd, cells, part, at + done);
        done += part;
    }
    self->programs++;
    self->programmed += n;
}

static void erase(flash_obj_t *self, mp_int_t block) {
    check(self, block, 0, 0);
    write_erased(self->fd, (off_t)block * self->block_size, self->block_size / CHUNK);
    self->erases++;
}

static mp_obj_t flash_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    enum { A_path, A_blocks, A_block_size };
    static const mp_arg_t allowed[] = {
        { MP_QSTR_path, MP_ARG_REQUIRED | MP_ARG_OBJ, {.u_obj = MP_OBJ_NULL} },
        { MP_QSTR_blocks, MP_ARG_INT, {.u_int = 512} },
        { MP_QSTR_block_size, MP_ARG_INT, {.u_int = 4096} },
    };
    mp_arg_val_t v[3];
    mp_arg_parse_all_kw_array(n_args, n_kw, args, 3, allowed, v);
    const char *path = mp_obj_str_get_str(v[A_path].u_obj);
    mp_int_t blocks = v[A_blocks].u_int, block_size = v[A_block_size].u_int;
    if (blocks < 0 || block_size < 0) {
        mp_raise_ValueError(MP_ERROR_TEXT("negative size"));
    }
    long long size = (long long)blocks * block_size;
    int fd;
    MP_HAL_RETRY_SYSCALL(fd, open(path, O_RDWR | O_CLOEXEC), {
        fd = -1;
        break;
    });
    if (fd < 0) {  // made erased, as a new chip is
        MP_HAL_RETRY_SYSCALL(fd, open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666), mp_raise_OSError(err));
        write_erased(fd, 0, size / CHUNK);
        do_fsync(fd);
    } else {
        off_t end = lseek(fd, 0, SEEK_END);
        if (end != size) {
            close(fd);
            mp_raise_msg_varg(&mp_type_OSError, MP_ERROR_TEXT("flash image %s has %d bytes, expected %d"),
                path, (int)end, (int)size);
        }
    }
    flash_obj_t *self = mp_obj_malloc_with_finaliser(flash_obj_t, type);
    self->fd = fd;
    self->path = strdup(path);  // never freed: one a Flash, and a process has one or a few
    if (self->path == NULL) {
        mp_raise_OSError(MP_ENOMEM);
    }
    self->blocks = blocks;
    self->block_size = block_size;
    self->reads = self->read_bytes = self->programs = self->programmed = self->erases = 0;
    return MP_OBJ_FROM_PTR(self);
}

static mp_obj_t flash_close(mp_obj_t self_in) {
    flash_obj_t *self = MP_OBJ_TO_PTR(self_in);
    if (self->fd >= 0) {
        close(self->fd);
        self->fd = -1;
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(flash_close_obj, flash_close);

static mp_obj_t flash_readblocks(size_t n_args, const mp_obj_t *args) {
    flash_obj_t *self = open_flash(args[0]);
    mp_int_t block = mp_obj_get_int(args[1]);
    mp_buffer_info_t b;
    mp_get_buffer_raise(args[2], &b, MP_BUFFER_WRITE);
    mp_int_t off = n_args > 3 ? mp_obj_get_int(args[3]) : 0;
    check(self, block, off, b.len);
    if (pread_all(self->fd, b.buf, b.len, (off_t)block * self->block_size + off) != b.len) {
        mp_raise_msg_varg(&mp_type_OSError, MP_ERROR_TEXT("flash image %s ends early"),
            self->path);
    }
    self->reads++;
    self->read_bytes += b.len;
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(flash_readblocks_obj, 3, 4, flash_readblocks);

static mp_obj_t flash_writeblocks(size_t n_args, const mp_obj_t *args) {
    flash_obj_t *self = open_flash(args[0]);
    mp_int_t block = mp_obj_get_int(args[1]);
    mp_buffer_info_t b;
    mp_get_buffer_raise(args[2], &b, MP_BUFFER_READ);
    if (n_args < 4 || args[3] == mp_const_none) {  // the simple protocol: whole blocks, erased first
        size_t bs = self->block_size;
        for (size_t i = 0; bs && i < b.len / bs; i++) {
            erase(self, block + i);
            program(self, block + i, 0, (const uint8_t *)b.buf + i * bs, bs);
        }
        return mp_const_none;
    }
    program(self, block, mp_obj_get_int(args[3]), b.buf, b.len);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(flash_writeblocks_obj, 3, 4, flash_writeblocks);

static mp_obj_t flash_ioctl(mp_obj_t self_in, mp_obj_t op_in, mp_obj_t arg) {
    flash_obj_t *self = MP_OBJ_TO_PTR(self_in);
    switch (mp_obj_get_int(op_in)) {
        case 4:  // block count
            return mp_obj_new_int(self->blocks);
        case 5:  // block size
            return mp_obj_new_int(self->block_size);
        case 6:  // erase
            erase(open_flash(self_in), mp_obj_get_int(arg));
            return MP_OBJ_NEW_SMALL_INT(0);
        case 3:  // sync
            if (self->fd >= 0) {
                do_fsync(self->fd);
            }
            break;
    }
    return MP_OBJ_NEW_SMALL_INT(0);  // init, deinit, sync
}
static MP_DEFINE_CONST_FUN_OBJ_3(flash_ioctl_obj, flash_ioctl);

static void flash_attr(mp_obj_t self_in, qstr attr, mp_obj_t *dest) {
    flash_obj_t *self = MP_OBJ_TO_PTR(self_in);
    if (dest[0] == MP_OBJ_NULL) {
        switch (attr) {
            case MP_QSTR_path:
                dest[0] = mp_obj_new_str(self->path, strlen(self->path));
                return;
            case MP_QSTR_blocks:
                dest[0] = mp_obj_new_int(self->blocks);
                return;
            case MP_QSTR_block_size:
                dest[0] = mp_obj_new_int(self->block_size);
                return;
            case MP_QSTR_reads:
                dest[0] = mp_obj_new_int_from_ull(self->reads);
                return;
            case MP_QSTR_read_bytes:
                dest[0] = mp_obj_new_int_from_ull(self->read_bytes);
                return;
            case MP_QSTR_programs:
                dest[0] = mp_obj_new_int_from_ull(self->programs);
                return;
            case MP_QSTR_programmed:
                dest[0] = mp_obj_new_int_from_ull(self->programmed);
                return;
            case MP_QSTR_erases:
                dest[0] = mp_obj_new_int_from_ull(self->erases);
                return;
        }
    }
    dest[1] = MP_OBJ_SENTINEL;
}

static void flash_print(const mp_print_t *print, mp_obj_t self_in, mp_print_kind_t kind) {
    flash_obj_t *self = MP_OBJ_TO_PTR(self_in);
    mp_printf(print, "Flash(%s, %d, %d)", self->path, (int)self->blocks, (int)self->block_size);
}

static const mp_rom_map_elem_t flash_locals_table[] = {
    { MP_ROM_QSTR(MP_QSTR_readblocks), MP_ROM_PTR(&flash_readblocks_obj) },
    { MP_ROM_QSTR(MP_QSTR_writeblocks), MP_ROM_PTR(&flash_writeblocks_obj) },
    { MP_ROM_QSTR(MP_QSTR_ioctl), MP_ROM_PTR(&flash_ioctl_obj) },
    { MP_ROM_QSTR(MP_QSTR_close), MP_ROM_PTR(&flash_close_obj) },
    { MP_ROM_QSTR(MP_QSTR___del__), MP_ROM_PTR(&flash_close_obj) },
};
static MP_DEFINE_CONST_DICT(flash_locals, flash_locals_table);

MP_DEFINE_CONST_OBJ_TYPE(simchip_flash_type, MP_QSTR_Flash, MP_TYPE_FLAG_NONE,
    make_new, flash_make_new,
    print, flash_print,
    attr, flash_attr,
    locals_dict, &flash_locals
    );
