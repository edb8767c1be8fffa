/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rerun's reading (request.h): a CSV's metadata read by io's reader
 * (csvwread.h) into the command it records, which request.c then sets on
 * the request in rerun's place. See include/chargesim/reqsteps.h. */
#include "chargesim/reqsteps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cs_status cs_req_rerun_read(cs_request *r)
{
    if (r->rerun_read)
        return CS_OK;
    const char *meta = cs_req_slot(r, CS_REQ_METADATA);
    if (!meta) {
        r->fault_key = "metadata";
        return cs_error_set(&r->err, CS_EINPUT, "no metadata file (FILE.csv-metadata.json)");
    }
    cs_status st = cs_csvwread_args(meta, &r->rerun_argv, &r->rerun_argc, &r->remade, &r->err);
    if (st != CS_OK) {
        r->fault = r->slot[CS_REQ_METADATA];
        return st;
    }
    r->rerun_read = true;
    return CS_OK;
}

void cs_req_rerun_free(cs_request *r)
{
    cs_csvwread_free_args(r->rerun_argv, r->rerun_argc);
    cs_csvwread_remade_free(&r->remade);
}
