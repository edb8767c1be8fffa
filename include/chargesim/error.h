/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_ERROR_H
#define CHARGESIM_ERROR_H
/* A formatted error: a status plus a message that names the file, line, key
 * and what was expected. It sits in core (src/core/error.c) because every
 * layer above may report one; the pure rules themselves report through
 * cs_diag (status.h), which needs no formatting. */
#include "chargesim/status.h"

/* The details travel beside the message, as data (SQLite keeps an error's
 * code and offset apart from its text): a caller that needs the key at
 * fault reads `key`, never the message's words. */
typedef struct cs_error {
    cs_status status;
    char msg[1024];
    char key[128]; /* the key at fault (a parameter's, `method`), "" when none */
    /* Where in msg the detail starts, after the place the error was found
     * ("FILE:LINE: ", "command line: "); 0 when the message names none. A
     * front end that shows the error beside its field shows msg + detail. */
    int detail;
} cs_error;

/* Sets status and message (printf-style), and no key; returns the status. */
cs_status cs_error_set(cs_error *err, cs_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sets status and a message that names where the error was found, `at`
 * ("FILE:LINE" or "command line"), then ": " and the detail (printf-style),
 * and records where the detail starts; no key. Returns the status. */
cs_status cs_error_set_at(cs_error *err, cs_status status, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Names the key at fault of the error just set (NULL: none); returns its
 * status. */
cs_status cs_error_key(cs_error *err, const char *key);

#endif
