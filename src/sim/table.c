/* Tables and their CSV, Markdown and LaTeX writers; see include/chargesim/table.h. */
#include "chargesim/table.h"

#include <csv.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

bool cs_format_parse(const char *s, cs_format *out)
{
    static const char *const names[] = {"csv", "md", "tex"};
    for (int i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (cs_format)i;
            return true;
        }
    return false;
}

cs_status cs_table_init(cs_table *t, int ncols)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->header = calloc((size_t)ncols, sizeof *t->header);
    t->right = calloc((size_t)ncols, sizeof *t->right);
    return t->header && t->right ? CS_OK : CS_ENOMEM;
}

void cs_table_free(cs_table *t)
{
    for (int c = 0; t->header && c < t->ncols; c++)
        free(t->header[c]);
    for (long i = 0; t->cell && i < (long)t->nrows * t->ncols; i++)
        free(t->cell[i]);
    free(t->header);
    free(t->cell);
    free(t->right);
    free(t->title);
    free(t->note);
    memset(t, 0, sizeof *t);
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

cs_status cs_table_set_header(cs_table *t, int col, const char *name, bool right)
{
    if (!t->header || !t->right) /* cs_table_init ran out of memory */
        return CS_ENOMEM;
    free(t->header[col]);
    size_t n = strlen(name) + 1;
    t->header[col] = malloc(n);
    if (!t->header[col])
        return CS_ENOMEM;
    memcpy(t->header[col], name, n);
    t->right[col] = right;
    return CS_OK;
}

int cs_table_add_row(cs_table *t)
{
    if (t->nrows == t->cap_rows) {
        int cap = t->cap_rows ? 2 * t->cap_rows : 16;
        char **nc = realloc(t->cell, (size_t)cap * (size_t)t->ncols * sizeof *nc);
        if (!nc)
            return -1;
        t->cell = nc;
        t->cap_rows = cap;
    }
    memset(t->cell + (size_t)t->nrows * (size_t)t->ncols, 0, (size_t)t->ncols * sizeof *t->cell);
    return t->nrows++;
}

/* "-0.00" (a tiny negative value, or -0.0, rounded to zero) reads as a
 * sign that is not there: every cell that rounds to zero is written
 * without one (issue 17). */
static void drop_negative_zero(char *s)
{
    if (s[0] != '-')
        return;
    const char *p = s + 1;
    bool digits = false;
    for (; *p == '0' || *p == '.'; p++)
        digits |= *p == '0';
    if (digits && (*p == '\0' || *p == 'e' || *p == 'E' || *p == ' ' || *p == '%'))
        memmove(s, s + 1, strlen(s));
}

cs_status cs_table_set(cs_table *t, int row, int col, const char *fmt, ...)
{
    if (row < 0 || row >= t->nrows) /* cs_table_add_row ran out of memory */
        return CS_ENOMEM;
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    if (!s)
        return CS_ENOMEM;
    drop_negative_zero(s);
    char **slot = &t->cell[(size_t)row * (size_t)t->ncols + (size_t)col];
    free(*slot);
    *slot = s;
    return CS_OK;
}

cs_status cs_table_set_title(cs_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    /* Formatted before the old text is freed: it may be an argument. */
    char *s = vformat(fmt, ap);
    va_end(ap);
    if (!s)
        return CS_ENOMEM;
    free(t->title);
    t->title = s;
    return CS_OK;
}

cs_status cs_table_set_note(cs_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    /* Formatted before the old text is freed: it may be an argument. */
    char *s = vformat(fmt, ap);
    va_end(ap);
    if (!s)
        return CS_ENOMEM;
    free(t->note);
    t->note = s;
    return CS_OK;
}

static const char *cell(const cs_table *t, int r, int c)
{
    const char *s = t->cell[(size_t)r * (size_t)t->ncols + (size_t)c];
    return s ? s : "";
}

int cs_csv_field(FILE *f, const char *s)
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
        cs_csv_field(f, t->header[c] ? t->header[c] : "");
    }
    fputc('\n', f);
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                fputc(',', f);
            cs_csv_field(f, cell(t, r, c));
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
            md_text(f, cell(t, r, c));
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    if (t->note)
        fprintf(f, "\n%s\n", t->note);
}

/* LaTeX special characters in text cells. */
static void tex_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
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
        case '"': fputs("''", f); break;
        case '|': fputs("\\textbar{}", f); break;
        case '<': fputs("\\textless{}", f); break;
        case '>': fputs("\\textgreater{}", f); break;
        default: fputc(*s, f);
        }
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
            tex_text(f, cell(t, r, c));
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

cs_status cs_table_write(const cs_table *t, cs_format fmt, FILE *f)
{
    switch (fmt) {
    case CS_FORMAT_CSV: write_csv(t, f); break;
    case CS_FORMAT_MD: write_md(t, f); break;
    case CS_FORMAT_TEX: write_tex(t, f); break;
    }
    return ferror(f) ? CS_ERUNTIME : CS_OK;
}
