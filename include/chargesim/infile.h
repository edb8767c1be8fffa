/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_INFILE_H
#define CHARGESIM_INFILE_H
/* Every look the program takes at its input files: opening one, asking
 * whether a name is a directory, listing one (issue 22). The readers
 * (experiments and mappings through inifile.c, units CSV, BattleScribe,
 * CSVW metadata for rerun) open their files here and nowhere else.
 *
 * In one process these are fopen, stat and readdir. Under MPI (a scheduler
 * backend with `share`, backend.h) rank 0 alone looks at the disk: it reads
 * the whole file and every rank, rank 0 included, parses those bytes from
 * memory, so all ranks see the same input even where their disks differ (a
 * node without the file, a file changed meanwhile) and reach the same
 * verdict; a failure (its errno) travels the same way, so every rank fails
 * alike and rank 0 reports it. Every rank must therefore make these calls in
 * the same order, which holds as long as what they do next depends only on
 * the answers (and on rank 0's, where a choice comes from the environment:
 * cs_infile_share_text). */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The largest file rank 0 reads for the others (1 GiB): a bigger one, or an
 * endless one (/dev/zero), fails to read with EFBIG instead of exhausting
 * memory. Without MPI the readers stream their files and meet no limit. */
#define CS_INFILE_MAX ((size_t)1 << 30)

/* Opens `path` for reading. NULL with errno set when it cannot be opened.
 * A failure to read (a directory: EISDIR, EIO) shows as it would on a file
 * opened with fopen: fread/getc fail, ferror is set and errno says why,
 * after the bytes that could be read. Close with fclose. */
FILE *cs_infile_open(const char *path);

/* Whether `path` names a directory (stat follows links). */
bool cs_infile_is_dir(const char *path);

/* The names of the entries of `dir` (readdir order, "." and ".." left out),
 * each followed by a NUL, in *names (malloc'ed, free(); NULL when there is
 * none), *len bytes in all. Returns 0, or an errno: the directory cannot be
 * opened, or ENOMEM. */
int cs_infile_list(const char *dir, char **names, size_t *len);

/* Replaces the text in buf (cap bytes with its NUL) by rank 0's, on every
 * rank; nothing without MPI. For a choice made from the environment (a
 * default directory found beside the binary or named by a variable) that
 * every rank must follow. */
void cs_infile_share_text(char *buf, size_t cap);

/* True where this process looks at the disk: always without MPI, on rank 0
 * with it. */
bool cs_infile_reader(void);

/* The compressed format the first n bytes of a file announce ("gzip", "zip",
 * "xz", "bzip2", "zstd"), or NULL: inputs are read as they are, so a reader
 * can say what it was given instead of calling it malformed. */
const char *cs_infile_packed(const unsigned char *b, size_t n);

#endif
