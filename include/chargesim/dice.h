#ifndef CHARGESIM_DICE_H
#define CHARGESIM_DICE_H
/* The dice language (Roll20 notation) and exact discrete distributions.
 *
 * Grammar, case-insensitive, spaces ignored:
 *   expr    := term (('+' | '-') term)*        ; a leading '-' negates the first term
 *   term    := INT | [INT] 'd' INT mod*        ; "d6" = "1d6"
 *   mod     := 'kh' INT | 'kl' INT | 'dh' INT | 'dl' INT   ; keep/drop highest/lowest
 *            | 'r' cmp | 'ro' cmp               ; re-roll while it matches / once
 *            | '!'                              ; explode on the maximum face
 *   cmp     := INT | '<' INT | '>' INT          ; '<' and '>' mean <= and >= (Roll20)
 * At most one keep/drop and one re-roll modifier per term. Re-rolls apply to
 * each die before it explodes; an exploding die adds another roll when it
 * shows its maximum face, at most CS_DICE_EXPLODE_CAP extra rolls per die
 * (the documented depth cap: the last extra roll never explodes).
 *
 * One parsed cs_dice serves both cs_dice_exact (probabilities computed, never
 * sampled) and cs_dice_roll (sampling from a stream). Both are pure and do
 * not allocate. */
#include <stdbool.h>

#include "chargesim/rng.h"
#include "chargesim/status.h"

#define CS_DICE_MAX_TERMS   8
#define CS_DICE_MAX_COUNT   100   /* dice in one term */
#define CS_DICE_MAX_SIDES   1000
#define CS_DICE_EXPLODE_CAP 10
#define CS_DIST_CAP         4096  /* support width of an exact distribution */

typedef enum { CS_KEEP_ALL, CS_KEEP_HIGH, CS_KEEP_LOW, CS_DROP_HIGH, CS_DROP_LOW } cs_dice_keep;
typedef enum { CS_REROLL_NONE, CS_REROLL_REPEAT, CS_REROLL_ONCE } cs_dice_reroll;
typedef enum { CS_CMP_EQ, CS_CMP_LE, CS_CMP_GE } cs_dice_cmp;

typedef struct cs_dice_term {
    int sign;               /* +1 or -1 */
    int count;              /* number of dice; for a constant, its value */
    int sides;              /* 0 for a constant term */
    cs_dice_keep keep;      /* keep/drop mode */
    int keep_n;             /* K of khK etc. */
    cs_dice_reroll reroll;  /* re-roll mode */
    cs_dice_cmp reroll_cmp; /* which faces are re-rolled */
    int reroll_value;
    bool explode;           /* '!' */
} cs_dice_term;

typedef struct cs_dice {
    int n_terms;
    cs_dice_term term[CS_DICE_MAX_TERMS];
} cs_dice;

/* An exact distribution over the integers lo..hi: p[v - lo] = P(X = v). */
typedef struct cs_dist {
    int lo, hi;
    double p[CS_DIST_CAP];
} cs_dist;

/* Parses `text`. On error returns CS_EINPUT (or CS_ELIMIT past a limit above)
 * and fills diag: column (1-based) and what was expected. */
cs_status cs_dice_parse(const char *text, cs_dice *out, cs_diag *diag);

/* Writes the canonical text of `d` (lower case, no spaces) into buf (cap >= 1). */
void cs_dice_format(const cs_dice *d, char *buf, int cap);

/* Smallest and largest possible totals. */
int cs_dice_min(const cs_dice *d);
int cs_dice_max(const cs_dice *d);

/* The exact distribution of the total. CS_ELIMIT (diag says why) when the
 * support is wider than CS_DIST_CAP or the enumeration would be too large. */
cs_status cs_dice_exact(const cs_dice *d, cs_dist *out, cs_diag *diag);

/* One sampled total. */
int cs_dice_roll(const cs_dice *d, cs_rng *rng);

/* Distribution helpers, for rulesets that combine dice exactly. */
void cs_dist_point(cs_dist *out, int value);                 /* P(X = value) = 1 */
double cs_dist_p_eq(const cs_dist *d, int v);
double cs_dist_p_at_least(const cs_dist *d, int v);          /* P(X >= v) */
double cs_dist_p_at_most(const cs_dist *d, int v);           /* P(X <= v) */
double cs_dist_p_at_least_real(const cs_dist *d, double x);  /* P(X >= x), x real */
double cs_dist_mean(const cs_dist *d);
double cs_dist_variance(const cs_dist *d);
void cs_dist_shift(cs_dist *d, int by);                      /* X + by */
/* out = distribution of X + Y for independent X, Y; CS_ELIMIT if too wide. */
cs_status cs_dist_convolve(const cs_dist *a, const cs_dist *b, cs_dist *out);

#endif
