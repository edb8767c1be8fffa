/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_STATUS_H
#define CHARGESIM_STATUS_H
/* One status enum for the whole project, and the diagnostic the pure core
 * hands back instead of printing: the core has no stdio, so it names the
 * column or key and says, in a static string, what was expected. The io and
 * cli layers add the file and line. */

typedef enum cs_status {
    CS_OK = 0,
    CS_EINPUT,    /* bad input or usage: exit status 2 */
    CS_ERUNTIME,  /* I/O or resource failure at run time: exit status 1 */
    CS_ENOMEM,    /* allocation failed: exit status 1 */
    CS_ELIMIT,    /* input valid but beyond a documented limit: exit status 2 */
    CS_ESTOPPED,  /* stopped at a signal's request, its checkpoint written
                     (checkpoint.h): no failure; the command ends by that
                     signal (exit status 1 where it cannot) */
} cs_status;

/* A static, human-readable name of the status. Never NULL. */
const char *cs_strerror(cs_status status);

/* The exit status the CLI uses for a status: 0, 2 for input, 1 otherwise. */
int cs_status_exit_code(cs_status status);

typedef struct cs_diag {
    int column;        /* 1-based column in the offending text, 0 if none */
    const char *key;   /* parameter or field at fault (static), or NULL */
    const char *what;  /* what was expected or what is wrong: static text, or a
                          ruleset's context (ruleset.h, prepare) */
} cs_diag;

#endif
