/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GLOSSARY_H
#define CHARGESIM_GLOSSARY_H
/* The words of chargesim a player may not know (issue 52: "sweep point",
 * rqmc, seed, mapping, Roll20 notation, ...), each with one line in a
 * player's words. One list, kept with the option tables (options.h): the
 * web edition shows it beside its form and results, and `chargesim
 * --help` could name it; a column's or a field's own words are with the
 * column (columns.h) or the option (options.h), not here. */

typedef struct cs_glossary_entry {
    const char *term;  /* as it appears on the page or the command line: "rqmc" */
    const char *words; /* one line, a player's words */
} cs_glossary_entry;

/* How many entries; entry i (NULL past the end). Static, never freed. */
int cs_glossary_count(void);
const cs_glossary_entry *cs_glossary_at(int i);

#endif
