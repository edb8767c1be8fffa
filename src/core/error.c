/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Formatted errors; see include/chargesim/error.h. In core although it
 * includes <stdio.h>: vsnprintf only formats into the caller's buffer; the
 * core still reads and writes no stream (docs/ARCHITECTURE.md, House rules). */
#include "chargesim/error.h"

#include <stdarg.h>
#include <stdio.h>

cs_status cs_error_set(cs_error *err, cs_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->status = status;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->key[0] = '\0';
        err->detail = 0;
    }
    return status;
}

cs_status cs_error_set_at(cs_error *err, cs_status status, const char *at, const char *fmt, ...)
{
    if (err) {
        int n = snprintf(err->msg, sizeof err->msg, "%s: ", at);
        n = n < 0 ? 0 : n >= (int)sizeof err->msg ? (int)sizeof err->msg - 1 : n;
        va_list ap;
        va_start(ap, fmt);
        err->status = status;
        vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
        va_end(ap);
        err->key[0] = '\0';
        err->detail = n;
    }
    return status;
}

cs_status cs_error_key(cs_error *err, const char *key)
{
    if (!err)
        return CS_OK;
    snprintf(err->key, sizeof err->key, "%s", key ? key : "");
    return err->status;
}
