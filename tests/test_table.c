/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tables (include/chargesim/table.h): cells that round to zero never
 * carry a minus sign. */
#include <criterion/criterion.h>

#include "chargesim/columns.h"
#include "chargesim/table.h"

Test(table, no_negative_zero_in_any_cell)
{
    cs_table t;
    cr_assert_eq(cs_table_init(&t, 6), CS_OK);
    int r = cs_table_add_row(&t);
    cs_table_set(&t, r, 0, "%.2f", -0.001);
    cs_table_set(&t, r, 1, "%.4f", -0.0);
    cs_table_set(&t, r, 2, "%.2f", -0.01);
    cs_table_set(&t, r, 3, "%.0f", -0.4);
    cs_table_set(&t, r, 4, "%.2e", -0.0);
    cs_table_set(&t, r, 5, "%s", "-0.5..1");
    cr_expect_str_eq(t.cell[0], "0.00");
    cr_expect_str_eq(t.cell[1], "0.0000");
    cr_expect_str_eq(t.cell[2], "-0.01", "a value that does not round to zero keeps its sign");
    cr_expect_str_eq(t.cell[3], "0");
    cr_expect_str_eq(t.cell[4], "0.00e+00");
    cr_expect_str_eq(t.cell[5], "-0.5..1");
    cs_table_free(&t);
}

Test(table, a_note_may_extend_itself)
{
    cs_table t;
    cr_assert_eq(cs_table_init(&t, 1), CS_OK);
    cs_table_set_note(&t, "first");
    cs_table_set_note(&t, "%s %s", t.note, "second");
    cr_expect_str_eq(t.note, "first second");
    cs_table_set_title(&t, "a");
    cs_table_set_title(&t, "%s-%s", t.title, t.title);
    cr_expect_str_eq(t.title, "a-a");
    cs_table_free(&t);
}

Test(table, the_first_error_is_kept_and_later_calls_do_nothing)
{
    cs_table t;
    cr_assert_eq(cs_table_init(&t, 2), CS_OK);
    cr_expect_eq(cs_table_status(&t), CS_OK);
    int r = cs_table_add_row(&t);
    cr_expect_eq(cs_table_set(&t, r + 1, 0, "x"), CS_ENOMEM, "a row that add_row never gave");
    cr_expect_eq(cs_table_status(&t), CS_ENOMEM);
    cr_expect_eq(cs_table_set(&t, r, 0, "kept out"), CS_ENOMEM);
    cr_expect_null(t.cell[0], "no call changes the table after its first error");
    cr_expect_eq(cs_table_add_row(&t), -1);
    cr_expect_eq(cs_table_set_title(&t, "t"), CS_ENOMEM);
    cr_expect_null(t.title);
    cs_table_free(&t);
}

Test(table, a_column_carries_its_datatype_and_description)
{
    cs_table t;
    cr_assert_eq(cs_table_init(&t, 2), CS_OK);
    cr_expect_eq(t.type[0], CS_DT_STRING, "undescribed columns are text");
    cr_expect_null(t.desc[0]);
    cr_expect_eq(cs_table_describe(&t, 1, CS_DT_NUMBER, "share of %s", "rolls"), CS_OK);
    cr_expect_eq(t.type[1], CS_DT_NUMBER);
    cr_expect_str_eq(t.desc[1], "share of rolls");
    cr_expect_str_eq(cs_datatype_name(t.type[1]), "number");
    cr_expect_str_eq(cs_datatype_name(CS_DT_INTEGER), "integer");
    cs_table_free(&t);
}

Test(table, a_column_carries_its_label_and_the_interval_ends_their_level)
{
    cs_table t;
    cr_assert_eq(cs_table_init(&t, 3), CS_OK);
    cr_expect_null(t.label[0], "a column no producer labelled has none");
    cr_assert_eq(cs_columns_fixed(&t, 0, "p_success", NULL), CS_OK);
    cr_assert_eq(cs_columns_fixed(&t, 1, "ci_low", NULL), CS_OK);
    cr_assert_eq(cs_columns_fixed(&t, 2, "max_ci_halfwidth_pct", NULL), CS_OK);
    cr_expect_str_eq(t.label[0], "chance to charge");
    cs_columns_level(&t, 0.9);
    cr_expect_str_eq(t.label[0], "chance to charge", "not an interval: unchanged");
    cr_expect_str_eq(t.label[1], "lower bound (90%)");
    cr_expect_str_eq(t.label[2], "widest margin (\u00b1 points)", "no bound: no level");
    cr_expect_eq(cs_table_label(&t, 0, "%d\u2033", 12), CS_OK);
    cr_expect_str_eq(t.label[0], "12\u2033");
    cs_table_free(&t);
}
