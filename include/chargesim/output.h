/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_OUTPUT_H
#define CHARGESIM_OUTPUT_H
/* The one module through which every command writes every file
 * (docs/ARCHITECTURE.md, "One output module"; issue 17 point 1). No other module opens a file for
 * writing.
 *
 * - A regular file (or a name that does not exist yet) is written to a
 *   temporary file made by mkstemp in the same directory, flushed and
 *   fsync'ed, given the mode of the file it replaces (or 0666 & ~umask), and
 *   renamed over it: a reader sees the old file or the whole new one.
 * - A symbolic link is followed: the file it points to is replaced, the link
 *   stays a link.
 * - Anything else that exists (a device such as /dev/null or /dev/stdout, a
 *   FIFO, a terminal, a socket) is written through, never replaced.
 * - Several files of one command are committed together
 *   (cs_outfile_commit_all): every temporary is written and synced first,
 *   then they are renamed in a row; if a rename fails, the files already
 *   renamed get their old contents back (hard-linked aside beforehand) and
 *   the message says what could and could not be restored.
 * - A regular file this process may not replace (another user's, in a
 *   sticky directory such as /tmp) is refused when it is opened, before
 *   any work, and again before a group's first rename (it may have changed
 *   hands meanwhile): a commit never stops half-way on it, and never leaves
 *   a backup link behind that only the other user could remove.
 * - SIGINT, SIGTERM and SIGHUP remove every temporary file before the
 *   process dies of the signal (cs_outfile_install_signal_cleanup); for
 *   SIGKILL, a supervising process can (cs_outfile_observe). A run that
 *   keeps a checkpoint defers SIGINT and SIGTERM instead, writes its
 *   checkpoint at its next safe point and then dies of the signal
 *   (cs_outfile_defer_signals). */
#include <stdbool.h>
#include <stdio.h>

#include "chargesim/error.h"

typedef struct cs_outfile {
    FILE *f;          /* write here */
    char *path;       /* the name as given; NULL for standard output */
    char *target;     /* the file that will be replaced (links followed), or NULL */
    char *tmp;        /* the temporary beside target; NULL when written through */
    char *backup;     /* during a group commit: the old file, hard-linked aside */
    bool through;     /* written through: stdout, a device, a FIFO */
} cs_outfile;

/* Opens `path` for writing ("-" or NULL: standard output). Refuses an empty
 * name, a directory, a missing directory, and a name so long that the
 * temporary beside it cannot be named, with CS_EINPUT (exit 2); a directory
 * that refuses the file (permissions, read-only) with CS_ERUNTIME (exit 1).
 * Checked here, before a long run rather than after it. */
cs_status cs_outfile_open(cs_outfile *o, const char *path, cs_error *err);

/* True when `o` replaces a regular file (so a sidecar such as the CSVW
 * metadata belongs beside it); false for stdout and written-through targets. */
bool cs_outfile_is_regular(const cs_outfile *o);

/* The error for a failed write into o (errno says why), naming the file and
 * saying the old one is untouched; returns CS_ERUNTIME. */
cs_status cs_outfile_write_error(const cs_outfile *o, cs_error *err);

/* Flushes, syncs and renames into place; on failure removes the temporary
 * and leaves any old file untouched. Frees o either way. */
cs_status cs_outfile_commit(cs_outfile *o, cs_error *err);

/* Commits n files together: all of them or none (see above). NULL entries
 * and unopened files are skipped. Frees every file either way. */
cs_status cs_outfile_commit_all(cs_outfile *const *o, int n, cs_error *err);

/* Closes and removes the temporary file. Safe on a committed, aborted or
 * zeroed file. */
void cs_outfile_abort(cs_outfile *o);

/* CS_EINPUT when `out` names the same file (device and inode, links
 * followed) as one of the inputs; `what` names the option ("-o"). A name
 * that does not exist yet names no input. */
cs_status cs_output_check_inputs(const char *out, const char *what, const char *const *inputs,
                                 int n_inputs, cs_error *err);

/* Installs SIGINT/SIGTERM/SIGHUP handlers that remove every temporary file
 * (async-signal-safe unlink of names kept in fixed buffers), then re-raise
 * the signal so the process ends with its usual status. */
void cs_outfile_install_signal_cleanup(void);

/* While on, SIGINT and SIGTERM only note the signal (the first one), for
 * the run to answer at its next safe point (cs_outfile_deferred_signal);
 * SIGHUP still ends the process. Turned off with a signal noted and not
 * answered, the process dies of it as cs_outfile_install_signal_cleanup
 * says. */
void cs_outfile_defer_signals(bool on);
/* The signal noted while deferring, 0 if none (async-signal-safe: read a
 * flag). */
int cs_outfile_deferred_signal(void);
/* Dies of the signal noted while deferring, its temporaries removed;
 * returns when none was. */
void cs_outfile_raise_deferred(void);

/* Removes the file `path` names (links followed: the file a commit
 * replaced); a name that does not exist is no error. */
cs_status cs_outfile_remove(const char *path, cs_error *err);

/* Calls fn(name, true) as each temporary file (or kept-aside old file) is
 * made and fn(name, false) once it is renamed, removed or kept on purpose:
 * the names a process killed by SIGKILL, which no handler sees, would
 * leave behind, for a supervisor that outlives it (supervise.h). NULL
 * stops it. */
void cs_outfile_observe(void (*fn)(const char *name, bool live));

#endif
