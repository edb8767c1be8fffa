/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_UNITSRC_H
#define CHARGESIM_UNITSRC_H
/* Unit sources (io layer): the file formats that fill the unit model of
 * units.h, and the table that shows its analysis. `chargesim units` runs
 * five stages, one file each, in this order (src/req/requnits.c, the
 * request that the command line and the page both run):
 *
 *   1 read the source       src/io/units/units_source.c: what SOURCE names (a
 *                           CSV, a catalogue, a folder), each file's mapping
 *                           (by its game system), the BattleScribe documents
 *                           parsed by libxml2 with their id index
 *   2 resolve entries       src/io/units/units_resolve.c: which entries are units,
 *                           each unit's profiles, options and points, the
 *                           texts of the characteristics the mapping names;
 *                           a units CSV: src/io/units/units_csv.c (libcsv), one
 *                           row one unit, its cells the texts
 *   3 map characteristics   src/io/units/units_settle.c: the texts read in their
 *                           format into parameter values (cs_units_settle),
 *                           units kept or left out with notes -> cs_units
 *   4 analyse               src/sim/runs/units.c (units.h): exact per-unit odds
 *   5 table                 src/io/units/units_table.c: CSV, Markdown or LaTeX
 *
 * The mapping files the stages follow (experiments/mappings/<system>.ini,
 * libinih: which characteristic feeds which ruleset parameter, fixed and
 * locked parameters, the cost type) are read by src/io/units/units_ini.c.
 *
 * A unit lacking a value the mapping marks required, or holding one that does
 * not parse or that its profiles give twice with different text, is never
 * guessed: it is left out and a note says which unit and what is wrong
 * (a word beside one numeric value is the one exception: cs_units_settle).
 * Errors that stop a read (malformed XML or CSV, a broken link, a mapping
 * naming an unknown parameter) come back as CS_EINPUT with a message naming
 * the file, the line and the element or column, in a cs_error. */
#include <stdbool.h>
#include <stddef.h>

#include "chargesim/error.h"
#include "chargesim/status.h"
#include "chargesim/table.h"
#include "chargesim/units.h"

/* ---- mapping files (src/io/units/units_ini.c) ----------------------------- */

/* Reads one mapping file. Unknown sections or keys, a missing [units]
 * ruleset, a bad format name: CS_EINPUT naming file:line. */
cs_status cs_units_mapping_load(const char *path, cs_units_mapping *out, cs_error *err);

/* Resolves the mapping's names against the ruleset table: the ruleset must
 * be built in, every parameter and metric must exist, fixed values must be
 * in the parameter's range. CS_EINPUT naming the mapping file otherwise. */
cs_status cs_units_mapping_bind(cs_units_mapping *m, cs_error *err);

/* Item i of a [rule NAME]'s comma-separated `param` list, with its value
 * (or its otherwise value) into value: `param = roll_bonus, range_bonus`
 * with `value = 1, 1`. False past the end, or with no param (or an empty
 * otherwise). */
bool cs_units_rule_item(const cs_units_rule *r, int i, bool otherwise, char *param,
                        size_t pcap, char *value, size_t vcap);

/* Every *.ini of a directory, in name order. *out is malloc'ed (free()). */
cs_status cs_units_mapping_load_dir(const char *dir, cs_units_mapping **out, int *n, cs_error *err);

/* A mapping file, or every *.ini of a directory (cs_units_mapping_load_dir).
 * *out is malloc'ed (free()). */
cs_status cs_units_mapping_load_path(const char *path, cs_units_mapping **out, int *n,
                                     cs_error *err);

/* ---- stage 1: read the source (src/io/units/units_source.c) ------------------- */

/* Stages 1 to 3 for SOURCE: a units CSV (.csv), a BattleScribe catalogue
 * (.cat) or game system (.gst), or a directory (every .cat in it; its .gst
 * files when it has none). Each BattleScribe file takes the mapping among
 * `maps` whose game_system_id is its game system's (with `rules`, whose
 * ruleset is that too; bound here); more than one, or none: CS_EINPUT.
 * Appends every unit and note to `units`. */
cs_status cs_units_read_source(const char *source, cs_units_mapping *maps, int n_maps,
                               const char *rules, cs_units *units, cs_error *err);

/* The document library's (units_doc.c), shared with the mapping files. */

/* The files of a directory whose names end in one of `suffixes` (NULL-
 * terminated), hidden ones aside, as dir/name in name order; *out is
 * malloc'ed (free()), each entry CS_UNITS_PATH long. */
cs_status cs_units_list_files(const char *dir, const char *const *suffixes,
                              char (**out)[CS_UNITS_PATH], int *n, cs_error *err);

/* The gameSystemId of a .cat (or the id of a .gst), to pick a mapping. */
cs_status cs_units_bs_system(const char *path, char *id, size_t idcap, cs_error *err);

/* ---- stage 2: resolve entries (src/io/units/units_resolve.c, units_csv.c) ------ */

/* BattleScribe. `path` is a .cat (its .gst, the file in the same directory
 * whose root id is the catalogue's gameSystemId, and the catalogues it
 * links, found there by root id, are read for links) or a .gst. Units are
 * the selection entries of type unit or model not nested in another such
 * entry, defined in the file or reached from it by an entry link outside
 * any unit, and the entries typed unit a unit nests or links (detachments);
 * each unit's profiles are its own (info groups included), those its info
 * links point to (a rule link's <rule>, for its name only: a [rule NAME]
 * without a row), those of its model children (nested, in groups, or
 * linked), and those of the "upgrade" children its models must take at
 * least once (min selections >= 1: models typed so, T9A's Steppe
 * Wolfhounds and Feldraks). Shared entries are resolved once per unit
 * (linear in the entries however often they are linked); a cycle of links
 * is CS_EINPUT. With the mapping's mount_type / mount_group, mounts are
 * not models: a unit gets one row with the mounts it must take, or a row
 * per mount it may choose (and one on foot), see
 * experiments/mappings/README.md. The whole entry, options included
 * (optional upgrades, groups, every link; not mounts), is also looked
 * through, each element once, for the mapped characteristics: see
 * cs_units_settle for how those texts are used. Every file read is added
 * to out's inputs with its SHA-256. `map` must be bound. Appends to `out`. */
cs_status cs_units_read_bs(const char *path, const cs_units_mapping *map, cs_units *out,
                           cs_error *err);

/* Units CSV: a header row, then one unit per row. Columns:
 *   name     required, the unit's name
 *   ruleset  the row's ruleset (may be left out when `rules` is given)
 *   points   optional, a number >= 0
 *   base     optional, base size WxD in mm (20x20, 25x50)
 *   any parameter of the row's ruleset, e.g. advance_rate, speed, hit
 * A cell may be empty or `-` (no value). A parameter the mapping feeds is
 * read in its format (3+ is 3; an inch mark needs CSV quoting, "4""", so 4
 * is simpler); any other is handed to the experiment model as written. The
 * file is strict CSV (libcsv CSV_STRICT): a stray quote is an error.
 * Each row's ruleset picks its mapping among `maps` (the one mapping that
 * names that ruleset; bound here), which says which parameters are required
 * and gives the fixed ones. */
cs_status cs_units_read_csv(const char *path, cs_units_mapping *maps, int n_maps, const char *rules,
                            cs_units *out, cs_error *err);

/* ---- stage 3: map characteristics (src/io/units/units_settle.c) ------------------ */

/* What a reader found for one mapped characteristic of one unit: the
 * distinct texts (trimmed) its profiles give, each with its line. */
#define CS_UNITS_FOUND 4 /* distinct texts kept; past that, only counted */
typedef struct cs_units_found {
    int n; /* distinct texts seen: 0 absent, 1, 2 or more (a conflict, unless
              all but one are words: see cs_units_settle) */
    char text[CS_UNITS_FOUND][CS_UNITS_TEXT]; /* the first CS_UNITS_FOUND of them */
    const char *file[CS_UNITS_FOUND]; /* NULL: the unit's own file; else must outlive settle */
    int line[CS_UNITS_FOUND];
    /* BattleScribe only (NULL otherwise): the texts of the same
     * characteristic anywhere in the unit's entry, its options included
     * (mounts, upgrades, groups, shared entries and profiles it links). */
    const struct cs_units_found *options;
} cs_units_found;

/* Records one text for a characteristic: a repeat of a known text is ignored. */
void cs_units_found_add(cs_units_found *f, const char *text, const char *file, int line);

/* Does one of the texts kept hold a digit? */
bool cs_units_found_has_digit(const cs_units_found *f);

/* For a characteristic read from the mount (mount = yes): a `-` beside a
 * number is a model that moves with the others (a rider, a chariot's body,
 * a war machine beside its crew), no value of its own, so only the texts
 * with a digit stay (two numbers still contradict each other). Nothing
 * changes when no text has a digit, or more were seen than kept. */
void cs_units_found_drop_words(cs_units_found *f);

/* Turns found[i] (one per map->chars[i]) into u's values, then appends u to
 * out when every required value is there (*kept = true), with a note when
 * something is missing, unreadable or contradictory, naming characteristics.
 * Several texts contradict each other unless exactly one of them holds a
 * digit: the others are words, no value at all (T9A's Mageblight Gremlins
 * give Adv `Standard`, a data-entry slip, beside `5"`); that one is taken
 * and a CS_UNIT_WARNED note names every line. Two texts with digits (`5"`
 * and `6"`) stay a conflict: which one holds is never guessed.
 * With found[i].options set (the reader looked through the unit's options):
 * a unit whose own profiles lack the characteristic takes the one value its
 * options give, with a CS_UNIT_WARNED note naming the lines, and is left out
 * (CS_UNIT_CONFLICT) naming them when they give several; a unit with its own
 * value keeps it (a character on foot) and a CS_UNIT_WARNED note names the
 * other values its options give (its mounts).
 * A unit that cannot declare a charge (a [type NAME] of its type, case
 * aside, or a [rule NAME] it has, with declare = no: u->no_declare) is
 * kept whatever its values: one missing or unreadable, required or not, is
 * named in its note (its speed is never used). u->type is first respelled
 * as the mapping's type_names write it.
 * With `csv` the notes name columns (the parameters) and an unreadable value
 * is an error instead (CS_EINPUT, naming file:line and the column): a CSV is
 * written by its user, a catalogue is third-party data.
 * u->name, file, line, catalogue and map must be set. */
cs_status cs_units_settle(cs_units *out, cs_unit *u, const cs_units_found *found, bool csv,
                          bool *kept, cs_error *err);

/* Notes an option, not a unit (kind CS_UNIT_OPTION): an item that grants
 * a mapped rule only in its prose (the Flying Carpet's "gains the Fly (8)
 * and Swiftstride special rules"), which is not read. Once per file:line,
 * however many units may take it. */
cs_status cs_units_note_option(cs_units *out, const char *name, const char *file, int line,
                               const char *what);

/* One note as `chargesim units` words it, `FILE:LINE: unit `NAME` left out:
 * WHAT` (an option's: `FILE:LINE: option `NAME`: WHAT`; a JSON roster's has
 * no line), into buf; the one wording both front ends show. */
void cs_units_note_text(const cs_unit_note *n, char *buf, size_t cap);

/* The count line after the notes, `N units in the table, N left out, N
 * without metrics` and the warnings, notes and options noted there are. */
void cs_units_notes_count(const cs_units *u, char *buf, size_t cap);

/* Parses a characteristic's text in `format` into a number. Returns false
 * (with `why` set to a static reason) when it does not read; `*absent` is set
 * for "", "-" and "*" (the source's "none"). */
bool cs_units_parse_value(const char *text, cs_units_format format, bool alternate, double *num,
                          bool *absent, const char **why);

/* The alternate (Fly) value of an inches text written in a flier's form,
 * `2" (9")` or `Ground 2", Fly 9"`, as `9"` into buf: false for any other
 * text (one plain distance, or one that does not read). */
bool cs_units_alternate_text(const char *text, char *buf, size_t cap);

/* ---- stage 5: the table (src/io/units/units_table.c) -------------------------- */

/* One row per unit: catalogue, name, ruleset, points, base, type (only when
 * a mapping names a type characteristic), the parameter
 * values units carry (the union of their columns, in order of first
 * appearance), reach_50, reach_75, reach_90, plus1_speed,
 * points_per_inch_75, mean_<metric> for the mappings' metrics, then
 * p_<distance> per grid distance. CSV gives probabilities in [0, 1]; md and
 * tex give percentages, with `title` as heading. Absent values are empty
 * cells (CSV) or `-`. Every column is the column registry's (columns.h):
 * its name, label, description (the CSVW metadata's), kind and unit. t is
 * initialised here (cs_table_free). */
cs_status cs_units_table(const cs_units *u, const cs_unit_result *res, const cs_units_grid *g,
                         cs_format fmt, const char *title, cs_table *t);

#endif
