/* Rosters (issue 46), the reader's own functions: the zip container
 * (cs_roster_unpack) on the real exports and on archives built here, and
 * cs_roster_read on the three forms of our lists and on New Recruit's
 * numeric ids. tests/roster.py holds the command's tables against the files
 * read independently, against the catalogue rows, and the bad inputs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "chargesim/roster.h"
#include "chargesim/unitsrc.h"
#include "support/helpers.h"
#include "support/units_helpers.h"

static char *data_path(const char *rel)
{
    static char path[1200];
    snprintf(path, sizeof path, "%s/tests/data/rosters/%s", th_root(), rel);
    return path;
}

/* The document of a roster file, unpacked. */
static unsigned char *unpack_file(const char *rel, size_t *n, cs_status *st, cs_error *err)
{
    size_t len;
    char *raw = th_slurp(data_path(rel), &len);
    cr_assert(raw, "%s", rel);
    unsigned char *out = NULL;
    *st = cs_roster_unpack((const unsigned char *)raw, len, rel, &out, n, err);
    free(raw);
    return out;
}

/* The document in roster file `rel` is the bytes of file `plain_rel`. */
static void unpacks_to(const char *rel, const char *plain_rel)
{
    size_t n, pn;
    cs_error err = {0};
    cs_status st;
    unsigned char *doc = unpack_file(rel, &n, &st, &err);
    cr_assert_eq(st, CS_OK, "%s", err.msg);
    char *plain = th_slurp(data_path(plain_rel), &pn);
    cr_assert_eq(n, pn, "%s: %zu bytes, %s: %zu", rel, n, plain_rel, pn);
    cr_assert(memcmp(doc, plain, pn) == 0, "%s differs from %s", rel, plain_rel);
    cr_assert_eq(doc[n], '\0');
    free(doc);
    free(plain);
}

Test(roster, a_data_descriptor_entry_is_read_from_the_central_directory)
{
    /* BattleScribe's Khorne list: flag 0x808, the local header's sizes 0. */
    unpacks_to("Khorne 2k AoS 3.rosz", "Khorne 2k AoS 3.ros");
}

Test(roster, a_plain_xml_rosz_is_the_document_itself)
{
    unpacks_to("NotZipped.rosz", "NotZipped.rosz");
}

/* A zip of one stored (method 0) entry holding `text`, with a comment. */
static size_t stored_zip(unsigned char *buf, const char *text, uint16_t flags)
{
    const uint32_t len = (uint32_t)strlen(text), crc = (uint32_t)crc32(0L, (const Bytef *)text, len);
    size_t p = 0;
    unsigned char *b = buf;
#define U16(v) (b[p] = (unsigned char)(v), b[p + 1] = (unsigned char)((v) >> 8), p += 2)
#define U32(v) (U16((v) & 0xffffu), U16((v) >> 16))
    U32(0x04034b50u), U16(20), U16(flags), U16(0), U16(0), U16(0), U32(crc), U32(len), U32(len),
        U16(5), U16(0);
    memcpy(b + p, "a.ros", 5), p += 5;
    memcpy(b + p, text, len), p += len;
    size_t cd = p;
    U32(0x02014b50u), U16(20), U16(20), U16(flags), U16(0), U16(0), U16(0), U32(crc), U32(len),
        U32(len), U16(5), U16(0), U16(0), U16(0), U16(0), U32(0), U32(0);
    memcpy(b + p, "a.ros", 5), p += 5;
    size_t cd_size = p - cd;
    U32(0x06054b50u), U16(0), U16(0), U16(1), U16(1), U32((uint32_t)cd_size), U32((uint32_t)cd),
        U16(3);
    memcpy(b + p, "hi!", 3), p += 3;
#undef U32
#undef U16
    return p;
}

Test(roster, a_stored_entry_with_a_comment_after_the_directory)
{
    unsigned char buf[512], *out = NULL;
    size_t n = stored_zip(buf, "<roster/>", 0), on;
    cs_error err = {0};
    cr_assert_eq(cs_roster_unpack(buf, n, "x.rosz", &out, &on, &err), CS_OK, "%s", err.msg);
    cr_assert_str_eq((char *)out, "<roster/>");
    free(out);
}

Test(roster, an_encrypted_or_damaged_entry_is_refused_naming_the_file)
{
    unsigned char buf[512], *out = NULL;
    size_t on;
    cs_error err = {0};
    size_t n = stored_zip(buf, "<roster/>", 1);
    cr_assert_eq(cs_roster_unpack(buf, n, "locked.rosz", &out, &on, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, "locked.rosz: the zip entry is encrypted"), "%s", err.msg);
    n = stored_zip(buf, "<roster/>", 0);
    buf[30 + 5] ^= 1; /* a byte of the data: the CRC-32 no longer holds */
    cr_assert_eq(cs_roster_unpack(buf, n, "bad.rosz", &out, &on, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, "bad.rosz: the zip entry fails its CRC-32 check"), "%s", err.msg);
    cr_assert_null(out);
}

/* Reads a roster with the mapping file or folder `maps` (under the root). */
static cs_status read_roster(const char *rel, const char *maps, const char *catalogue,
                             cs_units *u, cs_roster_info *info, cs_error *err,
                             cs_units_mapping **m)
{
    char mp[1200], cat[1200];
    int n;
    snprintf(mp, sizeof mp, "%s/%s", th_root(), maps);
    cr_assert_eq(cs_units_mapping_load_path(mp, m, &n, err), CS_OK, "%s", err->msg);
    if (catalogue)
        snprintf(cat, sizeof cat, "%s/%s", th_root(), catalogue);
    *u = (cs_units){0};
    return cs_roster_read(data_path(rel), *m, n, NULL, catalogue ? cat : NULL, u, info, err);
}

Test(roster, the_three_forms_give_the_same_units)
{
    static const char *const forms[] = {"own/tow-bretonnia.ros", "own/tow-bretonnia.rosz",
                                        "own/tow-bretonnia.json"};
    cs_units u[3];
    cs_units_mapping *m[3];
    for (int f = 0; f < 3; f++) {
        cs_roster_info info;
        cs_error err = {0};
        cr_assert_eq(read_roster(forms[f], "experiments/mappings", NULL, &u[f], &info, &err,
                                 &m[f]),
                     CS_OK, "%s", err.msg);
        cr_assert_str_eq(info.name, "The Grail Vow");
        cr_assert_str_eq(info.system, "Warhammer The Old World");
        cr_assert(info.has_points);
        cr_assert_str_eq(info.cost, "pts");
    }
    for (int f = 1; f < 3; f++) {
        cr_assert_eq(u[f].n, u[0].n);
        for (int i = 0; i < u[0].n; i++) {
            const cs_unit *a = &u[0].unit[i], *b = &u[f].unit[i];
            cr_assert_str_eq(a->name, b->name);
            cr_assert_str_eq(a->mount, b->mount);
            cr_assert_eq(a->models, b->models);
            cr_assert_eq(a->points, b->points);
            cr_assert_eq(a->rules, b->rules);
            cr_assert_str_eq(th_units_value(a, "move"), th_units_value(b, "move"));
        }
    }
    /* The Duke chose his Pegasus (New Recruit's group="Mount"); the
     * knights' warhorses are found by their M where the riders' is `-`. */
    const cs_unit *duke = th_units_find(&u[0], "Duke (on Royal Pegasus)");
    const cs_unit *lances = th_units_find(&u[0], "The Lances of Couronne (on Bretonnian Warhorse)");
    cr_assert(duke && lances);
    cr_assert_str_eq(duke->mount, "Royal Pegasus");
    cr_assert_str_eq(th_units_value(duke, "move"), "8");
    cr_assert_str_eq(th_units_value(duke, "swiftstride"), "true");
    cr_assert_eq(duke->models, 1);
    cr_assert_eq(lances->models, 7);
    cr_assert_str_eq(th_units_value(lances, "move"), "8");
    for (int f = 0; f < 3; f++) {
        cs_units_free(&u[f]);
        free(m[f]);
    }
}

Test(roster, the_catalogue_at_hand_tells_mounts_and_names_a_modifier)
{
    cs_units u;
    cs_units_mapping *m;
    cs_roster_info info;
    cs_error err = {0};
    cr_assert_eq(read_roster("own/tow-lizardmen-renegades.rosz", "experiments/mappings",
                             "data/tow/Lizardmen.cat", &u, &info, &err, &m),
                 CS_OK, "%s", err.msg);
    cr_assert(strstr(info.catalogue, "data/tow/Lizardmen.cat"));
    const cs_unit *slann = th_units_find(&u, "Slann Mage-Priests");
    cr_assert(slann);
    cr_assert_str_eq(th_units_value(slann, "move"), "4", "the roster's M wins");
    bool noted = false;
    for (int i = 0; i < u.n_notes; i++)
        noted = noted || strstr(u.note[i].what, "is `4` in the roster, `2` in the catalogue");
    cr_assert(noted, "no note says the roster's M differs from the catalogue's");
    cs_units_free(&u);
    free(m);
}

Test(roster, new_recruit_numbers_and_numeric_ids_read_as_text)
{
    cs_units u;
    cs_units_mapping *m;
    cs_roster_info info;
    cs_error err = {0};
    /* Ids, typeIds, number, cost values and revisions as JSON numbers. */
    cr_assert_eq(read_roster("own/numeric-ids.json", "tests/data/rosters/mappings", NULL, &u, &info, &err, &m),
                 CS_OK, "%s", err.msg);
    cr_assert_eq(u.n, 1);
    cr_assert_str_eq(u.unit[0].id, "99");
    cr_assert_eq(u.unit[0].models, 2);
    cr_assert_float_eq(u.unit[0].points, 10.5, 1e-12);
    cr_assert_float_eq(info.points, 10.0, 1e-12);
    cr_assert_str_eq(th_units_value(&u.unit[0], "move"), "6");
    cs_units_free(&u);
    free(m);
}

Test(roster, a_system_no_mapping_covers_is_named_with_those_covered)
{
    cs_units u;
    cs_units_mapping *m;
    cs_roster_info info;
    cs_error err = {0};
    cr_assert_eq(read_roster("Necrons 10e.rosz", "experiments/mappings", NULL, &u, &info, &err,
                             &m),
                 CS_EINPUT);
    cr_assert(strstr(err.msg, "no mapping for game system `Warhammer 40,000 10th Edition` (id "
                              "sys-352e-adc2-7639-d6a9)"),
              "%s", err.msg);
    cr_assert(strstr(err.msg, "Warhammer The Old World (sys-31d1-bf57-53ea-ad55, tow.ini)"), "%s",
              err.msg);
    cs_units_free(&u);
    free(m);
}

Test(roster, roster_names_by_suffix)
{
    cr_assert(cs_roster_is("a.ros"));
    cr_assert(cs_roster_is("dir/My List.ROSZ"));
    cr_assert(cs_roster_is("list.json"));
    cr_assert_not(cs_roster_is("x.cat"));
    cr_assert_not(cs_roster_is(".ros"));
}
