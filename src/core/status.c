/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Status names and exit codes; see include/chargesim/status.h. */
#include "chargesim/status.h"

const char *cs_strerror(cs_status status)
{
    switch (status) {
    case CS_OK: return "success";
    case CS_EINPUT: return "invalid input";
    case CS_ERUNTIME: return "runtime failure";
    case CS_ENOMEM: return "out of memory";
    case CS_ELIMIT: return "beyond a documented limit";
    case CS_ESTOPPED: return "stopped by a signal";
    }
    return "unknown status";
}

int cs_status_exit_code(cs_status status)
{
    switch (status) {
    case CS_OK: return 0;
    case CS_EINPUT:
    case CS_ELIMIT: return 2;
    case CS_ERUNTIME:
    case CS_ENOMEM:
    case CS_ESTOPPED: return 1;
    }
    return 1;
}
