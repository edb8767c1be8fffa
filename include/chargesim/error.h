#ifndef CHARGESIM_ERROR_H
#define CHARGESIM_ERROR_H
/* A formatted error: a status plus a message that names the file, line, key
 * and what was expected. It sits in core (src/core/error.c) because every
 * layer above may report one; the pure rules themselves report through
 * cs_diag (status.h), which needs no formatting. */
#include "chargesim/status.h"

typedef struct cs_error {
    cs_status status;
    char msg[1024];
} cs_error;

/* Sets status and message (printf-style); returns the status. */
cs_status cs_error_set(cs_error *err, cs_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
