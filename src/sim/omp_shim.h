/* SPDX-License-Identifier: GPL-3.0-or-later */
/* OpenMP where the build has it (-fopenmp); else one thread. The web
 * edition (make web, src/web/) is built without OpenMP: emscripten has no
 * OpenMP runtime, and the scheduler's pragmas (src/sim/sched/sched.c, the
 * one file that uses OpenMP) are then ignored, so its loops run in order on
 * the one thread, which by their design (blocks merged in block order,
 * integer counts) gives the same numbers. */
#ifndef CHARGESIM_SIM_OMP_SHIM_H
#define CHARGESIM_SIM_OMP_SHIM_H

#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_num_procs(void) { return 1; }
static inline int omp_get_max_threads(void) { return 1; }
static inline int omp_get_thread_num(void) { return 0; }
#endif

#endif
