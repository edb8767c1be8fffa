/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Units tab: `chargesim units` in the page; see
 * include/chargesim/webunits.h. The tab's fields become a request
 * (request.h), the same one the command line runs: its table, notes and
 * refusal as JSON. */
#include "chargesim/webunits.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/request.h"
#include "chargesim/webjson.h"
#include "chargesim/units.h"

/* The notes, each as the command line prints it on standard error, then
 * its count line. */
static void put_notes(json_t *o, const cs_request *r, bool *oom)
{
    char line[CS_UNITS_PATH + CS_UNITS_NAME + CS_UNITS_NOTE + 128];
    json_t *notes = json_array();
    int n = cs_request_said(r);
    for (int i = 0; i < n; i++) {
        snprintf(line, sizeof line, "chargesim units: %s", cs_request_said_line(r, i));
        if (i < n - 1)
            cs_webjson_add(notes, json_string_nocheck(line), oom);
        else
            cs_webjson_set(o, "summary", json_string_nocheck(line), oom);
    }
    cs_webjson_set(o, "notes", notes, oom);
}

static bool given(const char *s)
{
    return s && s[0];
}

const char cs_web_units_oom[] =
    "{\"ok\":false,\"cmd\":\"units\",\"command\":\"\",\"message\":\"out of memory\","
    "\"cli\":\"chargesim units: out of memory\",\"exit\":1,\"notes\":[]}";

const char *cs_web_units(const char *source, const char *distance, const char *rules)
{
    char command[8192];
    cs_request *r = cs_request_new("units");
    cs_status st = r ? cs_request_default(r, "mapping", CS_WEB_MAPPINGS) : CS_ENOMEM;
    /* A roster's catalogue: beside it, else among the shipped catalogues
     * the page has put in its file system. */
    if (st == CS_OK)
        st = cs_request_default(r, "data", CS_WEB_DATA);
    if (st == CS_OK)
        st = cs_request_set(r, "source", source ? source : "");
    if (st == CS_OK && given(distance))
        st = cs_request_set(r, "distance", distance);
    if (st == CS_OK && given(rules))
        st = cs_request_set(r, "rules", rules);
    if (st == CS_OK)
        st = cs_request_run(r);
    bool oom = !r;
    json_t *o = json_object();
    cs_webjson_set(o, "ok", json_boolean(st == CS_OK), &oom);
    cs_webjson_set(o, "cmd", json_string("units"), &oom);
    if (r) {
        cs_request_command_line(r, command, sizeof command);
        cs_webjson_set(o, "command", json_string_nocheck(command), &oom);
        if (cs_request_said(r) > 0)
            put_notes(o, r, &oom);
        /* A roster whose catalogue the page has not fetched: the page adds
         * that army's files and asks once more (web/js/units.js). */
        if (cs_request_catalogue_wanted(r)[0])
            cs_webjson_set(o, "catalogue_wanted", json_string(cs_request_catalogue_wanted(r)),
                           &oom);
    }
    if (st == CS_OK) {
        cs_webjson_table(o, cs_request_table(r, 0), &oom);
        cs_webjson_export(o, r, "units", command, &oom);
    } else if (r) {
        const cs_error *err = cs_request_error(r);
        char cli[sizeof err->msg + 32];
        snprintf(cli, sizeof cli, "chargesim units: %s", err->msg);
        cs_webjson_set(o, "message", json_string_nocheck(err->msg), &oom);
        cs_webjson_set(o, "cli", json_string_nocheck(cli), &oom);
        cs_webjson_set(o, "exit", json_integer(cs_status_exit_code(st)), &oom);
    }
    char *out = cs_webjson_dump(o, &oom);
    json_decref(o);
    cs_request_free(r);
    return out ? out : cs_web_units_oom;
}
