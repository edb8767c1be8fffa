/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSV, Markdown and LaTeX writers of a table; see include/chargesim/tablewrite.h. */
#include "chargesim/tablewrite.h"

#include <csv.h>
#include <string.h>

int cs_tablewrite_csv_field(FILE *f, const char *s)
{
    /* Plain fields are written as they are; libcsv quotes and escapes the
     * rest (separators, quotes, line breaks, edge spaces). */
    size_t n = strlen(s);
    bool quote = n > 0 && (s[0] == ' ' || s[n - 1] == ' ');
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (quote)
        return csv_fwrite(f, s, n);
    return fputs(s, f) < 0 ? EOF : 0;
}

static void write_csv(const cs_table *t, FILE *f)
{
    for (int c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        cs_tablewrite_csv_field(f, t->header[c] ? t->header[c] : "");
    }
    fputc('\n', f);
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                fputc(',', f);
            cs_tablewrite_csv_field(f, cs_table_cell(t, r, c));
        }
        fputc('\n', f);
    }
}

/* Markdown: a pipe in a cell would end it. */
static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void write_md(const cs_table *t, FILE *f)
{
    if (t->title)
        fprintf(f, "### %s\n\n", t->title);
    fputc('|', f);
    for (int c = 0; c < t->ncols; c++) {
        fputc(' ', f);
        md_text(f, t->header[c] ? t->header[c] : "");
        fputs(" |", f);
    }
    fputs("\n|", f);
    for (int c = 0; c < t->ncols; c++)
        fputs(t->right[c] ? " ---: |" : " --- |", f);
    fputc('\n', f);
    for (int r = 0; r < t->nrows; r++) {
        fputc('|', f);
        for (int c = 0; c < t->ncols; c++) {
            fputc(' ', f);
            md_text(f, cs_table_cell(t, r, c));
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    if (t->note)
        fprintf(f, "\n%s\n", t->note);
}

/* One character of LaTeX text. Every special character is escaped; a
 * hyphen before another is cut off with {} (LaTeX would join "--" into an
 * en dash); in code (a `...` span) quotes are the typewriter's straight
 * ones, so a command reads as typed. */
static void tex_char(FILE *f, char c, char next, bool code)
{
    /* In \texttt these are the typewriter font's own ASCII glyphs (OT1 and
     * T1 alike); \textless and kin would fetch them from another font. */
    if (code && strchr("\\|<>{}~^_\"", c) && c != '\0') {
        fprintf(f, "\\char%d{}", c);
        return;
    }
    switch (c) {
    case '%': fputs("\\%", f); break;
    case '&': fputs("\\&", f); break;
    case '_': fputs("\\_", f); break;
    case '#': fputs("\\#", f); break;
    case '$': fputs("\\$", f); break;
    case '{': fputs("\\{", f); break;
    case '}': fputs("\\}", f); break;
    case '~': fputs("\\textasciitilde{}", f); break;
    case '^': fputs("\\textasciicircum{}", f); break;
    case '\\': fputs("\\textbackslash{}", f); break;
    case '|': fputs("\\textbar{}", f); break;
    case '<': fputs("\\textless{}", f); break;
    case '>': fputs("\\textgreater{}", f); break;
    case '`': fputs("\\textasciigrave{}", f); break;
    case '"': fputs("''", f); break;
    case '\'': fputs(code ? "\\textquotesingle{}" : "'", f); break;
    case '-': fputs(code || next == '-' ? "-{}" : "-", f); break;
    default: fputc(c, f);
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

/* LaTeX text: special characters escaped (tex_char), and a code span (the
 * command a table's note quotes between backquotes, as Markdown writes
 * it) set in \texttt as typed. */
static void tex_text(FILE *f, const char *s)
{
    while (*s) {
        size_t n = strspn(s, "`");
        const char *close = n ? code_end(s, n) : NULL;
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
        fputs("\\texttt{", f);
        for (; a < b; a++)
            tex_char(f, *a, a + 1 < b ? a[1] : '\0', true);
        fputc('}', f);
        s = close + n;
    }
}

static void write_tex(const cs_table *t, FILE *f)
{
    fputs("\\begin{table}[ht]\n\\centering\n", f);
    if (t->title) {
        fputs("\\caption{", f);
        tex_text(f, t->title);
        fputs("}\n", f);
    }
    fputs("\\begin{tabular}{", f);
    for (int c = 0; c < t->ncols; c++)
        fputc(t->right[c] ? 'r' : 'l', f);
    fputs("}\n\\hline\n", f);
    for (int c = 0; c < t->ncols; c++) {
        if (c)
            fputs(" & ", f);
        tex_text(f, t->header[c] ? t->header[c] : "");
    }
    fputs(" \\\\\n\\hline\n", f);
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                fputs(" & ", f);
            tex_text(f, cs_table_cell(t, r, c));
        }
        fputs(" \\\\\n", f);
    }
    fputs("\\hline\n\\end{tabular}\n", f);
    if (t->note) {
        fputs("\\par\\smallskip\\footnotesize ", f);
        tex_text(f, t->note);
        fputc('\n', f);
    }
    fputs("\\end{table}\n", f);
}

cs_status cs_tablewrite(const cs_table *t, cs_format fmt, FILE *f)
{
    switch (fmt) {
    case CS_FORMAT_CSV: write_csv(t, f); break;
    case CS_FORMAT_MD: write_md(t, f); break;
    case CS_FORMAT_TEX: write_tex(t, f); break;
    }
    return ferror(f) ? CS_ERUNTIME : CS_OK;
}
