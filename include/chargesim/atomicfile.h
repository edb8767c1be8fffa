#ifndef CHARGESIM_ATOMICFILE_H
#define CHARGESIM_ATOMICFILE_H
/* Output files written under a temporary name and renamed into place, so an
 * error, a crash or Ctrl-C never leaves a partial file behind: the reader
 * sees the old file or the complete new one. */
#include <stdio.h>

#include "chargesim/error.h"

typedef struct cs_outfile {
    FILE *f;          /* write here */
    char *path;       /* final name; NULL for stdout */
    char *tmp;        /* temporary name beside it */
} cs_outfile;

/* Opens `path` for writing ("-" or NULL: stdout). Checks the directory is
 * writable now rather than after a long run. */
cs_status cs_outfile_open(cs_outfile *o, const char *path, cs_error *err);
/* Flushes, closes and renames into place. */
cs_status cs_outfile_commit(cs_outfile *o, cs_error *err);
/* Closes and removes the temporary file. Safe on a committed or unopened file. */
void cs_outfile_abort(cs_outfile *o);
/* Installs SIGINT/SIGTERM/SIGHUP handlers that remove every open temporary
 * file before the process ends with the signal's status. */
void cs_outfile_install_signal_cleanup(void);

#endif
