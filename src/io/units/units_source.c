/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Units, stage 1 of 5: read the source (see unitsrc.h for the stages).
 *
 * What SOURCE names (a units CSV, a BattleScribe catalogue or game system,
 * a folder of them) and which mapping each file takes (its game system's);
 * the dispatcher of stage 1. The BattleScribe documents themselves are the
 * document library's (units_doc.c). Stage 2 (units_resolve.c, or
 * units_csv.c for a CSV) turns them into units. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/infile.h"
#include "chargesim/unitsrc.h"

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* The mapping for a catalogue: its game system and, with --rules, ruleset. */
static cs_status pick_mapping(const char *cat, cs_units_mapping *maps, int n, const char *rules,
                              cs_units_mapping **out, cs_error *err)
{
    char id[CS_UNITS_TEXT];
    cs_status st = cs_units_bs_system(cat, id, sizeof id, err);
    if (st != CS_OK)
        return st;
    *out = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(maps[i].game_system_id, id) != 0 || (rules && strcmp(maps[i].ruleset, rules)))
            continue;
        if (*out)
            return cs_error_set(err, CS_EINPUT,
                                "%s: mappings %s and %s both fit game system %s; choose with "
                                "--rules or --mapping",
                                cat, (*out)->path, maps[i].path, id);
        *out = &maps[i];
    }
    /* The key at fault is the mapping: a front end says which games have
     * one in its own words (src/web/webunits.c). */
    if (!*out) {
        cs_error_set(err, CS_EINPUT,
                     "%s: no mapping for game system %s%s%s (write one under "
                     "experiments/mappings, or pass --mapping)",
                     cat, id, rules ? " and ruleset " : "", rules ? rules : "");
        return cs_error_key(err, "mapping");
    }
    return (*out)->rs ? CS_OK : cs_units_mapping_bind(*out, err);
}

/* The BattleScribe files SOURCE names: a directory's catalogues (its game
 * systems when it has none), or the one .cat or .gst. */
static cs_status bs_files(const char *source, char (**files)[CS_UNITS_PATH], int *n,
                          cs_error *err)
{
    *files = NULL;
    *n = 0;
    if (cs_infile_is_dir(source)) {
        static const char *const bs[] = {".cat", ".gst", NULL};
        cs_status st = cs_units_list_files(source, bs, files, n, err);
        int cats = 0;
        for (int i = 0; st == CS_OK && i < *n; i++)
            if (ends_with((*files)[i], ".cat"))
                memmove((*files)[cats++], (*files)[i], sizeof(*files)[i]);
        if (cats > 0)
            *n = cats;
        if (st == CS_OK && *n == 0)
            st = cs_error_set(err, CS_EINPUT, "%s: no .cat or .gst file in this directory", source);
        return st;
    }
    if (!ends_with(source, ".cat") && !ends_with(source, ".gst"))
        return cs_error_set(err, CS_EINPUT, "%s: expected a .cat, .gst or .csv file or a directory",
                            source);
    *files = malloc(sizeof **files);
    if (!*files)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    snprintf((*files)[0], CS_UNITS_PATH, "%s", source);
    *n = 1;
    return CS_OK;
}

cs_status cs_units_read_source(const char *source, cs_units_mapping *maps, int n_maps,
                               const char *rules, cs_units *units, cs_error *err)
{
    if (ends_with(source, ".csv"))
        return cs_units_read_csv(source, maps, n_maps, rules, units, err);
    char(*files)[CS_UNITS_PATH];
    int n;
    cs_status st = bs_files(source, &files, &n, err);
    for (int i = 0; st == CS_OK && i < n; i++) {
        cs_units_mapping *m;
        st = pick_mapping(files[i], maps, n_maps, rules, &m, err);
        if (st == CS_OK)
            st = cs_units_read_bs(files[i], m, units, err);
    }
    free(files);
    return st;
}
