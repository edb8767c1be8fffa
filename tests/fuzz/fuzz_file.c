/* SPDX-License-Identifier: GPL-3.0-or-later */
/* In-memory files for the harnesses: see fuzz.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

const char *fuzz_file(const uint8_t *data, size_t size, const char *name, char *buf, size_t cap,
                      int *fd)
{
    *fd = memfd_create(name, 0);
    if (*fd < 0)
        return NULL;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(*fd, data + done, size - done);
        if (w <= 0) {
            close(*fd);
            return NULL;
        }
        done += (size_t)w;
    }
    snprintf(buf, cap, "/proc/self/fd/%d", *fd);
    return buf;
}

void fuzz_file_close(int fd)
{
    close(fd);
}
