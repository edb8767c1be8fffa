/* SPDX-License-Identifier: GPL-3.0-or-later */
/* generic — any "move + dice" charge (docs/rules/generic.md), the
 * smallest complete ruleset and the model for the others.
 *
 * range = move + <dice>; the charge succeeds when the range reaches
 * distance - engagement (reach.h: decimal distances are exact). Re-roll
 * policies: none; failed (re-roll the whole roll once if it fails); one_die
 * (re-roll the single die that best helps: the lowest). Presets fill move's
 * role, the dice, how near counts as a charge and who may declare, as four
 * published games play them (issue 15.1; one row each in PRESETS). Units'
 * own rules add to a preset (The Old World's, issue 50): natural 1s of the
 * charge dice re-rolled (reroll_ones), a bonus to the roll (roll_bonus) and
 * to the maximum possible charge range (range_bonus), and a charge that
 * halts on natural 1s (halt_ones). */
#include <math.h>
#include <string.h>

#include "chargesim/dice.h"
#include "chargesim/reach.h"
#include "chargesim/registry.h"

enum {
    P_PRESET, P_MOVE, P_DICE, P_SWIFTSTRIDE, P_REROLL, P_ENGAGEMENT, P_DISTANCE,
    P_REROLL_ONES, P_ROLL_BONUS, P_RANGE_BONUS, P_HALT_ONES, P_COUNT
};
enum { REROLL_NONE, REROLL_FAILED, REROLL_ONE_DIE };
enum { ONES_NONE, ONES_EVERY, ONES_SINGLE };
enum { O_CHARGED, O_FAILED, O_ILLEGAL, O_COUNT };
enum { M_ROLL, M_RANGE };

/* Who may declare a charge. NONE: anyone, at any gap. FIXED: a target
 * within `declare` inches. MAX_RANGE: within the maximum possible charge
 * range, M + `declare` (+ `swift_declare` with swiftstride). Under FIXED
 * and MAX_RANGE a charger already within its engagement distance of the
 * target (at gap 0 when that is 0: base contact) is engaged and may not
 * declare. */
enum { LIMIT_NONE, LIMIT_FIXED, LIMIT_MAX_RANGE };

/* The presets, one row each: all the program knows of one published game's
 * charge, from its core rules (docs/rules/generic.md, "The presets", where
 * the row has its line too; tests/test_help.c checks that it does).
 * X(name, title, line, source, swift, swift_dice, swift_help, fields):
 *   name    the value of `preset`, in the order of its choices
 *   title   the game as players name it (the page lists games, issue 45)
 *   line    its line in the table of `chargesim rules generic`: the name
 *           padded to 8, the roll, the engagement, who may declare
 *   source  its lines under "Sources" there (continued with 4 spaces): the
 *           rulebook and section, and a reading chosen where it is silent
 *   swift   SWIFT where swiftstride applies, with the dice it rolls and
 *           what it does in words (for the help of `swiftstride`);
 *           NOSWIFT, NULL, "" elsewhere
 *   fields  of struct preset below; what a row leaves out is 0 or NULL.
 *           `.example` is the page's first Run of the game (issue 52): a
 *           usual unit and the distances where its charge goes from sure
 *           to out of reach. Move 4 is the common infantry Movement of the
 *           Warhammer games; the dice-only games (40k, AoS) keep move 0. */
#define PRESETS(X)                                                                              \
    X(none, "Any move + dice charge", "none    move + dice         0 (contact)  no limit",                                \
      "your own dice (`dice`, 2D6 when empty) and move.",                                       \
      NOSWIFT, NULL, "",                                                                        \
      .limit = LIMIT_NONE, .example = "move=4&distance=5..16")                                  \
    X(w40k, "Warhammer 40,000",                                                                 \
      "w40k    2D6 (no move)       1\"           target within 12\"; not already within 1\"",   \
      "Warhammer 40,000 core rules, Charge phase: a charge may be declared\n"                   \
      "    against units within 12\" and must end within Engagement Range (1\"), so a\n"        \
      "    gap of d needs 2D6 >= d - 1; a unit within Engagement Range is engaged\n"            \
      "    and cannot declare.",                                                                \
      NOSWIFT, NULL, "",                                                                        \
      .dice = "2d6", .dice_alone = true, .engagement = 1.0, .limit = LIMIT_FIXED,               \
      .declare = 12.0, .example = "distance=2..13")                                             \
    X(aos, "Warhammer Age of Sigmar",                                                           \
      "aos     2D6 (no move)       1/2\"         target within 12\"; not already within 1/2\"", \
      "Age of Sigmar core rules: charge targets within 12\", the move must end\n"               \
      "    within 1/2\" of the target, a unit already within 1/2\" is in combat.",              \
      NOSWIFT, NULL, "",                                                                        \
      .dice = "2d6", .dice_alone = true, .engagement = 0.5, .limit = LIMIT_FIXED,               \
      .declare = 12.0, .example = "distance=2..13")                                             \
    X(tow, "Warhammer: The Old World", "tow     M + highest of 2D6  0 (contact)  target within M + 6 (+3 Swiftstride)",     \
      "The Old World: charges are declared only within the Maximum Possible\n"                  \
      "    Charge Range, M + 6 (+3 with Swiftstride), and end in base contact.\n"               \
      "    Swiftstride (its rule profile in the game's data: \"increases its maximum\n"         \
      "    possible charge range by 3\" and ... may choose to apply a +D6 modifier\n"          \
      "    to the result\" of the Charge roll): M + the highest of 2D6 + D6,\n"                \
      "    declared within M + 9. The +D6 is always taken: it never shortens a\n"             \
      "    charge.",                                                                            \
      SWIFT, "2d6kh1+1d6", "the highest of 2D6, plus a D6",                                     \
      .dice = "2d6kh1", .limit = LIMIT_MAX_RANGE, .declare = 6.0, .swift_declare = 3.0,         \
      .example = "move=4&distance=4..12")                                                       \
    X(whfb8, "Warhammer Fantasy Battles, 8th edition", "whfb8   M + 2D6             0 (contact)  no limit",                               \
      "Warhammer Fantasy Battles, 8th edition, Charge Range; Swiftstride rolls\n"               \
      "    3D6 and drops the lowest.",                                                          \
      SWIFT, "3d6dl1", "roll 3D6 and drop the lowest",                                          \
      .dice = "2d6", .limit = LIMIT_NONE, .example = "move=4&distance=5..16")                   \
    /* a new preset: its row above this line */

typedef struct preset {
    const char *name, *line, *source;
    const char *swift_dice; /* the dice with swiftstride; NULL: swiftstride does not apply */
    const char *dice;       /* the charge dice; NULL: the `dice` parameter's, 2D6 when empty */
    bool dice_alone;        /* the dice alone make the range: move must stay 0 */
    double engagement;      /* inches: ending this near the target is a charge */
    int limit;              /* LIMIT_*: who may declare */
    double declare;         /* LIMIT_FIXED: inches; LIMIT_MAX_RANGE: added to M */
    double swift_declare;   /* LIMIT_MAX_RANGE with swiftstride: added as well */
    const char *example;    /* the page's first Run of the game (cs_game.example); NULL: none */
} preset;

#define PRESET_ROW(name, title, line, source, swift, swift_dice, swift_help, ...) \
    {#name, line, source, swift_dice, __VA_ARGS__},
#define PRESET_NAME(name, ...) #name,
#define PRESET_INDEX(name, ...) PRESET_##name,
#define PRESET_GAME(name, title, ...) {title, #name, &presets[PRESET_##name].example},
#define PRESET_SUMMARY(name, ...) " " #name
#define PRESET_LINE(name, title, line, ...) "  " line "\n"
#define PRESET_SOURCE(name, title, line, source, ...) "  " #name ": " source "\n"
/* "; name: what it does" for a preset with swiftstride, nothing for the others. */
#define PRESET_SWIFT_HELP(name, title, line, source, swift, swift_dice, swift_help, ...) \
    PRESET_HELP_##swift(name, swift_help)
#define PRESET_HELP_SWIFT(name, swift_help) "; " #name ": " swift_help
#define PRESET_HELP_NOSWIFT(name, swift_help)

/* Each preset's index in presets[], for games[] to point into its row. */
enum { PRESETS(PRESET_INDEX) };
static const preset presets[] = {PRESETS(PRESET_ROW)};
static const char *const preset_names[] = {PRESETS(PRESET_NAME) NULL};
static const cs_game games[] = {PRESETS(PRESET_GAME)};
#define N_PRESETS ((int)(sizeof presets / sizeof presets[0]))

static const char *const reroll_names[] = {"none", "failed", "one_die", NULL};
static const char *const ones_names[] = {"none", "every", "single", NULL};

static const cs_param_def params[P_COUNT] = {
    {"preset", CS_PARAM_CHOICE, "none", "",
     "published game: its roll, engagement and who may declare (`chargesim rules generic`)",
     0, 0, preset_names, 0},
    {"move", CS_PARAM_REAL, "0", "in", "the unit's move characteristic, added to the roll", 0,
     100, NULL, 0},
    {"dice", CS_PARAM_DICE, "", "",
     "the charge dice (Roll20 notation); empty: the preset's, 2d6 without one", 0, 0, NULL, 0},
    {"swiftstride", CS_PARAM_BOOL, "false", "",
     /* the presets' texts joined by "; ": the first one's "; " skipped */
     &(PRESETS(PRESET_SWIFT_HELP))[2],
     0, 0, NULL, CS_PF_ASSUMPTION},
    {"reroll", CS_PARAM_CHOICE, "none", "",
     "none; failed: re-roll the whole roll once if it fails; one_die: re-roll the lowest die",
     0, 0, reroll_names, 0},
    {"engagement", CS_PARAM_REAL, "-1", "in",
     "how near counts as a charge: success when range >= distance - engagement; -1 (default): "
     "the preset's",
     -1, 100, NULL, 0},
    {"distance", CS_PARAM_REAL, "8", "in", "gap to the target", 0, 1000, NULL, CS_PF_LAYOUT},
    {"reroll_ones", CS_PARAM_CHOICE, "none", "",
     "natural 1s of the charge dice (the first term, before keep/drop; not swiftstride's die "
     "nor roll_bonus) re-rolled once: every (ro1, Finest Warhorses) or single, one die (rs1, "
     "Knights Panther); always taken",
     0, 0, ones_names, CS_PF_ASSUMPTION},
    {"roll_bonus", CS_PARAM_DICE, "", "",
     "dice or a number added to the charge roll (e.g. 1, 1d3: Crusader's Zeal, Battle Hunger); "
     "always taken; empty: none",
     0, 0, NULL, 0},
    {"range_bonus", CS_PARAM_REAL, "0", "in",
     "inches added to the maximum possible charge range (presets with one: tow)", 0, 100, NULL,
     0},
    {"halt_ones", CS_PARAM_INT, "0", "",
     "the charge halts (fails) when at least this many of the charge dice show a natural 1 "
     "(Temperamental: 2); 0: never",
     0, 100, NULL, CS_PF_ASSUMPTION},
};

static const char *const outcomes[O_COUNT] = {"charged", "failed", "illegal"};
static const char *const outcome_help[O_COUNT] = {
    "the roll reached: the charger ends in contact (or within the game's engagement range)",
    "declared, but the roll fell short of the distance",
    "may not be declared: beyond the game's declaration range, or already engaged",
};

static const cs_metric_def metrics[] = {
    {"roll", "", "the dice total after any re-roll", 1.0, -50.0, 650.0, CS_METRIC_DIST},
    {"range", "in", "move + roll", 0.5, -50.0, 750.0, CS_METRIC_DIST},
};

typedef struct generic_ctx {
    cs_dice dice;
    cs_dist dist;      /* exact distribution of one roll */
    int halt_ones;     /* > 0: the charge halts when that many of term 0's dice show 1 */
    cs_dice rest;      /* halt_ones: the dice after term 0 (n_terms 0: none) */
    cs_dist go;        /* halt_ones: P(the roll is v and the charge goes on), not summing to 1 */
    double move;
    double engagement; /* inches: ending this near the target is a charge */
    int limit;         /* LIMIT_*: who may declare */
    double max_declare; /* LIMIT_FIXED / LIMIT_MAX_RANGE: the farthest legal target */
    int reroll;
    int n_dice, sides, constant; /* one_die: the roll is n_dice d sides + constant */
    char why[160];     /* a refusal naming presets from the table (cs_diag.what) */
} generic_ctx;

typedef struct generic_layout {
    double distance;
    double need; /* the least whole roll that reaches (cs_reach_min_roll) */
    bool legal;  /* the charge may be declared */
} generic_layout;

/* Appends s to buf (cap bytes, NUL-terminated), cut short at the end. */
static void append(char *buf, size_t cap, const char *s)
{
    size_t used = strlen(buf), n = strlen(s);
    if (n >= cap - used)
        n = cap - used - 1;
    memcpy(buf + used, s, n);
    buf[used + n] = '\0';
}

/* "before <the presets that have it, as 'a, b and c'> after" into c->why,
 * so a refusal names the presets from the table. */
static const char *presets_with(generic_ctx *c, bool swift, const char *before,
                                const char *after)
{
    int n = 0, k = 0;
    for (int i = 0; i < N_PRESETS; i++)
        n += swift ? presets[i].swift_dice != NULL : presets[i].dice_alone;
    c->why[0] = '\0';
    append(c->why, sizeof c->why, before);
    for (int i = 0; i < N_PRESETS; i++)
        if (swift ? presets[i].swift_dice != NULL : presets[i].dice_alone) {
            append(c->why, sizeof c->why, k == 0 ? "" : k == n - 1 ? " and " : ", ");
            append(c->why, sizeof c->why, presets[i].name);
            k++;
        }
    append(c->why, sizeof c->why, after);
    return c->why;
}

/* Term 0 of the dice, the charge roll's own dice: N plain dice, possibly
 * with keep/drop, nothing else (what reroll_ones and halt_ones act on). */
static bool charge_dice(const cs_dice *d)
{
    const cs_dice_term *t = &d->term[0];
    return d->n_terms >= 1 && t->sides > 0 && t->sign > 0 && t->reroll == CS_REROLL_NONE &&
           !t->explode;
}

/* halt_ones: c->go, P(the roll is v and fewer than halt_ones of term 0's
 * dice show a natural 1), by enumerating term 0's dice (S^N rolls, each of
 * weight S^-N) and convolving the rest's exact distribution. */
static cs_status halt_exact(generic_ctx *c, cs_diag *diag)
{
    const cs_dice_term *t = &c->dice.term[0];
    int n = t->count, s = t->sides, face[32], v[32];
    if (n > 32 || pow((double)s, (double)n) > 2e6) {
        *diag = (cs_diag){0, "halt_ones", "the charge dice are too many to enumerate"};
        return CS_EINPUT;
    }
    cs_dice one = {.n_terms = 1, .term = {*t}};
    int lo = cs_dice_min(&one);
    c->go.lo = lo;
    c->go.hi = cs_dice_max(&one);
    for (int i = 0; i <= c->go.hi - lo; i++)
        c->go.p[i] = 0.0;
    double w = pow((double)s, -(double)n);
    for (int i = 0; i < n; i++)
        face[i] = 1;
    for (;;) {
        int ones = 0;
        for (int i = 0; i < n; i++) {
            v[i] = face[i];
            ones += face[i] == 1;
        }
        if (ones < c->halt_ones)
            c->go.p[cs_dice_term_kept(t, v, t->count) - lo] += w;
        if (!cs_dice_faces_next(face, n, s))
            break;
    }
    if (c->rest.n_terms == 0)
        return CS_OK;
    /* Both supports lie inside the whole roll's, which cs_dice_exact checked. */
    cs_dist rest;
    cs_status st = cs_dice_exact(&c->rest, &rest, diag);
    if (st == CS_OK)
        (void)cs_dist_convolve(&c->go, &rest, &c->go);
    return st;
}

/* The unit's own rules on top of the dice (issue 50): reroll_ones marks
 * term 0, roll_bonus appends its terms, halt_ones splits term 0 from the
 * rest. Each refuses what it cannot mean. */
static cs_status own_rules(const cs_params *p, generic_ctx *c, const preset *row, cs_diag *diag)
{
    int ones = (int)p->num[P_REROLL_ONES];
    const char *bonus = p->text[P_ROLL_BONUS];
    c->halt_ones = (int)p->num[P_HALT_ONES];
    if ((ones != ONES_NONE || c->halt_ones > 0) && !charge_dice(&c->dice)) {
        *diag = (cs_diag){0, ones != ONES_NONE ? "reroll_ones" : "halt_ones",
                          "needs charge dice without a re-roll or '!' of their own"};
        return CS_EINPUT;
    }
    if (p->num[P_RANGE_BONUS] != 0.0 && row->limit != LIMIT_MAX_RANGE) {
        *diag = (cs_diag){0, "range_bonus",
                          "only a preset with a maximum possible charge range (tow) has one"};
        return CS_EINPUT;
    }
    c->max_declare += p->num[P_RANGE_BONUS];
    if (ones != ONES_NONE) {
        cs_dice_term *t = &c->dice.term[0];
        t->reroll = ones == ONES_EVERY ? CS_REROLL_ONCE : CS_REROLL_SINGLE;
        t->reroll_cmp = CS_CMP_EQ;
        t->reroll_value = 1;
    }
    if (c->halt_ones > 0) {
        if (c->reroll != REROLL_NONE || ones != ONES_NONE || c->halt_ones > c->dice.term[0].count) {
            *diag = (cs_diag){0, "halt_ones",
                              "give at most the number of charge dice, with no re-roll "
                              "(reroll and reroll_ones none: a halted charge rolls no more)"};
            return CS_EINPUT;
        }
        c->rest.n_terms = c->dice.n_terms - 1;
        for (int i = 1; i < c->dice.n_terms; i++)
            c->rest.term[i - 1] = c->dice.term[i];
    }
    if (bonus && bonus[0] != '\0') {
        cs_dice b;
        cs_status st = cs_dice_parse(bonus, &b, diag);
        if (st == CS_OK && c->dice.n_terms + b.n_terms > CS_DICE_MAX_TERMS)
            st = CS_ELIMIT;
        if (st != CS_OK) {
            *diag = (cs_diag){0, "roll_bonus",
                              st == CS_ELIMIT ? "the dice and the bonus exceed 8 terms"
                                              : "a dice expression or a number (1, 1d3)"};
            return st;
        }
        for (int i = 0; i < b.n_terms; i++) {
            c->dice.term[c->dice.n_terms++] = b.term[i];
            if (c->halt_ones > 0)
                c->rest.term[c->rest.n_terms++] = b.term[i];
        }
    }
    return CS_OK;
}

static cs_status prepare(const cs_params *p, void *vctx, cs_diag *diag)
{
    generic_ctx *c = vctx;
    const preset *row = &presets[(int)p->num[P_PRESET]];
    bool swift = p->num[P_SWIFTSTRIDE] != 0.0;
    const char *text = p->text[P_DICE];
    bool own_dice = text && text[0] != '\0';

    memset(c, 0, sizeof *c);
    c->move = p->num[P_MOVE];
    c->reroll = (int)p->num[P_REROLL];
    *diag = (cs_diag){0, NULL, NULL};
    if (p->num[P_ENGAGEMENT] < 0.0 && p->num[P_ENGAGEMENT] != -1.0) {
        *diag = (cs_diag){0, "engagement",
                          "give inches >= 0, or -1 (the default) for the preset's value"};
        return CS_EINPUT;
    }
    c->engagement = p->num[P_ENGAGEMENT] == -1.0 ? row->engagement : p->num[P_ENGAGEMENT];
    c->limit = row->limit;
    c->max_declare = row->declare;
    if (row->limit == LIMIT_MAX_RANGE)
        c->max_declare += c->move + (swift ? row->swift_declare : 0.0);
    if (row->dice_alone && c->move != 0.0) {
        const char *why =
            presets_with(c, false, "", " charge on their dice alone: leave move at 0");
        *diag = (cs_diag){0, "move", why};
        return CS_EINPUT;
    }
    if (swift && !row->swift_dice) {
        const char *why = presets_with(c, true, "swiftstride applies to the ", " presets");
        *diag = (cs_diag){0, "swiftstride", why};
        return CS_EINPUT;
    }
    if (own_dice && row->dice) {
        *diag = (cs_diag){0, "dice", "a preset sets the dice: use preset = none with your own"};
        return CS_EINPUT;
    }
    const char *dice = own_dice ? text : swift ? row->swift_dice : row->dice ? row->dice : "2d6";
    cs_status st = cs_dice_parse(dice, &c->dice, diag);
    if (st != CS_OK) {
        diag->key = "dice";
        return st;
    }
    st = own_rules(p, c, row, diag);
    if (st == CS_OK)
        st = cs_dice_exact(&c->dice, &c->dist, diag);
    if (st == CS_OK && c->halt_ones > 0)
        st = halt_exact(c, diag);
    if (st != CS_OK) {
        if (!diag->key)
            diag->key = "dice";
        return st;
    }
    if (c->reroll == REROLL_ONE_DIE) {
        /* "The single die that best helps" is only well defined for a plain
         * sum of like dice: re-rolling the lowest then helps most. */
        const cs_dice_term *t = &c->dice.term[0];
        bool plain = c->dice.n_terms >= 1 && t->sides > 0 && t->sign > 0 &&
                     t->keep == CS_KEEP_ALL && t->reroll == CS_REROLL_NONE && !t->explode;
        for (int i = 1; plain && i < c->dice.n_terms; i++)
            plain = c->dice.term[i].sides == 0;
        if (!plain || t->count > 16 || pow((double)t->sides, (double)t->count + 1.0) > 2e6) {
            *diag = (cs_diag){0, "reroll",
                              "one_die needs a plain NdX(+constant) roll of at most a few dice"};
            return CS_EINPUT;
        }
        c->n_dice = t->count;
        c->sides = t->sides;
        for (int i = 1; i < c->dice.n_terms; i++)
            c->constant += c->dice.term[i].sign * c->dice.term[i].count;
    }
    return CS_OK;
}

/* Declaration and the roll needed, decided once per layout so that the
 * sampled and the exact paths share them. Every "reaches" goes through
 * reach.h: 1.3 + 7 reaches 8.3 though binary floating point says otherwise. */
static void draw_layout(const void *vctx, const double *num, cs_rng *rng, void *vl)
{
    const generic_ctx *c = vctx;
    generic_layout *l = vl;
    (void)rng;
    l->distance = num[P_DISTANCE];
    l->legal = c->limit == LIMIT_NONE ||
               (!cs_reaches(c->engagement, l->distance) && cs_reaches(c->max_declare, l->distance));
    /* range = move + roll reaches distance - engagement exactly when the
     * whole roll is at least cs_reach_min_roll(distance - engagement - move). */
    l->need = cs_reach_min_roll(l->distance - c->engagement - c->move);
}

/* One roll with the one_die policy: re-roll the lowest die if it fails. */
static int roll_one_die(const generic_ctx *c, double need, cs_rng *rng)
{
    int sum = c->constant, low = c->sides + 1;
    for (int i = 0; i < c->n_dice; i++) {
        int d = cs_rng_die(rng, c->sides);
        sum += d;
        low = d < low ? d : low;
    }
    if ((double)sum < need)
        sum += cs_rng_die(rng, c->sides) - low;
    return sum;
}

/* One roll with halt_ones: term 0's faces drawn here, to count the 1s. */
static int roll_halt(const generic_ctx *c, cs_rng *rng, bool *halted)
{
    const cs_dice_term *t = &c->dice.term[0];
    int v[32], ones = 0;
    for (int i = 0; i < t->count; i++) {
        v[i] = cs_rng_die(rng, t->sides);
        ones += v[i] == 1;
    }
    *halted = ones >= c->halt_ones;
    int roll = cs_dice_term_kept(t, v, t->count);
    return c->rest.n_terms > 0 ? roll + cs_dice_roll(&c->rest, rng) : roll;
}

/* One charge roll under the re-roll policy (shared by resolve and
 * resolve_batch, so both draw the same numbers); *halted: halt_ones stopped
 * the charge, whatever the roll. */
static inline int roll_once(const generic_ctx *c, double need, cs_rng *rng, bool *halted)
{
    *halted = false;
    if (c->halt_ones > 0)
        return roll_halt(c, rng, halted);
    if (c->reroll == REROLL_ONE_DIE)
        return roll_one_die(c, need, rng);
    int roll = cs_dice_roll(&c->dice, rng);
    if (c->reroll == REROLL_FAILED && (double)roll < need)
        roll = cs_dice_roll(&c->dice, rng);
    return roll;
}

static void resolve(const void *vctx, const void *vl, cs_rng *rng, cs_trial *out)
{
    const generic_ctx *c = vctx;
    const generic_layout *l = vl;
    if (!l->legal) {
        /* Not declared: nothing is rolled. */
        out->outcome = O_ILLEGAL;
        out->m[M_ROLL] = out->m[M_RANGE] = (double)NAN;
        return;
    }
    double need = l->need;
    bool halted;
    int roll = roll_once(c, need, rng, &halted);
    out->outcome = !halted && (double)roll >= need ? O_CHARGED : O_FAILED;
    out->m[M_ROLL] = (double)roll;
    out->m[M_RANGE] = c->move + (double)roll;
}

static void resolve_batch(const void *vctx, const void *vl, cs_rng_trials *trials, uint64_t n,
                          cs_tally *t)
{
    const generic_ctx *c = vctx;
    const generic_layout *l = vl;
    if (!l->legal) {
        t->count[O_ILLEGAL] += n;
        return;
    }
    double need = l->need;
    const cs_dice_term *d = &c->dice.term[0];
    double sum_roll = t->msum[M_ROLL], sum_range = t->msum[M_RANGE];
    uint64_t ok = 0;
    if (c->reroll == REROLL_NONE && c->halt_ones == 0 && c->dice.n_terms == 1 && d->sides > 0 &&
        d->sign > 0 &&
        d->keep == CS_KEEP_ALL && d->reroll == CS_REROLL_NONE && !d->explode) {
        /* Plain NdX: the dice drawn inline, as cs_dice_roll draws them. */
        const uint32_t sides = (uint32_t)d->sides;
        const int count = d->count;
        for (uint64_t i = 0; i < n; i++) {
            cs_rng rng;
            cs_rng_trials_next(trials, &rng);
            int roll = count;
            for (int k = 0; k < count; k++)
                roll += (int)cs_rng_bounded(&rng, sides);
            ok += (double)roll >= need;
            sum_roll += (double)roll;
            sum_range += c->move + (double)roll;
        }
    } else {
        for (uint64_t i = 0; i < n; i++) {
            cs_rng rng;
            cs_rng_trials_next(trials, &rng);
            bool halted;
            int roll = roll_once(c, need, &rng, &halted);
            ok += !halted && (double)roll >= need;
            sum_roll += (double)roll;
            sum_range += c->move + (double)roll;
        }
    }
    t->count[O_CHARGED] += ok;
    t->count[O_FAILED] += n - ok;
    t->mdef[M_ROLL] += n;
    t->mdef[M_RANGE] += n;
    t->msum[M_ROLL] = sum_roll;
    t->msum[M_RANGE] = sum_range;
}


/* Exact one_die probabilities: every roll of the dice, and for a failing one
 * every face of the re-rolled lowest die. */
static double one_die_exact(const generic_ctx *c, double need, cs_probs *pr, bool dist)
{
    int face[32];
    double success = 0.0, w = pow((double)c->sides, -(double)c->n_dice);
    for (int i = 0; i < c->n_dice; i++)
        face[i] = 1;
    for (;;) {
        int sum = c->constant, low = c->sides + 1;
        for (int i = 0; i < c->n_dice; i++) {
            sum += face[i];
            low = face[i] < low ? face[i] : low;
        }
        if ((double)sum >= need) {
            success += w;
            if (dist)
                cs_probs_add(pr, M_ROLL, (double)sum, w);
        } else {
            for (int f = 1; f <= c->sides; f++) {
                int r = sum - low + f;
                double q = w / (double)c->sides;
                if ((double)r >= need)
                    success += q;
                if (dist)
                    cs_probs_add(pr, M_ROLL, (double)r, q);
            }
        }
        if (!cs_dice_faces_next(face, c->n_dice, c->sides))
            break;
    }
    return success;
}

/* P(the final roll is v) when the first roll shows v with probability q:
 * without a re-roll, q; with the failed policy, q if v already succeeds, plus
 * P(first fails) q for the re-roll. */
static double kept(int v, double need, double again, double q)
{
    if (again == 0.0)
        return q;
    return ((double)v >= need ? q : 0.0) + again * q;
}

static void outcome_probabilities(const void *vctx, const void *vl, cs_probs *pr)
{
    const generic_ctx *c = vctx;
    const generic_layout *l = vl;
    if (!l->legal) {
        /* Nothing is rolled: both metrics are never defined. */
        pr->p[O_ILLEGAL] = 1.0;
        for (int m = M_ROLL; m <= M_RANGE; m++) {
            pr->n[m] = 0;
            pr->mean[m] = pr->pdef[m] = 0.0;
        }
        return;
    }
    double need = l->need;
    int width = c->dist.hi - c->dist.lo + 1;
    bool dist = width <= CS_PROBS_MAX_VALUES;
    double p;

    if (c->reroll == REROLL_ONE_DIE) {
        p = one_die_exact(c, need, pr, dist && c->n_dice * c->sides <= CS_PROBS_MAX_VALUES);
        p = fmin(1.0, p); /* a sum of exact terms may round a hair above 1 */
    } else {
        double p1 = cs_dist_p_at_least_real(&c->dist, need);
        if (c->halt_ones > 0) {
            /* Reached and not halted; the roll is reported either way, so
             * its distribution below stays c->dist (no re-roll with halts). */
            p1 = 0.0;
            for (int v = c->go.lo; v <= c->go.hi; v++)
                p1 += (double)v >= need ? c->go.p[v - c->go.lo] : 0.0;
        }
        /* again = P(the whole roll is re-rolled); 0 also when p1 = 1. */
        double again = c->reroll == REROLL_FAILED ? 1.0 - p1 : 0.0;
        p = p1 + again * p1;
        if (dist) {
            /* P(final roll = v) = P(v on the first roll and it succeeds)
             * + P(first fails) P(v on the re-roll). */
            for (int v = c->dist.lo; v <= c->dist.hi; v++) {
                double q = c->dist.p[v - c->dist.lo];
                cs_probs_add(pr, M_ROLL, (double)v, kept(v, need, again, q));
            }
        } else {
            double mean = 0.0;
            for (int v = c->dist.lo; v <= c->dist.hi; v++) {
                double q = c->dist.p[v - c->dist.lo];
                mean += (double)v * kept(v, need, again, q);
            }
            pr->mean[M_ROLL] = mean;
        }
    }
    pr->p[O_CHARGED] = p;
    pr->p[O_FAILED] = 1.0 - p;
    /* range = move + roll: the same distribution, shifted. */
    pr->n[M_RANGE] = pr->n[M_ROLL];
    for (int i = 0; i < pr->n[M_ROLL]; i++) {
        pr->value[M_RANGE][i] = c->move + pr->value[M_ROLL][i];
        pr->prob[M_RANGE][i] = pr->prob[M_ROLL][i];
    }
    pr->pdef[M_ROLL] = pr->pdef[M_RANGE] = 1.0;
    if (pr->n[M_ROLL] == 0 && pr->mean[M_ROLL] == pr->mean[M_ROLL])
        pr->mean[M_RANGE] = c->move + pr->mean[M_ROLL];
}

const cs_ruleset cs_rules_generic = {
    .name = "generic",
    .summary = "any \"move + dice\" charge; presets:" PRESETS(PRESET_SUMMARY),
    .doc =
        "range = move + dice; the charge succeeds when the range reaches distance -\n"
        "engagement (head-on; a range reaches a distance when range >= distance - 1e-6\n"
        "inch, so decimal distances such as 8.3 are exact).\n"
        "Presets (docs/rules/generic.md), each as its game's core rules play it:\n"
        "  preset  roll                engagement   who may declare\n"
        PRESETS(PRESET_LINE)
        "Sources:\n"
        PRESETS(PRESET_SOURCE)
        "Under a declaration limit a charger already within its engagement distance of\n"
        "the target (gap 0 where that is 0: base contact) is engaged: outcome `illegal`,\n"
        "as is a target out of range. engagement (inches) overrides the preset's value;\n"
        "its default -1 means \"the preset's\". The declaration limits follow the preset.\n"
        "Re-rolls: failed re-rolls the whole roll once when it falls short; one_die\n"
        "re-rolls the single die that best helps, which for a plain sum is the lowest one\n"
        "(only plain NdX(+constant) rolls accept it).\n"
        "A unit's own rules (The Old World's, docs/rules/generic.md): reroll_ones =\n"
        "every re-rolls each natural 1 of the charge dice once, before any is discarded\n"
        "(ro1: Finest Warhorses); single re-rolls one die showing 1 (rs1: Knights\n"
        "Panther); only the charge dice, never swiftstride's D6 nor roll_bonus, which\n"
        "are modifiers to the result. roll_bonus adds dice or a number to the roll\n"
        "(Crusader's Zeal 1, Battle Hunger and First to the Fray 1d3); range_bonus adds\n"
        "inches to the maximum possible charge range (1, 2, 3 for those). halt_ones = N:\n"
        "the charge halts, outcome failed, when N of the charge dice show a natural 1\n"
        "(the Steam Tank's Temperamental: 2). A re-roll, a bonus or a choice the rule\n"
        "offers is always taken: it never shortens a charge.\n"
        "Units that may not declare a charge at all are kept at p 0 by `chargesim units`\n"
        "(its mapping's declare = no): war machines (the game system's Weapon of War,\n"
        "'war machines cannot march, declare a charge or make a pursuit move') and Random\n"
        "Movement ('They cannot march or declare a charge.').\n"
        "Success: charged. Outcomes: charged, failed, illegal (no dice are rolled).\n"
        "Exact: outcome probabilities and the roll's distribution are computed from the\n"
        "dice language's exact distributions (method exact / conditional).",
    .params = params,
    .n_params = P_COUNT,
    .outcomes = outcomes,
    .outcome_help = outcome_help,
    .n_outcomes = O_COUNT,
    .games = games,
    .n_games = N_PRESETS,
    .success_mask = 1u << O_CHARGED,
    .metrics = metrics,
    .n_metrics = 2,
    .ctx_size = sizeof(generic_ctx),
    .layout_size = sizeof(generic_layout),
    .prepare = prepare,
    .layout_is_random = NULL,
    .draw_layout = draw_layout,
    .resolve = resolve,
    .outcome_probabilities = outcome_probabilities,
    .resolve_batch = resolve_batch,
};
