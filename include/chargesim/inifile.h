/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_INIFILE_H
#define CHARGESIM_INIFILE_H
/* INI files through libinih, for every reader of them (experiments, unit
 * mappings): the line each handler call comes from, and the failures inih
 * cannot name itself (a directory, a read error, a line or a section name
 * longer than its fixed buffers) as errors that name the file and line. */
#include <ini.h>

#include "chargesim/error.h"

/* The longest [section] name taken: inih's ini.c keeps one in a buffer of
 * MAX_SECTION = 50 bytes; a longer one is an error (it would be cut short). */
#define CS_INI_MAX_SECTION 49

typedef struct cs_ini_source {
    int line;        /* the line the current handler call comes from */
    char sha256[65]; /* once the whole file is read: the SHA-256 (hex) of the
                        bytes parsed, so provenance names what was read */
} cs_ini_source;

/* Parses `path` (opened through infile.h: under MPI, rank 0's bytes),
 * calling handler(user, ...) for each key; src->line tells the handler
 * where it is. Returns 0 when the whole file was read; -1 with
 * err set when the file cannot be opened or read, or a line or a section
 * name is too long;
 * otherwise the line inih stopped at (a malformed line, or the handler
 * returned 0), for the caller to explain. */
int cs_inifile_parse(const char *path, ini_handler handler, void *user, cs_ini_source *src,
                     cs_error *err);

#endif
