/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_FUZZ_H
#define CHARGESIM_FUZZ_H
/* Shared by the libFuzzer harnesses and the corpus replay (replay.c). */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes data to an anonymous in-memory file and returns its path
 * (/proc/self/fd/N) in buf, or NULL; fuzz_file_close releases it. The
 * loaders under test take paths, and a memory file leaves nothing behind. */
const char *fuzz_file(const uint8_t *data, size_t size, const char *name, char *buf, size_t cap,
                      int *fd);
void fuzz_file_close(int fd);

#endif
