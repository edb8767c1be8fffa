/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The charge-rules audits (issue 50): docs/rules/GAME-charge-rules.md lists
 * every rule in the game's data whose text speaks of a charge, and says of
 * each whether the tables model it, note it on the rows, or why it is not
 * about how far a charge reaches. This test finds those rules in data/ with
 * the same text pattern and fails, naming each, on
 *   - a rule the data has and the audit does not classify (a new data drop, a
 *     rule missed: it cannot pass silently),
 *   - an entry whose class is not one of the three, or a row not in the
 *     table's form,
 *   - an entry naming a rule that no longer matches in the data,
 *   - a name given two rows, or given several texts without saying so,
 *   - a rule issue 50 names that the pattern no longer catches,
 *   - a noted rule whose audit names a mapping section that the game's
 *     mapping does not have,
 *   - an audit that states another pattern than the one used here.
 *
 * What counts as a rule: a <rule> element with a non-empty <description>,
 * and a <profile> whose typeName (profileTypeName in schema 2.01) is one of
 * the game's rule-text types below; its text is its characteristics' texts.
 * The text's whitespace runs (and no-break spaces) are made one space, then
 * the pattern is searched, case-insensitive (POSIX extended). Rules are
 * deduplicated by name. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <libxml/parser.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/helpers.h"

/* The pattern of The Old World and The Ninth Age: declaring a charge, the
 * Charge roll, Charge Range or charge distance, "Charge, Flee or Pursuit
 * roll" and "Charge or Pursuit roll", the maximum (possible) charge range,
 * a unit that cannot charge, and The Ninth Age's Devastating Charge (+X″ Adv),
 * which adds to the Advance Rate of the charge range. */
#define REACH_PATTERN                                                                          \
    "declar[a-z]*( [a-z]+){0,3} charges?|charge[sd]? (roll|range|distance|action)s?|"         \
    "charge,? (flee|pursuit|or)|maximum( possible)? charge|"                                  \
    "(cannot|can not|may not|must not) (make a |declare a )?charge|charge \\([^)]*adv"

/* A Song of Ice and Fire: the Charge is an action whose reach is Speed + D6;
 * its texts have no roll or range words, so every form of the word. */
#define ACTION_PATTERN "charg"

#define MAX_TYPES 6
#define MAX_NAMED 16

typedef struct {
    const char *key;                 /* the test's name for the game */
    const char *dir;                 /* data/DIR */
    const char *audit;               /* docs/rules/AUDIT */
    const char *mapping;             /* experiments/mappings/MAPPING */
    const char *pattern;             /* the text pattern, as the audit states it */
    const char *types[MAX_TYPES];    /* profile types that hold a rule's text */
    const char *named[MAX_NAMED];    /* rules issue 50 names: the pattern must catch them */
} game;

static const game tow = {
    "tow", "tow", "tow-charge-rules.md", "tow.ini", REACH_PATTERN, {"Special Rule"},
    {"Weapon of War", "Random Movement", "Swiftstride", "Finest Warhorses",
     "Order of the Knights Panther", "Ravenous Hunger", "Crusader's Zeal", "Battle Hunger",
     "First to the Fray", "Virtue of The Impetuous Knight", "Temperamental"},
};

static const game t9a = {
    "t9a-2nd", "bsdata-t9a-2nd", "t9a-2nd-charge-rules.md", "t9a-2nd.ini", REACH_PATTERN,
    {NULL},
    {"War Machine", "Random Movement", "Swiftstride", "Favour of Kuulima, Goddess of Envy",
     "Greenfire Eyes", "Devotees of Tyranny"},
};

static const game asoiaf = {
    "asoiaf", "bsdata-asoiaf", "asoiaf-charge-rules.md", "asoiaf.ini", ACTION_PATTERN,
    {"Unit Attachment", "Attachment", "Attachment Card", "Non-Combatant Unit", "NCU"},
    {"War Machine"},
};

/* One rule name the pattern found: its files and how many texts it has. */
typedef struct {
    char *name;
    char files[600];  /* comma separated, in the order met */
    char *text[16];   /* its different texts (normalised) */
    int n_text;
    bool seen;        /* named by an audit row */
} found;

typedef struct {
    found *f;
    int n, cap;
} found_list;

static found *find(found_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->f[i].name, name) == 0)
            return &l->f[i];
    return NULL;
}

/* Whitespace runs and no-break spaces (UTF-8 C2 A0) become one space. */
static char *normalise(const char *s)
{
    char *out = malloc(strlen(s) + 1);
    cr_assert_not_null(out);
    size_t k = 0;
    bool space = false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        bool ws = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v';
        if (p[0] == 0xC2 && p[1] == 0xA0) {
            ws = true;
            p++;
        }
        if (ws) {
            space = true;
            continue;
        }
        if (space && k > 0)
            out[k++] = ' ';
        space = false;
        out[k++] = (char)*p;
    }
    out[k] = '\0';
    return out;
}

static void add(found_list *l, const char *name, const char *file, char *text)
{
    found *f = find(l, name);
    if (!f) {
        if (l->n == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 64;
            l->f = realloc(l->f, (size_t)l->cap * sizeof *l->f);
            cr_assert_not_null(l->f);
        }
        f = &l->f[l->n++];
        *f = (found){.name = strdup(name)};
    }
    if (!strstr(f->files, file)) {
        size_t used = strlen(f->files);
        snprintf(f->files + used, sizeof f->files - used, "%s%s", used ? ", " : "", file);
    }
    for (int i = 0; i < f->n_text; i++)
        if (strcmp(f->text[i], text) == 0) {
            free(text);
            return;
        }
    cr_assert_lt(f->n_text, 16, "rule `%s` has more than 16 texts", name);
    f->text[f->n_text++] = text;
}

static bool is(const xmlNode *n, const char *local)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, local) == 0;
}

/* The characteristics' texts (value attribute or content) of a profile. */
static void profile_text(const xmlNode *n, char **buf, size_t *len)
{
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (!is(c, "characteristic")) {
            profile_text(c, buf, len);
            continue;
        }
        xmlChar *v = xmlGetProp(c, (const xmlChar *)"value");
        xmlChar *t = xmlNodeGetContent(c);
        size_t add_len = (v ? strlen((char *)v) : 0) + (t ? strlen((char *)t) : 0) + 2;
        *buf = realloc(*buf, *len + add_len + 1);
        cr_assert_not_null(*buf);
        *len += (size_t)snprintf(*buf + *len, add_len + 1, "%s %s ", v ? (char *)v : "",
                                 t ? (char *)t : "");
        xmlFree(v);
        xmlFree(t);
    }
}

static bool rule_type(const game *g, const xmlNode *n)
{
    xmlChar *t = xmlGetProp(n, (const xmlChar *)"typeName");
    if (!t)
        t = xmlGetProp(n, (const xmlChar *)"profileTypeName");
    bool yes = false;
    for (int i = 0; t && i < MAX_TYPES && g->types[i]; i++)
        yes = yes || strcmp((char *)t, g->types[i]) == 0;
    xmlFree(t);
    return yes;
}

/* The rule's text (malloc'd, normalised), or NULL when n is not a rule. */
static char *rule_text(const game *g, const xmlNode *n)
{
    char *raw = NULL;
    if (is(n, "rule")) {
        for (const xmlNode *c = n->children; c; c = c->next)
            if (is(c, "description")) {
                xmlChar *t = xmlNodeGetContent(c);
                raw = t ? strdup((char *)t) : NULL;
                xmlFree(t);
                break;
            }
    } else if (is(n, "profile") && rule_type(g, n)) {
        size_t len = 0;
        raw = calloc(1, 1);
        profile_text(n, &raw, &len);
    }
    if (!raw)
        return NULL;
    char *text = normalise(raw);
    free(raw);
    if (text[0] == '\0') {
        free(text);
        return NULL;
    }
    return text;
}

static void walk(const game *g, const regex_t *re, const xmlNode *n, const char *file,
                 found_list *out)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        char *text = rule_text(g, n);
        if (text) {
            xmlChar *name = xmlGetProp(n, (const xmlChar *)"name");
            if (name && regexec(re, text, 0, NULL, 0) == 0)
                add(out, (char *)name, file, text);
            else
                free(text);
            xmlFree(name);
        }
        walk(g, re, n->children, file, out);
    }
}

static int catalogue(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 4 && (strcmp(d->d_name + n - 4, ".cat") == 0 || strcmp(d->d_name + n - 4, ".gst") == 0);
}

/* Every rule of data/DIR whose text the game's pattern matches. */
static void extract(const game *g, found_list *out)
{
    regex_t re;
    cr_assert_eq(regcomp(&re, g->pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB), 0,
                 "the pattern of %s does not compile", g->key);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/data/%s", th_root(), g->dir);
    struct dirent **ents;
    int n = scandir(dir, &ents, catalogue, alphasort);
    cr_assert_gt(n, 0, "no catalogue in %s", dir);
    for (int i = 0; i < n; i++) {
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
        xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_HUGE | XML_PARSE_NOWARNING);
        cr_assert_not_null(doc, "%s does not parse", path);
        walk(g, &re, xmlDocGetRootElement(doc), ents[i]->d_name, out);
        xmlFreeDoc(doc);
        free(ents[i]);
    }
    free(ents);
    regfree(&re);
}

static void found_free(found_list *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->f[i].name);
        for (int k = 0; k < l->f[i].n_text; k++)
            free(l->f[i].text[k]);
    }
    free(l->f);
}

/* One row of an audit's table: | rule | class | where | words | how or why |. */
typedef struct {
    char cell[5][1200];
    int line;
} row;

static char *trim(char *s)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* Splits a table line into its cells; false unless it has exactly five. */
static bool split_row(const char *line, row *r)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", line);
    char *p = buf + 1; /* past the leading | */
    int n = 0;
    for (char *bar; (bar = strchr(p, '|')) != NULL; p = bar + 1) {
        *bar = '\0';
        if (n == 5)
            return false;
        snprintf(r->cell[n++], sizeof r->cell[0], "%s", trim(p));
    }
    return n == 5 && trim(p)[0] == '\0';
}

static bool one_of_three(const char *c)
{
    return strcmp(c, "modelled") == 0 || strcmp(c, "noted") == 0 ||
           strcmp(c, "not about reaching") == 0;
}

/* The audit's stated pattern (the text between the backticks of its line
 * `Pattern: `...``), into buf. */
static bool stated_pattern(const char *audit, char *buf, size_t cap)
{
    const char *p = strstr(audit, "\nPattern: `");
    if (!p)
        return false;
    p += strlen("\nPattern: `");
    const char *end = strchr(p, '\n');
    while (end && end > p && end[-1] != '`')
        end--;
    if (!end || end <= p)
        return false;
    snprintf(buf, cap, "%.*s", (int)(end - 1 - p), p);
    return true;
}

/* A noted rule whose how cell names `[rule NAME]`: the mapping has it, with
 * a note (or, for an option only another row could take, an option_note). */
static void check_mapping_note(const game *g, const char *mapping, const row *r)
{
    char section[1300], option[1300];
    snprintf(section, sizeof section, "`[rule %s]`", r->cell[0]);
    if (!strstr(r->cell[4], section))
        return;
    snprintf(section, sizeof section, "\n[rule %s]\nnote = ", r->cell[0]);
    snprintf(option, sizeof option, "\n[rule %s]\noption_note = ", r->cell[0]);
    cr_expect(mapping && (strstr(mapping, section) || strstr(mapping, option)),
              "docs/rules/%s:%d: `%s` is noted through [rule %s], which "
              "experiments/mappings/%s does not have (with a note or an option note)",
              g->audit, r->line, r->cell[0], r->cell[0], g->mapping);
}

/* Checks one table row against the data and the mapping. */
static void check_row(const game *g, found_list *data, const char *mapping, row *r, int *rows)
{
    (*rows)++;
    found *f = find(data, r->cell[0]);
    cr_expect(one_of_three(r->cell[1]),
              "docs/rules/%s:%d: `%s` has class `%s`: expected modelled, noted or "
              "not about reaching",
              g->audit, r->line, r->cell[0], r->cell[1]);
    cr_expect(f != NULL,
              "docs/rules/%s:%d: `%s` is not a rule of data/%s that the pattern matches "
              "(renamed, reworded or gone: remove or rename the entry)",
              g->audit, r->line, r->cell[0], g->dir);
    if (!f)
        return;
    cr_expect(!f->seen, "docs/rules/%s:%d: `%s` has a second row", g->audit, r->line,
              r->cell[0]);
    f->seen = true;
    if (f->n_text > 1) {
        char says[32];
        snprintf(says, sizeof says, "%d texts", f->n_text);
        cr_expect(strstr(r->cell[2], says) != NULL,
                  "docs/rules/%s:%d: `%s` has %d different texts in data/%s: its where "
                  "column must say `%s`",
                  g->audit, r->line, r->cell[0], f->n_text, g->dir, says);
    }
    if (strcmp(r->cell[1], "noted") == 0)
        check_mapping_note(g, mapping, r);
}

/* Reads the audit's table and checks each row; returns how many rows. A
 * line that starts with | after the table's header is a row. */
static int check_audit(const game *g, found_list *data)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/docs/rules/%s", th_root(), g->audit);
    char *audit = th_slurp(path, NULL);
    cr_assert_not_null(audit, "%s cannot be read", path);
    snprintf(path, sizeof path, "%s/experiments/mappings/%s", th_root(), g->mapping);
    char *mapping = th_slurp(path, NULL);
    char stated[600];
    cr_expect(stated_pattern(audit, stated, sizeof stated) && strcmp(stated, g->pattern) == 0,
              "docs/rules/%s: its `Pattern: `...`` line must state the pattern this test uses: %s",
              g->audit, g->pattern);
    int rows = 0, line = 0;
    bool in_table = false;
    for (char *s = audit, *nl; s && *s; s = nl ? nl + 1 : NULL) {
        nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        line++;
        /* Every table line after the header is an entry, wherever it stands. */
        if (strncmp(s, "| rule | class |", 16) == 0) {
            in_table = true;
            continue;
        }
        if (!in_table || s[0] != '|' || strncmp(s, "| ---", 5) == 0)
            continue;
        row r = {.line = line};
        if (!split_row(s, &r)) {
            cr_expect(false, "docs/rules/%s:%d: a row needs five cells "
                             "(| rule | class | where | words | how or why |)", g->audit, line);
            continue;
        }
        check_row(g, data, mapping, &r, &rows);
    }
    free(mapping);
    free(audit);
    return rows;
}

static void check_game(const game *g)
{
    found_list data = {0};
    extract(g, &data);
    for (int i = 0; i < MAX_NAMED && g->named[i]; i++)
        cr_expect(find(&data, g->named[i]) != NULL,
                  "%s: the pattern no longer catches `%s`, a rule issue 50 names", g->key,
                  g->named[i]);
    int rows = check_audit(g, &data);
    int missing = 0;
    for (int i = 0; i < data.n; i++)
        if (!data.f[i].seen) {
            missing++;
            cr_expect(false,
                      "data/%s: rule `%s` (%s) speaks of a charge, and docs/rules/%s does "
                      "not classify it: add its row (modelled, noted or not about reaching)",
                      g->dir, data.f[i].name, data.f[i].files, g->audit);
        }
    cr_log_info("%s: %d rules match the pattern, %d audit rows, %d unclassified", g->key,
                data.n, rows, missing);
    found_free(&data);
}

Test(charge_audit, the_old_world_every_charge_rule_classified, .timeout = 60)
{
    check_game(&tow);
}

Test(charge_audit, the_ninth_age_every_charge_rule_classified, .timeout = 60)
{
    check_game(&t9a);
}

Test(charge_audit, asoiaf_every_charge_rule_classified, .timeout = 60)
{
    check_game(&asoiaf);
}

/* The pattern itself, on sentences of the rules and of rules it
 * must leave out (a charge's effect in combat, flavour). */
Test(charge_audit, the_pattern_catches_reach_and_leaves_combat)
{
    regex_t re;
    cr_assert_eq(regcomp(&re, REACH_PATTERN, REG_EXTENDED | REG_ICASE | REG_NOSUB), 0);
    const char *yes[] = {
        "war machines cannot march, declare a charge or make a pursuit move",
        "When a unit with this special rule makes a Charge, Flee or Pursuit roll, it may",
        "increases its maximum possible charge range by 3\"",
        "when making Charge or Pursuit roll, may apply a +D3 modifier",
        "its rolls for Charge Range, Flee Distance, Pursuit Distance",
        "The unit cannot charge during this turn",
        "cannot declare Charges in the Charge Phase",
        "It gains Devastating Charge (+1\xe2\x80\xb2\xe2\x80\xb2 Adv) when",
    };
    const char *no[] = {
        "During a turn in which it made a charge move of 3\" or more, a model gains",
        "During a turn in which it charged, a model has +1 Strength",
        "the thunderous charge of heavy cavalry",
        "gains Devastating Charge (+1 Str, +1 AP)",
    };
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        cr_expect_eq(regexec(&re, yes[i], 0, NULL, 0), 0, "missed: %s", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        cr_expect_neq(regexec(&re, no[i], 0, NULL, 0), 0, "caught: %s", no[i]);
    regfree(&re);
}
