/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The align move after a charge (geom_align.h). */
#include "geom_internal.h"

/* The charger flush against facing segment e (length l, unit direction u,
 * outward normal n), covering e's parameters [s, s + w]: facing e from
 * outside, its front-right corner is at parameter s (geom.h: a unit facing
 * an edge has its front-left corner towards the edge's `b` end). */
static cs_rect flush_pose(const cs_rect *ch, cs_vec2 ea, cs_vec2 u, cs_vec2 n, double s)
{
    return cs_geom_rect_front_at(add(ea, scale(u, s + 0.5 * ch->width)), ch->width, ch->depth,
                                 cs_geom_facing_of((cs_vec2){-n.x, -n.y}));
}

/* One align problem: the target's facing e (length l, unit direction u,
 * outward normal n), the charger's frontage w, the charger's parameter s
 * now and the range [lo, hi] of s that keeps the contact point in contact. */
typedef struct align_ctx {
    cs_seg e;
    cs_vec2 u, n;
    double l, w, lo, hi, now;
} align_ctx;

/* The placements s where the models in contact or the blocking by others
 * change, into cand (room for 128); the blocked intervals of s as pairs
 * into blk (room for 16), their count times 2 into *nb. Returns the number
 * of candidates. */
static int align_candidates(const align_ctx *a, const cs_rect *charger,
                            const cs_formation *charger_models, const cs_rect *target,
                            const cs_formation *target_models, cs_facing f,
                            const cs_rect *others, int n_others, double *cand, double *blk,
                            int *nb)
{
    double l = a->l, w = a->w;
    int nc = 0;
    cand[nc++] = a->lo;
    cand[nc++] = a->hi;
    cand[nc++] = dmin(dmax(a->now, a->lo), a->hi);
    cand[nc++] = 0;
    cand[nc++] = l - w;
    /* where a model boundary of either unit meets an end of the other's
     * edge, the counts change */
    double x0, step;
    int nt = cs_geom_edge_cells(target, target_models, f, &x0, &step);
    for (int k = 0; k <= nt && nc < 80; k++) {
        cand[nc++] = x0 + k * step;
        cand[nc++] = x0 + k * step - w;
    }
    int ncm = cs_geom_edge_cells(charger, charger_models, CS_FRONT, &x0, &step);
    for (int k = 0; k <= ncm && nc < 116; k++) {
        /* charger parameter p sits at s + w - p on the facing */
        cand[nc++] = x0 + k * step - w;
        cand[nc++] = l + x0 + k * step - w;
    }
    /* where the charger, slid along the facing, starts or stops touching
     * another unit: from far away on each side, the first contact */
    *nb = 0;
    const double far = 1000.0 + l + 2 * w;
    for (int o = 0; o < n_others && o < 8; o++) {
        cs_poly op = cs_geom_rect_poly(&others[o]);
        cs_rect pa = flush_pose(charger, a->e.a, a->u, a->n, -far);
        cs_rect pb = flush_pose(charger, a->e.a, a->u, a->n, far);
        cs_poly qa = cs_geom_rect_poly(&pa), qb = cs_geom_rect_poly(&pb);
        double ta = cs_geom_first_contact(qa.v, 4, a->u, op.v, 4, 0.0);
        double tb = cs_geom_first_contact(qb.v, 4, scale(a->u, -1.0), op.v, 4, 0.0);
        if (isfinite(ta) && isfinite(tb)) {
            blk[(*nb)++] = -far + ta;
            blk[(*nb)++] = far - tb;
            if (nc < 126) {
                cand[nc++] = -far + ta;
                cand[nc++] = far - tb;
            }
        }
    }
    return nc;
}

void cs_geom_align(const cs_rect *charger, const cs_formation *charger_models,
                   const cs_rect *target, const cs_formation *target_models, cs_facing f,
                   cs_vec2 contact, const cs_rect *others, int n_others, cs_align *out)
{
    align_ctx a;
    a.e = cs_geom_edge(target, f);
    a.l = edge_length(target, f);
    a.w = charger->width;
    a.u = scale(sub(a.e.b, a.e.a), 1.0 / a.l);
    a.n = edge_normal(target, f);
    double tc = dmin(dmax(dot(sub(contact, a.e.a), a.u), 0.0), a.l);
    /* keeping the contact point in contact: s in [tc - w, tc] */
    a.lo = tc - a.w;
    a.hi = tc;
    a.now = dot(sub(cs_geom_corner(charger, CS_CORNER_FR), a.e.a), a.u);
    double cand[128], blk[2 * 8];
    int nb;
    int nc = align_candidates(&a, charger, charger_models, target, target_models, f, others,
                              n_others, cand, blk, &nb);
    double l = a.l, w = a.w, lo = a.lo, hi = a.hi, now = a.now;
    out->flush = false;
    int best_t = -1, best_c = -1;
    double best_move = INFINITY, best_s = 0;
    for (int i = 0; i < nc; i++) {
        double s = cand[i];
        if (s < lo - 1e-12 || s > hi + 1e-12)
            continue;
        s = dmin(dmax(s, lo), hi);
        bool free = true;
        for (int b = 0; b < nb && free; b += 2)
            if (s > blk[b] + CS_GEOM_EPS && s < blk[b + 1] - CS_GEOM_EPS)
                free = false;
        if (!free)
            continue;
        double t0 = dmax(s, 0.0), t1 = dmin(s + w, l);
        int mt = cs_geom_models_on_edge(target, target_models, f, t0, t1);
        /* the charger's front parameter of facing parameter t is s + w - t */
        int mc = cs_geom_models_on_edge(charger, charger_models, CS_FRONT, s + w - t1, s + w - t0);
        double move = fabs(s - now);
        if (mt > best_t || (mt == best_t && (mc > best_c || (mc == best_c && move < best_move)))) {
            best_t = mt;
            best_c = mc;
            best_move = move;
            best_s = s;
            out->flush = true;
        }
    }
    if (!out->flush) {
        out->final = *charger;
        out->overlap = 0;
        out->models_target = 0;
        out->models_charger = 0;
        return;
    }
    out->final = flush_pose(charger, a.e.a, a.u, a.n, best_s);
    out->overlap = dmin(best_s + w, l) - dmax(best_s, 0.0);
    out->models_target = best_t;
    out->models_charger = best_c;
}
