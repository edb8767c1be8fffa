/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim rules`: the rulesets, their parameters, outcomes and readings,
 * as the request (request.h; src/req/reqshow.c) writes them. */
#include <stdio.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/request.h"

int cs_cli_rules(int argc, char **argv)
{
    if (argc > 0 && (strcmp(argv[0], "-h") == 0 || strcmp(argv[0], "--help") == 0)) {
        cs_cli_usage("rules", stdout);
        return 0;
    }
    if (argc > 1)
        return cs_cli_fail("rules", CS_EINPUT, "one ruleset name at a time");
    cs_request *r = cs_request_new("rules");
    if (!r)
        return cs_cli_fail("rules", CS_ENOMEM, "out of memory");
    int rc = 0;
    if ((argc == 1 && cs_request_set(r, "name", argv[0]) != CS_OK) || cs_request_run(r) != CS_OK)
        rc = cs_cli_fail_err("rules", cs_request_error(r));
    else
        fputs(cs_request_text(r), stdout);
    cs_request_free(r);
    return rc;
}
