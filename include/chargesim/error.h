#ifndef CHARGESIM_ERROR_H
#define CHARGESIM_ERROR_H
/* A formatted error for the layers above the pure core: a status plus a
 * message that names the file, line, key and what was expected. */
#include "chargesim/status.h"

typedef struct cs_error {
    cs_status status;
    char msg[1024];
} cs_error;

/* Sets status and message (printf-style); returns the status. */
cs_status cs_error_set(cs_error *err, cs_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
