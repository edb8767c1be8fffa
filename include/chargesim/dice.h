/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_DICE_H
#define CHARGESIM_DICE_H
/* The dice language (Roll20 notation) and exact discrete distributions.
 *
 * Grammar, case-insensitive, spaces and tabs ignored between tokens (not
 * inside a number):
 *   expr    := ['-'] term (('+' | '-') term)*   ; a leading '-' negates the first term
 *   term    := INT | [INT] 'd' INT mod*        ; "d6" = "1d6"
 *   mod     := 'kh' INT | 'kl' INT | 'dh' INT | 'dl' INT   ; keep/drop highest/lowest
 *            | 'r' cmp | 'ro' cmp               ; re-roll while it matches / once
 *            | '!'                              ; explode on the maximum face
 *   cmp     := INT | '<' INT | '>' INT          ; '<' and '>' mean <= and >= (Roll20)
 * Modifiers may come in any order; at most one keep/drop, one re-roll and one
 * '!' per term. Checked when parsing (CS_EINPUT, with the column):
 *   - a dice count and a number of sides of at least 1;
 *   - kh/kl keep 1..N of N dice; dh/dl drop 1..N-1 (dropping all is an error);
 *   - a repeated re-roll ('r') must leave at least one face (d6r<6 is an
 *     error); a re-roll once ('ro') may match every face: it then re-rolls
 *     every die once, which leaves the plain distribution;
 *   - 'rs' (our extension: Roll20 has no such modifier) does not combine
 *     with '!'.
 * Limits (CS_ELIMIT): CS_DICE_MAX_TERMS terms, CS_DICE_MAX_COUNT dice in a
 * term, CS_DICE_MAX_SIDES sides, every number at most CS_DICE_MAX_NUMBER.
 *
 * Every roll of a die, the first and each explosion roll, goes through the
 * re-roll rule first (our reading: Roll20 is silent on the order). A repeated
 * re-roll gives the uniform distribution on the faces that do not match; a
 * re-roll once gives P(f) = [f does not match]/S + P(match)/S. An exploding
 * die then adds another roll when the (re-rolled) face is the maximum S, at
 * most CS_DICE_EXPLODE_CAP extra rolls per die (the documented depth cap: the
 * last extra roll never explodes, so d6! has P(X = 6) = 0, P(X = 7) = 1/36
 * and a largest total of 66). Keep/drop then acts on the dice's totals.
 *
 * 'rs' re-rolls one die only, once: when any die of the term matches, the
 * lowest matching die is rolled again (the new face stands, whatever it
 * shows), then keep/drop acts. "2d6rs1kh1" is The Old World's Knights
 * Panther: "re-roll a single dice that rolls a natural 1 ... before
 * discarding any dice that are required to be discarded". Its exact
 * distribution enumerates the S^N first rolls and the S faces of the
 * re-roll, so a term needs S^(N+1) <= CS_DICE_SINGLE_WORK (CS_ELIMIT past it).
 *
 * One parsed cs_dice serves both cs_dice_exact (probabilities computed, never
 * sampled) and cs_dice_roll (sampling from a stream). Both are pure and do
 * not allocate; cs_dice_exact uses about 140 KB of stack. */
#include <stdbool.h>

#include "chargesim/rng.h"
#include "chargesim/status.h"

#define CS_DICE_MAX_TERMS   8
#define CS_DICE_MAX_COUNT   100   /* dice in one term */
#define CS_DICE_MAX_SIDES   1000
#define CS_DICE_EXPLODE_CAP 10
#define CS_DICE_MAX_NUMBER  1000000 /* any number in the text, constants included */
#define CS_DIST_CAP         4096  /* support width of an exact distribution */
/* cs_dice_exact refuses (CS_ELIMIT) a keep/drop term whose order-statistics
 * computation would take more than this many multiply-adds (~0.2 s here):
 * roughly (K^2 / 2) * sum over values t of (span above t) * (values above t).
 * Ordinary expressions (4d6kh3, 2d20kh1, 10d10dl3, 100d6kh50) need under a
 * million, 4d1000kh3 about 3e8; only wide many-sided terms such as 5d1000kh4
 * (1e9) are refused. Sums without keep/drop are bounded by CS_DIST_CAP
 * alone: at most CS_DIST_CAP^2 multiply-adds per term. */
#define CS_DICE_EXACT_WORK  500000000.0
/* cs_dice_exact refuses (CS_ELIMIT) an 'rs' term of N dice with S sides
 * when S^(N+1) passes this: 6d6rs1 (279936) is fine, 8d6rs1 is not. */
#define CS_DICE_SINGLE_WORK 2000000.0

typedef enum { CS_KEEP_ALL, CS_KEEP_HIGH, CS_KEEP_LOW, CS_DROP_HIGH, CS_DROP_LOW } cs_dice_keep;
/* REPEAT 'r', ONCE 'ro' (every matching die once), SINGLE 'rs' (one die once). */
typedef enum { CS_REROLL_NONE, CS_REROLL_REPEAT, CS_REROLL_ONCE, CS_REROLL_SINGLE } cs_dice_reroll;
typedef enum { CS_CMP_EQ, CS_CMP_LE, CS_CMP_GE } cs_dice_cmp;

typedef struct cs_dice_term {
    int sign;               /* +1 or -1 */
    int count;              /* number of dice; for a constant, its value (>= 0) */
    int sides;              /* 0 for a constant term */
    cs_dice_keep keep;      /* keep/drop mode */
    int keep_n;             /* K of khK etc.; 0 with CS_KEEP_ALL */
    cs_dice_reroll reroll;  /* re-roll mode */
    cs_dice_cmp reroll_cmp; /* which faces are re-rolled */
    int reroll_value;       /* V of rV, r<V, r>V; 0 with CS_REROLL_NONE */
    bool explode;           /* '!' */
} cs_dice_term;

typedef struct cs_dice {
    int n_terms;
    cs_dice_term term[CS_DICE_MAX_TERMS];
} cs_dice;

/* An exact distribution over the integers lo..hi: p[v - lo] = P(X = v) for
 * lo <= v <= hi (hi - lo < CS_DIST_CAP); entries past hi - lo are unused.
 * Some p inside may be 0 (d6! never totals 6). */
typedef struct cs_dist {
    int lo, hi;
    double p[CS_DIST_CAP];
} cs_dist;

/* Parses `text`. On error returns CS_EINPUT (or CS_ELIMIT past a limit above)
 * and fills diag: column (1-based, the length + 1 at the end of the text),
 * key NULL, and what was expected. *out is unspecified after an error. */
cs_status cs_dice_parse(const char *text, cs_dice *out, cs_diag *diag);

/* Writes the canonical text of `d` (lower case, no spaces, "1d" written "d",
 * modifiers in the order '!', re-roll, keep/drop: "4d6!r1kh3") into buf
 * (cap >= 1), truncated if needed but always NUL-terminated. Parsing the
 * canonical text gives `d` back. */
void cs_dice_format(const cs_dice *d, char *buf, int cap);

/* Whether face f is one term t's re-roll matches (rV, r<V, r>V). */
bool cs_dice_face_matches(const cs_dice_term *t, int f);
/* How many of term t's dice are summed (its keep/drop), and whether they
 * are the lowest ones (kl, dh). */
int cs_dice_term_kept_count(const cs_dice_term *t);
bool cs_dice_term_keeps_low(const cs_dice_term *t);
/* The total term t keeps of the n faces v (sorted ascending here), as
 * its keep/drop says: what an enumeration of a term's faces adds up. */
int cs_dice_term_kept(const cs_dice_term *t, int *v, int n);
/* The next of the S^N faces of n dice of `sides` sides, counting from all
 * 1s as an odometer does: false after the last (all `sides`), when face is
 * all 1s again. */
bool cs_dice_faces_next(int *face, int n, int sides);

/* Smallest and largest possible totals. */
int cs_dice_min(const cs_dice *d);
int cs_dice_max(const cs_dice *d);

/* The exact distribution of the total, lo = cs_dice_min(d), hi =
 * cs_dice_max(d). Each term's distribution is convolved from its per-die
 * distribution, a keep/drop term through an exact order-statistics sum over
 * the K-th kept value; a subtracted term is mirrored. Probabilities sum to 1
 * within 1e-12. CS_ELIMIT (diag.what says why, diag.column 0) when a support
 * (one die, one term or the total) is wider than CS_DIST_CAP, or a keep/drop
 * term would need more than CS_DICE_EXACT_WORK multiply-adds. */
cs_status cs_dice_exact(const cs_dice *d, cs_dist *out, cs_diag *diag);

/* One sampled total. A term without modifiers costs exactly `count` calls of
 * cs_rng_bounded; a repeated re-roll draws directly from the faces that do
 * not match (same distribution, one draw). */
int cs_dice_roll(const cs_dice *d, cs_rng *rng);

/* Distribution helpers, for rulesets that combine dice exactly.
 * cs_dist_p_at_least_real uses the exact ceiling, with no epsilon: P(X >= 8.0)
 * = P(X >= 8) but P(X >= 8.0000001) = P(X >= 9); a caller whose x carries
 * rounding noise must round it first. It accepts +-infinity (0 and 1); NaN
 * gives 0. P(X >= v) for v <= lo and P(X <= v) for v >= hi are exactly 1. */
void cs_dist_point(cs_dist *out, int value);                 /* P(X = value) = 1 */
double cs_dist_p_eq(const cs_dist *d, int v);
double cs_dist_p_at_least(const cs_dist *d, int v);          /* P(X >= v) */
double cs_dist_p_at_most(const cs_dist *d, int v);           /* P(X <= v) */
double cs_dist_p_at_least_real(const cs_dist *d, double x);  /* P(X >= x), x real */
double cs_dist_mean(const cs_dist *d);
double cs_dist_variance(const cs_dist *d);
void cs_dist_shift(cs_dist *d, int by);                      /* X + by */
/* out = distribution of X + Y for independent X, Y; out may be a or b.
 * CS_ELIMIT (out untouched) if the result is wider than CS_DIST_CAP. */
cs_status cs_dist_convolve(const cs_dist *a, const cs_dist *b, cs_dist *out);

#endif
