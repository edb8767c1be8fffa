/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_CMDLINE_H
#define CHARGESIM_CMDLINE_H
/* A command line as text a POSIX shell reads back word for word: what the
 * CSVW metadata and the Markdown note record (csvw.h), and the command the
 * web edition shows beside each result, which run in a terminal gives the
 * same numbers. */
#include <stddef.h>

/* Appends word a to the text in buf (cap bytes, NUL-terminated): bare when
 * every character is safe, else in single quotes (a quote as '\''). */
void cs_cmdline_word(char *buf, size_t cap, const char *a);

/* "chargesim CMD ARG..." into buf, each argument through cs_cmdline_word. */
void cs_cmdline_join(char *buf, size_t cap, const char *cmd, int argc, char *const *argv);

#endif
