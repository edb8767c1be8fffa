/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An option's name as its request key for the JavaScript package; see
 * include/chargesim/webkeys.h. */
#include "chargesim/webkeys.h"

#include <stddef.h>

#include "chargesim/reqapi.h"
#include "chargesim/request.h"

const char *cs_web_key_of(const char *cmd, const char *name)
{
    if (!cmd || !name)
        return name;
    /* The request only lends its option table: a key is the table's
     * string, static, which outlives the request. */
    cs_request *r = cs_request_new(cmd);
    const char *key = r ? cs_request_key_of(r, name) : NULL;
    cs_request_free(r);
    return key ? key : name;
}
