/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one polygon parser (chargesim/poly_parse.h): pieces, kinds, the
 * counter-clockwise order, and every refusal with the column it names. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "chargesim/poly_parse.h"

static const char *const KINDS[] = {"solid", "blocking", "impassable", NULL};

static cs_status parse(const char *text, cs_poly_list *pl, cs_diag *diag)
{
    *diag = (cs_diag){0};
    return cs_poly_parse(text, strlen(text), KINDS, pl, diag);
}

/* text is refused at `column`, with `word` in the message. */
static void refused(const char *text, int column, const char *word)
{
    cs_poly_list pl;
    cs_diag diag;
    cr_assert_eq(parse(text, &pl, &diag), CS_EINPUT, "'%s' accepted", text);
    cr_expect_eq(diag.column, column, "'%s': column %d, not %d (%s)", text, diag.column, column,
                 diag.what);
    cr_expect_null(diag.key, "the caller names the key");
    cr_assert_not_null(diag.what);
    cr_expect(strstr(diag.what, word), "'%s': '%s' lacks '%s'", text, diag.what, word);
}

static double signed_area(const cs_poly *p)
{
    double a = 0.0;
    for (int i = 0; i < p->n; i++) {
        cs_vec2 u = p->v[i], w = p->v[(i + 1) % p->n];
        a += u.x * w.y - w.x * u.y;
    }
    return 0.5 * a;
}

Test(poly_parse, pieces_kinds_and_values)
{
    cs_poly_list pl;
    cs_diag diag;
    cr_assert_eq(parse("solid: -1,2 1,2 1,3 -1,3", &pl, &diag), CS_OK, "%s", diag.what);
    cr_assert_eq(pl.n, 1);
    cr_expect_eq(pl.kind[0], 0);
    cr_assert_eq(pl.poly[0].n, 4);
    /* decimal text gives the doubles strtod gives */
    cr_expect(pl.poly[0].v[0].x == -1.0 && pl.poly[0].v[0].y == 2.0);
    cr_expect(pl.poly[0].v[2].x == 1.0 && pl.poly[0].v[2].y == 3.0);
    cr_expect_float_eq(signed_area(&pl.poly[0]), 2.0, 1e-12);

    /* tabs and spaces anywhere between tokens, labels, a final ';', and an
     * unlabelled piece of the first kind */
    const char *two = "\t blocking :0.1 ,0.2\t1.5e1,0.2 0.1, 7 ;impassable: 0,0 1,0 0,1 ; 5,5 6,5 5,6;";
    cr_assert_eq(parse(two, &pl, &diag), CS_OK, "%s", diag.what);
    cr_assert_eq(pl.n, 3);
    cr_expect_eq(pl.kind[0], 1);
    cr_expect_eq(pl.kind[1], 2);
    cr_expect_eq(pl.kind[2], 0);
    cr_expect(pl.poly[0].v[0].x == 0.1 && pl.poly[0].v[0].y == 0.2);
    cr_expect(pl.poly[0].v[1].x == 15.0);
    cr_expect_eq(pl.poly[2].n, 3);

    /* empty and blank text: no piece */
    cr_expect_eq(parse("", &pl, &diag), CS_OK);
    cr_expect_eq(pl.n, 0);
    cr_expect_eq(parse("  \t ", &pl, &diag), CS_OK);
    cr_expect_eq(pl.n, 0);
    cr_expect_eq(cs_poly_parse(NULL, 0, KINDS, &pl, &diag), CS_OK);
    cr_expect_eq(pl.n, 0);
}

Test(poly_parse, clockwise_is_stored_counter_clockwise)
{
    cs_poly_list pl;
    cs_diag diag;
    cr_assert_eq(parse("-1,3 1,3 1,2 -1,2", &pl, &diag), CS_OK);
    cr_expect_gt(signed_area(&pl.poly[0]), 0.0);
    /* reversed in place: the last vertex written comes first */
    cr_expect(pl.poly[0].v[0].x == -1.0 && pl.poly[0].v[0].y == 2.0);
    cr_expect(pl.poly[0].v[3].x == -1.0 && pl.poly[0].v[3].y == 3.0);
}

Test(poly_parse, refusals_name_the_column)
{
    refused("solid 0,0 1,0 0,1", 7, "':'");
    refused("forest: 0,0 1,0 0,1", 1, "kinds");
    refused("solidity: 0,0 1,0 0,1", 1, "kinds");
    refused("0,0 1,0", 1, "at least 3");
    refused("0,0 1,0 0,1;;0,0 1,0 0,1", 13, "at least 3");
    refused("0,0 1 0", 7, "','");
    refused("0,0 1,x 0,1", 7, "y");
    refused("0,0 1,0 0,1 2", 14, "','");
    refused("0,0 1e5-3,0 0,1", 5, "vertex");
    refused("0,0 -,0 0,1", 5, "vertex");
    refused("0,0 1,0 0,1 @", 13, "vertex");
    /* not convex: a dent, three in a line, a repeated vertex, and a
     * pentagram (every turn the same way, but twice around) */
    refused("0,0 4,0 1,1 0,4", 1, "convex");
    refused("solid: 0,0 1,0 2,0 1,1", 1, "convex");
    refused("0,0 1,0 1,0 0,1", 1, "convex");
    refused("blocking: 1,0 -0.809017,0.587785 0.309017,-0.951057 0.309017,0.951057 "
            "-0.809017,-0.587785",
            1, "convex");
}

Test(poly_parse, huge_and_non_finite_numbers)
{
    refused("0,0 1e999,0 0,1", 5, "beyond");
    refused("0,0 1,0 0,-1e400", 11, "beyond");
    refused("0,0 10000.5,0 0,1", 5, "beyond");
    cs_poly_list pl;
    cs_diag diag;
    cr_expect_eq(parse("-10000,-10000 10000,-10000 10000,10000", &pl, &diag), CS_OK);
    cr_expect_eq(parse("0,0 1e-400,1 0,1", &pl, &diag), CS_EINPUT, "underflows to 0: in a line");
    /* inf and nan are no decimal numbers: a word (a kind label that is not
     * one) with kinds, no number without */
    refused("inf,0 1,0 0,1", 1, "kinds");
    cr_expect_eq(cs_poly_parse("nan,0 1,0 0,1", 13, NULL, &pl, &diag), CS_EINPUT);
    cr_expect_eq(diag.column, 1);
    char longnum[128];
    snprintf(longnum, sizeof longnum, "0,0 1%070d,0 0,1", 0);
    refused(longnum, 5, "too long");
}

Test(poly_parse, too_many_vertices_and_pieces)
{
    /* 13 vertices of a convex outline: the 13th is refused where it starts */
    char text[512] = "";
    int col = 0;
    for (int i = 0; i < 13; i++) {
        if (i == 12)
            col = (int)strlen(text) + 1;
        char v[32];
        snprintf(v, sizeof v, "%d,%d ", i, i * i);
        strcat(text, v);
    }
    refused(text, col, "12 vertices");
    /* 12 are accepted */
    text[col - 1] = '\0';
    cs_poly_list pl;
    cs_diag diag;
    cr_expect_eq(parse(text, &pl, &diag), CS_OK, "%s", diag.what);
    cr_expect_eq(pl.poly[0].n, 12);
    /* five pieces: the fifth is refused */
    refused("0,0 1,0 0,1; 2,0 3,0 2,1; 4,0 5,0 4,1; 6,0 7,0 6,1; 8,0 9,0 8,1", 53, "4 pieces");
}

Test(poly_parse, reads_only_its_bytes)
{
    cs_poly_list pl;
    cs_diag diag;
    /* a NUL byte inside the text is refused where it stands */
    static const char nul[] = "0,0 1,0\0 0,1";
    cr_expect_eq(cs_poly_parse(nul, sizeof nul - 1, KINDS, &pl, &diag), CS_EINPUT);
    cr_expect_eq(diag.column, 8);
    cr_expect(strstr(diag.what, "NUL"), "%s", diag.what);
    /* no terminating NUL needed, and nothing past len is read: the bytes
     * after it would be an error; a label or number cut by len is too */
    static const char tail[] = "0,0 1,0 0,1 garbage";
    cr_expect_eq(cs_poly_parse(tail, 11, KINDS, &pl, &diag), CS_OK);
    cr_expect_eq(pl.poly[0].n, 3);
    static const char cut[] = "0,0 1,0 0,12";
    cr_expect_eq(cs_poly_parse(cut, 11, KINDS, &pl, &diag), CS_OK);
    cr_expect(pl.poly[0].v[2].y == 1.0, "%g", pl.poly[0].v[2].y);
    cr_expect_eq(cs_poly_parse("solid: 0,0 1,0 0,1", 4, KINDS, &pl, &diag), CS_EINPUT);
    cr_expect_eq(diag.column, 1, "'soli' is no kind");
    /* without kinds, a label is no number */
    cr_expect_eq(cs_poly_parse("solid: 0,0 1,0 0,1", 18, NULL, &pl, &diag), CS_EINPUT);
    cr_expect_eq(diag.column, 1);
}
