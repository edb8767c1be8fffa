#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pytest.sh COMMAND...: runs pytest (COMMAND) and fails as well when it
# collected no test (its exit status 5), which would otherwise pass a
# suite that lost its tests (issue 53, the Python module's tests).
"$@"
rc=$?
if [ "$rc" -eq 5 ]; then
    echo "pytest: no tests were collected: a failure here" >&2
    exit 1
fi
exit $rc
