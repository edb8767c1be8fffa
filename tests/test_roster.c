/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rosters (issue 46), the reader's own functions: the zip container
 * (cs_roster_unpack) on the real exports and on archives built here, and
 * cs_roster_read on the three forms of our lists and on New Recruit's
 * numeric ids. tests/roster.py holds the command's tables against the files
 * read independently, against the catalogue rows, and the bad inputs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    return cs_roster_read(data_path(rel), *m, n, NULL, catalogue ? cat : NULL, NULL, u, info,
                          err);
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

/* ---- the container's refusals, one field broken at a time ------------------ */

static cs_status unpack_buf(const unsigned char *buf, size_t n, cs_error *err)
{
    unsigned char *out = NULL;
    size_t on;
    cs_status st = cs_roster_unpack(buf, n, "x.rosz", &out, &on, err);
    free(out);
    return st;
}

/* The offsets in stored_zip's archive of "<roster/>" (9 bytes, name a.ros). */
enum { LFH = 0, DATA = 35, CDH = 44, EOCD = 95 };

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

Test(roster, each_broken_field_of_a_zip_is_refused_by_name)
{
    static const struct {
        int at;
        unsigned v;
        bool wide;
        const char *why;
    } cases[] = {
        {EOCD + 4, 1, false, "spanning several disks"},
        {EOCD + 8, 0xffff, false, "spanning several disks"},
        {EOCD + 16, 0x0fff, true, "lies outside the file"},
        {CDH, 0, false, "central directory is damaged"},
        {CDH + 28, 200, false, "central directory is damaged"},
        {CDH + 10, 12, false, "compression method 12"},
        {CDH + 42, 7, false, "local header is missing"},
        {CDH + 20, 200, false, "data is cut short"},
        {CDH + 24, 8, false, "sizes differ"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        unsigned char buf[512];
        size_t n = stored_zip(buf, "<roster/>", 0);
        cr_assert_eq(n, (size_t)EOCD + 25, "the layout the offsets assume");
        put16(buf + cases[i].at, cases[i].v);
        if (cases[i].wide)
            put16(buf + cases[i].at + 2, cases[i].v);
        cs_error err = {0};
        cr_assert_eq(unpack_buf(buf, n, &err), CS_EINPUT, "case %zu", i);
        cr_assert(strstr(err.msg, "x.rosz: ") && strstr(err.msg, cases[i].why), "case %zu: %s",
                  i, err.msg);
    }
    unsigned char buf[512];
    size_t n = stored_zip(buf, "<roster/>", 0);
    put16(buf + EOCD + 8, 0xffff);
    put16(buf + EOCD + 10, 0xffff);
    cs_error err = {0};
    cr_assert_eq(unpack_buf(buf, n, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, "zip64"), "%s", err.msg);
}

Test(roster, a_corrupt_deflate_stream_and_an_oversized_document_are_refused)
{
    unsigned char buf[512];
    size_t n = stored_zip(buf, "<roster/>", 0);
    put16(buf + 8, 8); /* deflated: its bytes are no deflate stream */
    put16(buf + CDH + 10, 8);
    memset(buf + DATA, 0xff, 9);
    cs_error err = {0};
    cr_assert_eq(unpack_buf(buf, n, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, "the zip entry is damaged"), "%s", err.msg);
    size_t big = CS_ROSTER_MAX_BYTES + 1;
    unsigned char *doc = calloc(big, 1);
    cr_assert(doc);
    cr_assert_eq(unpack_buf(doc, big, &err), CS_ELIMIT);
    cr_assert(strstr(err.msg, "more than the 16777216 a roster may have"), "%s", err.msg);
    free(doc);
}

/* ---- the reader on small rosters written here ------------------------------ */

static const char *tmp_roster(const char *name, const char *text)
{
    static char path[1200];
    snprintf(path, sizeof path, "%s/%s", th_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* The mappings of the last read_at, which its units point to. */
static cs_units_mapping *read_maps;

/* Reads the roster at `path` with the mapping file or folder `maps`; the
 * mappings live until done_at. */
static cs_status read_at(const char *path, const char *maps, cs_units *u, cs_error *err)
{
    cs_roster_info info;
    int n;
    free(read_maps);
    cr_assert_eq(cs_units_mapping_load_path(maps, &read_maps, &n, err), CS_OK, "%s", err->msg);
    *u = (cs_units){0};
    return cs_roster_read(path, read_maps, n, NULL, NULL, NULL, u, &info, err);
}

/* Frees the units read and their mappings. */
static void done_at(cs_units *u)
{
    cs_units_free(u);
    free(read_maps);
    read_maps = NULL;
}

static char *map_dir(void)
{
    static char path[1200];
    snprintf(path, sizeof path, "%s/experiments/mappings", th_root());
    return path;
}

Test(roster, refusals_name_the_file)
{
    cs_units u;
    cs_error err = {0};
    cr_assert_eq(read_at("/nonexistent/list.ros", map_dir(), &u, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, "/nonexistent/list.ros: cannot open"), "%s", err.msg);
    done_at(&u);
    const char *p = tmp_roster("nosys.ros", "<roster name=\"x\"/>");
    cr_assert_eq(read_at(p, map_dir(), &u, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, "<roster> has no gameSystemId"), "%s", err.msg);
    done_at(&u);
    /* Two mappings for one system: --rules or --mapping chooses. */
    char dir[1200], a[1300], b[1300];
    snprintf(dir, sizeof dir, "%s/maps", th_tmpdir());
    cr_assert_eq(mkdir(dir, 0700), 0);
    snprintf(a, sizeof a, "%s/tests/data/rosters/mappings/aos4.ini", th_root());
    size_t n;
    char *text = th_slurp(a, &n);
    snprintf(a, sizeof a, "%s/one.ini", dir);
    snprintf(b, sizeof b, "%s/two.ini", dir);
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(i ? b : a, "wb");
        fwrite(text, 1, n, f);
        fclose(f);
    }
    free(text);
    cr_assert_eq(read_at(data_path("newrecruit-aos4-sce-001-minimal.json"), dir, &u, &err),
                 CS_EINPUT);
    cr_assert(strstr(err.msg, "both fit game system e51d-b1a3-75fc-dc3g"), "%s", err.msg);
    done_at(&u);
}

/* A list of one unit of The Old World, its selections written in. */
static const char *tow_roster(const char *name, const char *selections)
{
    static char text[8192];
    snprintf(text, sizeof text,
             "\xef\xbb\xbf  <roster name=\"t\" gameSystemId=\"sys-31d1-bf57-53ea-ad55\" "
             "gameSystemName=\"Warhammer The Old World\"><forces><force catalogueName=\"C\">"
             "<selections>%s</selections></force></forces></roster>",
             selections);
    return tmp_roster(name, text);
}

#define M_PROFILE(m) "<profiles><profile id=\"x\" name=\"p\"><characteristics>" \
                     "<characteristic name=\"M\">" m "</characteristic>"         \
                     "</characteristics></profile></profiles>"

Test(roster, an_option_that_names_a_rule_is_noted_and_a_detachment_is_a_unit)
{
    const char *p = tow_roster(
        "opt.ros",
        "<selection name=\"Hero\" customName=\"Sir\" type=\"unit\" number=\"1\">"
        "<selections><selection name=\"Hero\" type=\"model\" number=\"1\">" M_PROFILE("4")
        "<selections><selection name=\"Boots\" type=\"upgrade\" number=\"1\"><rules>"
        "<rule name=\"Swiftstride\"/></rules></selection>"
        "<selection name=\"Steed\" customName=\"Bucephalus\" type=\"model\" number=\"1\" "
        "group=\"Mount\">" M_PROFILE("9") "</selection></selections></selection>"
        "<selection name=\"Pages\" type=\"unit\" number=\"1\"><selections>"
        "<selection name=\"Page\" type=\"model\" number=\"5\">" M_PROFILE("5")
        "</selection></selections></selection></selections></selection>");
    cs_units u;
    cs_error err = {0};
    cr_assert_eq(read_at(p, map_dir(), &u, &err), CS_OK, "%s", err.msg);
    const cs_unit *sir = th_units_find(&u, "Sir (on Bucephalus)");
    const cs_unit *pages = th_units_find(&u, "Pages");
    cr_assert(sir && pages, "%d units", u.n);
    cr_assert_str_eq(th_units_value(sir, "move"), "9");
    cr_assert_str_eq(th_units_value(sir, "swiftstride"), "true");
    cr_assert_eq(pages->models, 5);
    cr_assert_str_eq(th_units_value(pages, "move"), "5");
    bool noted = false;
    for (int i = 0; i < u.n_notes; i++)
        noted = noted || strstr(u.note[i].what, "has Swiftstride from the option `Boots` chosen");
    cr_assert(noted);
    done_at(&u);
}

/* src/io/units/roster_doc.h's guard: nesting deeper is refused. */
#define GUARD 256

/* A JSON roster of the aos4 test system nesting `wrap`/`one` pairs `depth`
 * deep (libxml2 refuses XML so deep itself: JSON reaches the guard). */
static const char *deep_json(const char *name, const char *wrap, int depth)
{
    static char text[64 * 1024];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "{\"roster\": {\"gameSystemId\": \"e51d-b1a3-75fc-dc3g\", "
                                "\"forces\": [{");
    for (int i = 0; i < depth; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "\"%s\": [{\"type\": \"upgrade\", ",
                              wrap);
    n += (size_t)snprintf(text + n, sizeof text - n, "\"name\": \"x\"");
    for (int i = 0; i < depth; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "}]");
    snprintf(text + n, sizeof text - n, "}]}}");
    return tmp_roster(name, text);
}

Test(roster, nesting_past_the_guard_is_refused)
{
    char maps[1200];
    snprintf(maps, sizeof maps, "%s/tests/data/rosters/mappings", th_root());
    cs_units u;
    cs_error err = {0};
    cr_assert_eq(read_at(deep_json("deep.json", "selections", GUARD + 2), maps, &u, &err),
                 CS_EINPUT);
    cr_assert(strstr(err.msg, "selections nested deeper than 256"), "%s", err.msg);
    done_at(&u);
    cr_assert_eq(read_at(deep_json("deepforce.json", "forces", GUARD + 2), maps, &u, &err),
                 CS_EINPUT);
    cr_assert(strstr(err.msg, "forces nested deeper than 256"), "%s", err.msg);
    done_at(&u);
    /* The JSON rebuild's own guard. */
    static char text[16 * 1024];
    size_t n = (size_t)snprintf(text, sizeof text, "{\"roster\":");
    for (int i = 0; i < 600; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "{\"a\":");
    n += (size_t)snprintf(text + n, sizeof text - n, "{}");
    for (int i = 0; i < 601; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "}");
    cr_assert_eq(read_at(tmp_roster("deeper.json", text), maps, &u, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, "JSON nested deeper than 512"), "%s", err.msg);
    done_at(&u);
}

Test(roster, json_scalars_in_arrays_and_objects_as_members_are_read_as_the_xml)
{
    const char *p = tmp_roster(
        "odd.json",
        "{\"roster\": {\"gameSystemId\": \"e51d-b1a3-75fc-dc3g\", \"note\": {\"$text\": [1]},"
        " \"forces\": [3, null, {\"catalogueName\": \"C\", \"selections\": [\"x\", {\"name\": "
        "\"U\", \"type\": \"unit\", \"hidden\": false, \"profiles\": [{\"characteristics\": "
        "[{\"name\": \"Move\", \"$text\": 6}]}]}]}]}}");
    cs_units u;
    cs_error err = {0};
    char maps[1200];
    snprintf(maps, sizeof maps, "%s/tests/data/rosters/mappings", th_root());
    cr_assert_eq(read_at(p, maps, &u, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(u.n, 1);
    cr_assert_str_eq(th_units_value(&u.unit[0], "move"), "6");
    done_at(&u);
}

/* ---- XML namespaces (issue 50) --------------------------------------------- */

/* A roster written in the catalogue's schema is not BattleScribe's roster:
 * exit 2 with one line naming the file and the namespace expected. One in
 * BattleScribe's namespace reads; one in none (hand-written) reads too, and
 * the table's heading says so. */
Test(roster, a_roster_in_another_namespace_is_refused_in_one_line)
{
    static const char *const body =
        "gameSystemId=\"sys-31d1-bf57-53ea-ad55\" gameSystemName=\"Warhammer The Old World\">"
        "<forces><force catalogueName=\"C\"><selections>"
        "<selection name=\"Pages\" type=\"unit\" number=\"1\"><selections>"
        "<selection name=\"Page\" type=\"model\" number=\"5\">" M_PROFILE("5")
        "</selection></selections></selection></selections></force></forces></roster>";
    static const char *const ns[] = {"http://www.battlescribe.net/schema/catalogueSchema",
                                     "http://www.battlescribe.net/schema/rosterSchema", NULL};
    char text[4096], cmd[2600];
    for (int i = 0; i < 3; i++) {
        char xmlns[200] = "";
        if (ns[i])
            snprintf(xmlns, sizeof xmlns, "xmlns=\"%s\" ", ns[i]);
        snprintf(text, sizeof text, "<roster %sname=\"t\" %s", xmlns, body);
        const char *p = tmp_roster(i == 0 ? "other.ros" : i == 1 ? "bs.ros" : "plain.ros", text);
        snprintf(cmd, sizeof cmd, "units '%s' --mapping '%s' --distance 5 --format md", p,
                 map_dir());
        char *out = NULL, *err = NULL;
        int rc = th_cli(cmd, &out, &err);
        if (i == 0) {
            cr_expect_eq(rc, 2);
            cr_expect(strstr(err, "other.ros:1: <roster> is in the XML namespace "
                                  "http://www.battlescribe.net/schema/catalogueSchema, not "
                                  "BattleScribe's http://www.battlescribe.net/schema/"
                                  "rosterSchema\n"),
                      "%s", err);
            cr_expect_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);
            cr_expect_str_eq(out, "");
        } else {
            cr_expect_eq(rc, 0, "%s", err);
            cr_expect(strstr(out, "Pages"), "%s", out);
            bool said = strstr(out, "without BattleScribe's XML namespace: plain.ros") != NULL;
            cr_expect_eq(said, i == 2, "%s", out);
        }
        free(out);
        free(err);
    }
    /* New Recruit's JSON and the shipped catalogues it reads: no such mark. */
    snprintf(cmd, sizeof cmd, "units '%s/tests/data/rosters/own/tow-bretonnia.json' --mapping "
             "'%s' --distance 5 --format md", th_root(), map_dir());
    char *out = NULL;
    cr_assert_eq(th_cli(cmd, &out, NULL), 0);
    cr_expect(!strstr(out, "without BattleScribe's XML namespace"), "%s", out);
    free(out);
}

/* ---- the shipped catalogue (issue 50) -------------------------------------- */

/* Our Bretonnian list as BattleScribe writes it, without New Recruit's
 * `group` attributes, alone in a folder: its catalogue (the roster's
 * catalogueId) is the one data/ ships, found beside the mappings, and the
 * rows are those the catalogue given by --catalogue makes: the Duke on his
 * Royal Pegasus. With no catalogue anywhere (CS_DATA an empty folder) the
 * Duke, a rider of M 4 with a mount of M 8 that nothing tells apart from a
 * second model, is left out with a note saying why, and no row of his is
 * tabled (no "Duke (flying)" of two models). */
Test(roster, a_roster_without_group_attributes_finds_its_catalogue_in_the_shipped_data)
{
    char src[1200], dir[1300], list[1400], cmd[4000], empty[1300];
    snprintf(src, sizeof src, "%s/tests/data/rosters/own/tow-bretonnia.ros", th_root());
    snprintf(dir, sizeof dir, "%s/alone", th_tmpdir());
    snprintf(empty, sizeof empty, "%s/empty", th_tmpdir());
    cr_assert_eq(mkdir(dir, 0700), 0);
    cr_assert_eq(mkdir(empty, 0700), 0);
    snprintf(list, sizeof list, "%s/list.ros", dir);
    snprintf(cmd, sizeof cmd, "sed 's/ group=\"[^\"]*\"//g' '%s' >'%s'", src, list);
    cr_assert_eq(system(cmd), 0);
    size_t n;
    char *text = th_slurp(list, &n);
    cr_assert(!strstr(text, " group="), "the list has no group attribute left");
    free(text);
    char *found = NULL, *given = NULL, *none = NULL, *err = NULL;
    snprintf(cmd, sizeof cmd, "units '%s' --mapping '%s' --distance 6..12", list, map_dir());
    cr_assert_eq(th_cli(cmd, &found, NULL), 0);
    snprintf(cmd, sizeof cmd, "units '%s' --mapping '%s' --distance 6..12 --catalogue "
             "'%s/data/tow/Bretonnians.cat'", list, map_dir(), th_root());
    cr_assert_eq(th_cli(cmd, &given, NULL), 0);
    cr_expect_str_eq(found, given);
    cr_expect(strstr(found, ",Duke (on Royal Pegasus),"), "%s", found);
    cr_expect(strstr(found, ",\"Duke (on Royal Pegasus, flying)\","), "%s", found);
    snprintf(cmd, sizeof cmd, "units '%s' --mapping '%s' --distance 6..12", list, map_dir());
    cr_assert_eq(setenv("CS_DATA", empty, 1), 0);
    cr_assert_eq(th_cli(cmd, &none, &err), 0, "%s", err);
    unsetenv("CS_DATA");
    cr_expect(!strstr(none, "Duke"), "%s", none);
    cr_expect(strstr(err, "unit `Duke` left out: M given twice") &&
                  strstr(err, "no catalogue found for the roster"),
              "%s", err);
    free(found);
    free(given);
    free(none);
    free(err);
}

/* The id the roster's first <force> names, read from its text. */
static void first_force_catalogue_id(const char *path, char *id, size_t cap)
{
    size_t n;
    char *text = th_slurp(path, &n);
    cr_assert(text);
    const char *force = strstr(text, "<force ");
    cr_assert(force, "%s has a force", path);
    const char *at = strstr(force, "catalogueId=\"");
    cr_assert(at);
    at += strlen("catalogueId=\"");
    size_t len = strcspn(at, "\"");
    cr_assert(len > 0 && len < cap);
    memcpy(id, at, len);
    id[len] = '\0';
    free(text);
}

/* The field the page acts on (issue 50): with no catalogue beside the
 * stripped list nor in the data folder, cs_roster_info names the first
 * force's catalogueId as wanted (src/web/webunits.c hands it to the page as
 * "catalogue_wanted"); with the shipped data/ as data folder the catalogue
 * is found (data/tow/Bretonnians.cat) and nothing is wanted; a catalogue
 * given wants nothing either. */
Test(roster, a_roster_whose_catalogue_is_nowhere_names_the_catalogue_it_wants)
{
    char src[1200], dir[1300], list[1400], cmd[4000], empty[1300], data[1300], id[CS_UNITS_TEXT];
    snprintf(src, sizeof src, "%s/tests/data/rosters/own/tow-bretonnia.ros", th_root());
    snprintf(dir, sizeof dir, "%s/alone", th_tmpdir());
    snprintf(empty, sizeof empty, "%s/empty", th_tmpdir());
    snprintf(data, sizeof data, "%s/data", th_root());
    cr_assert_eq(mkdir(dir, 0700), 0);
    cr_assert_eq(mkdir(empty, 0700), 0);
    snprintf(list, sizeof list, "%s/list.ros", dir);
    snprintf(cmd, sizeof cmd, "sed 's/ group=\"[^\"]*\"//g' '%s' >'%s'", src, list);
    cr_assert_eq(system(cmd), 0);
    first_force_catalogue_id(list, id, sizeof id);
    const char *const dirs[] = {empty, data, empty};
    const bool given[] = {false, false, true};
    for (int k = 0; k < 3; k++) {
        cs_units_mapping *maps;
        int n;
        cs_error err = {0};
        cs_roster_info info;
        cs_units u = {0};
        char cat[1400];
        snprintf(cat, sizeof cat, "%s/tow/Bretonnians.cat", data);
        cr_assert_eq(cs_units_mapping_load_path(map_dir(), &maps, &n, &err), CS_OK, "%s", err.msg);
        cr_assert_eq(cs_roster_read(list, maps, n, NULL, given[k] ? cat : NULL, dirs[k], &u, &info,
                                    &err),
                     CS_OK, "%s", err.msg);
        if (k == 0) {
            cr_expect_str_eq(info.catalogue_wanted, id);
            cr_expect_str_eq(info.catalogue, "");
        } else {
            cr_expect_str_eq(info.catalogue_wanted, "", "case %d", k);
            cr_expect(strstr(info.catalogue, "tow/Bretonnians.cat"), "case %d: %s", k,
                      info.catalogue);
        }
        cs_units_free(&u);
        free(maps);
    }
}
