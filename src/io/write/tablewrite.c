/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A table written to a file: the formatter's text (tablefmt.h), whole;
 * see include/chargesim/tablewrite.h. */
#include "chargesim/tablewrite.h"

#include <stdlib.h>

#include "chargesim/tablefmt.h"

cs_status cs_tablewrite(const cs_table *t, cs_format fmt, FILE *f)
{
    cs_text s = {0};
    cs_status st = cs_tablefmt(t, fmt, &s);
    if (st == CS_OK && s.len && fwrite(s.s, 1, s.len, f) != s.len)
        st = CS_ERUNTIME;
    free(s.s);
    return st == CS_OK && ferror(f) ? CS_ERUNTIME : st;
}

cs_status cs_tablewrite_out(const cs_table *t, cs_format fmt, cs_outfile *o, cs_error *err)
{
    cs_status st = cs_tablewrite(t, fmt, o->f);
    if (st == CS_ENOMEM)
        return cs_error_set(err, st, "out of memory");
    return st == CS_OK ? st : cs_outfile_write_error(o, err);
}
