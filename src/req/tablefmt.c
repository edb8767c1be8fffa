/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSV, Markdown and LaTeX text of a table, in memory; see
 * include/chargesim/tablefmt.h. */
#include "chargesim/tablefmt.h"

#include <csv.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void puts_(cs_text *f, const char *s)
{
    cs_text_put(f, s, strlen(s));
}

static void putc_(cs_text *f, char c)
{
    cs_text_put(f, &c, 1);
}

/* One CSV field: plain fields as they are; libcsv quotes and escapes the
 * rest (separators, quotes, line breaks, edge spaces). */
static void csv_field(cs_text *f, const char *s)
{
    size_t n = strlen(s);
    bool quote = n > 0 && (s[0] == ' ' || s[n - 1] == ' ');
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
        cs_text_put(f, s, n);
        return;
    }
    /* At worst every character doubled, and the two quotes. */
    char *q = malloc(2 * n + 2);
    if (!q) {
        f->oom = true;
        return;
    }
    cs_text_put(f, q, csv_write(q, 2 * n + 2, s, n));
    free(q);
}

static void write_csv(const cs_table *t, cs_text *f)
{
    for (int c = 0; c < t->ncols; c++) {
        if (c)
            putc_(f, ',');
        csv_field(f, t->header[c] ? t->header[c] : "");
    }
    putc_(f, '\n');
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                putc_(f, ',');
            csv_field(f, cs_table_cell(t, r, c));
        }
        putc_(f, '\n');
    }
}

/* Markdown: a pipe in a cell would end it. */
static void md_text(cs_text *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            putc_(f, '\\');
        putc_(f, *s);
    }
}

static void write_md(const cs_table *t, cs_text *f)
{
    if (t->title) {
        puts_(f, "### ");
        puts_(f, t->title);
        puts_(f, "\n\n");
    }
    putc_(f, '|');
    for (int c = 0; c < t->ncols; c++) {
        putc_(f, ' ');
        md_text(f, t->header[c] ? t->header[c] : "");
        puts_(f, " |");
    }
    puts_(f, "\n|");
    for (int c = 0; c < t->ncols; c++)
        puts_(f, t->right[c] ? " ---: |" : " --- |");
    putc_(f, '\n');
    for (int r = 0; r < t->nrows; r++) {
        putc_(f, '|');
        for (int c = 0; c < t->ncols; c++) {
            putc_(f, ' ');
            md_text(f, cs_table_cell(t, r, c));
            puts_(f, " |");
        }
        putc_(f, '\n');
    }
    if (t->note) {
        puts_(f, "\n");
        puts_(f, t->note);
        puts_(f, "\n");
    }
}

/* One character of LaTeX text. Every special character is escaped; a
 * hyphen before another is cut off with {} (LaTeX would join "--" into an
 * en dash); in code (a `...` span) quotes are the typewriter's straight
 * ones, so a command reads as typed. */
static void tex_char(cs_text *f, char c, char next, bool code)
{
    /* In \texttt these are the typewriter font's own ASCII glyphs (OT1 and
     * T1 alike); \textless and kin would fetch them from another font. */
    if (code && strchr("\\|<>{}~^_\"", c) && c != '\0') {
        char code_point[16];
        snprintf(code_point, sizeof code_point, "\\char%d{}", c);
        puts_(f, code_point);
        return;
    }
    switch (c) {
    case '%': puts_(f, "\\%"); break;
    case '&': puts_(f, "\\&"); break;
    case '_': puts_(f, "\\_"); break;
    case '#': puts_(f, "\\#"); break;
    case '$': puts_(f, "\\$"); break;
    case '{': puts_(f, "\\{"); break;
    case '}': puts_(f, "\\}"); break;
    case '~': puts_(f, "\\textasciitilde{}"); break;
    case '^': puts_(f, "\\textasciicircum{}"); break;
    case '\\': puts_(f, "\\textbackslash{}"); break;
    case '|': puts_(f, "\\textbar{}"); break;
    case '<': puts_(f, "\\textless{}"); break;
    case '>': puts_(f, "\\textgreater{}"); break;
    case '`': puts_(f, "\\textasciigrave{}"); break;
    case '"': puts_(f, "''"); break;
    case '\'': puts_(f, code ? "\\textquotesingle{}" : "'"); break;
    case '-': puts_(f, code || next == '-' ? "-{}" : "-"); break;
    default: putc_(f, c);
    }
}

/* Where the code span opened by the run of n backquotes at s closes: the
 * next run of exactly n (CommonMark's rule, which the Markdown note
 * follows), or NULL. */
static const char *code_end(const char *s, size_t n)
{
    for (const char *p = s + n; (p = strchr(p, '`')) != NULL;) {
        size_t m = strspn(p, "`");
        if (m == n)
            return p;
        p += m;
    }
    return NULL;
}

/* The non-ASCII marks chargesim's own words use (compare's verdict and
 * note, issue 52), as LaTeX commands: pdflatex's default input encoding
 * declares no U+2033 (the inch mark). The length of the mark at s, its
 * command in *cmd, or 0. */
static size_t tex_mark(const char *s, const char **cmd)
{
    static const char *const marks[][2] = {
        {"\u2033", "$''$"}, {"\u2013", "--"}, {"\u00b7", "\\textperiodcentered{}"}};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strncmp(s, marks[i][0], strlen(marks[i][0])) == 0) {
            *cmd = marks[i][1];
            return strlen(marks[i][0]);
        }
    return 0;
}

/* LaTeX text: special characters escaped (tex_char), and a code span (the
 * command a table's note quotes between backquotes, as Markdown writes
 * it) set in \texttt as typed. */
static void tex_text(cs_text *f, const char *s)
{
    while (*s) {
        size_t n = strspn(s, "`");
        const char *close = n ? code_end(s, n) : NULL;
        const char *cmd;
        size_t mark = n ? 0 : tex_mark(s, &cmd);
        if (mark) {
            puts_(f, cmd);
            s += mark;
            continue;
        }
        if (!close) {
            for (size_t k = n ? n : 1; k-- > 0; s++)
                tex_char(f, *s, s[1], false);
            continue;
        }
        const char *a = s + n, *b = close;
        if (b - a >= 2 && *a == ' ' && b[-1] == ' ') { /* `` x `` holds x */
            a++;
            b--;
        }
        puts_(f, "\\texttt{");
        for (; a < b; a++)
            tex_char(f, *a, a + 1 < b ? a[1] : '\0', true);
        putc_(f, '}');
        s = close + n;
    }
}

static void write_tex(const cs_table *t, cs_text *f)
{
    puts_(f, "\\begin{table}[ht]\n\\centering\n");
    if (t->title) {
        puts_(f, "\\caption{");
        tex_text(f, t->title);
        puts_(f, "}\n");
    }
    puts_(f, "\\begin{tabular}{");
    for (int c = 0; c < t->ncols; c++)
        putc_(f, t->right[c] ? 'r' : 'l');
    puts_(f, "}\n\\hline\n");
    for (int c = 0; c < t->ncols; c++) {
        if (c)
            puts_(f, " & ");
        tex_text(f, t->header[c] ? t->header[c] : "");
    }
    puts_(f, " \\\\\n\\hline\n");
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                puts_(f, " & ");
            tex_text(f, cs_table_cell(t, r, c));
        }
        puts_(f, " \\\\\n");
    }
    puts_(f, "\\hline\n\\end{tabular}\n");
    if (t->note) {
        puts_(f, "\\par\\smallskip\\footnotesize ");
        tex_text(f, t->note);
        putc_(f, '\n');
    }
    puts_(f, "\\end{table}\n");
}

cs_status cs_tablefmt(const cs_table *t, cs_format fmt, cs_text *out)
{
    switch (fmt) {
    case CS_FORMAT_CSV: write_csv(t, out); break;
    case CS_FORMAT_MD: write_md(t, out); break;
    case CS_FORMAT_TEX: write_tex(t, out); break;
    }
    return out->oom ? CS_ENOMEM : CS_OK;
}
