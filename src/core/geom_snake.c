/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The snaking charge path (geom_snake.h): the search over the candidate
 * paths of geom_snake_cand.c in the charger's two frames, cheapest first. */
#include "geom_internal.h"

/* The frame of geom_internal.h in the world: origin, axes, mirror. */
typedef struct frame {
    cs_vec2 o, right, fwd;
    double sx; /* +1, or -1 when mirrored */
} frame;

static cs_vec2 to_local(const frame *f, cs_vec2 p)
{
    cs_vec2 d = sub(p, f->o);
    return v2(f->sx * dot(d, f->right), dot(d, f->fwd));
}

static cs_vec2 to_world(const frame *f, cs_vec2 p)
{
    return add(f->o, add(scale(f->right, f->sx * p.x), scale(f->fwd, p.y)));
}

/* A world polygon in the frame, kept counter-clockwise. */
static void poly_local(const frame *f, const cs_vec2 *v, int n, cs_vec2 *out)
{
    for (int i = 0; i < n; i++)
        out[f->sx > 0 ? i : n - 1 - i] = to_local(f, v[i]);
}

/* When segment [p0, p1] moving along d first touches segment [e0, e1]
 * (INFINITY if never): an end of one meets the other. A segment parallel to
 * d is met at its ends by the other's rays. */
static inline double seg_contact(cs_vec2 p0, cs_vec2 p1, cs_vec2 d, cs_vec2 e0, cs_vec2 e1)
{
    double best = INFINITY;
    cs_vec2 ed = sub(e1, e0), pd = sub(p1, p0);
    double de = cross(d, ed), dp = cross(d, pd);
    const cs_vec2 ps[2] = { p0, p1 }, es[2] = { e0, e1 };
    for (int i = 0; i < 2; i++) {
        if (de != 0) { /* the end of the moving segment runs into [e0, e1] */
            cs_vec2 w = sub(e0, ps[i]);
            double t = cross(w, ed) / de, u = cross(w, d) / de;
            if (t >= -1e-12 && u >= -1e-12 && u <= 1 + 1e-12)
                best = dmin(best, dmax(t, 0.0));
        }
        if (dp != 0) { /* an end of [e0, e1] is met by the moving segment */
            cs_vec2 w = sub(es[i], p0);
            double t = cross(w, pd) / dp, u = cross(d, w) / dp;
            if (t >= -1e-12 && u >= -1e-12 && u <= 1 + 1e-12)
                best = dmin(best, dmax(t, 0.0));
        }
    }
    return best;
}

/* The concluding forward of wheel-first path p: until the wheeled front
 * edge touches the facing. */
static inline double wheel_first_forward(const snake_ctx *k, cs_vec2 u)
{
    cs_vec2 p0 = v2(-k->hw, 0), p1 = v2(-k->hw + k->w * u.x, k->w * u.y);
    return seg_contact(p0, p1, v2(-u.y, u.x), k->e[0], k->e[1]);
}

static void snake_frame(const cs_rect *ch, double sx, frame *fr)
{
    fr->o = cs_geom_edge_centre(ch, CS_FRONT);
    fr->right = ch->right;
    fr->fwd = ch->fwd;
    fr->sx = sx;
}

/* The wheel of path p in degrees (> 0 left) in the world. */
static inline double path_wheel(const frame *fr, const path *p)
{
    return p->u.y == 0 ? 0.0 : fr->sx * atan2(p->u.y, p->u.x) / DEG;
}

/* The pose of a path as a world rectangle: the charger turned by the wheel
 * (its unit vectors rotated by u, mirrored with the frame). */
static cs_rect path_pose(const cs_rect *ch, const frame *fr, const path *p, double wheel)
{
    double hw = 0.5 * ch->width;
    cs_vec2 fc = add(add(v2(-hw, p->s1), scale(p->u, hw)), scale(v2(-p->u.y, p->u.x), p->s2));
    cs_rect r = *ch;
    double c = p->u.x, sn = fr->sx * p->u.y;
    r.facing = ch->facing + wheel;
    r.fwd = rot(ch->fwd, c, sn);
    r.right = rot(ch->right, c, sn);
    r.c = sub(to_world(fr, fc), scale(r.fwd, 0.5 * ch->depth));
    return r;
}

/* Sets out from path p of frame fr, touching others[hit] (-1: none). */
static void snake_result(const cs_rect *charger, double wheel, const path *p, cs_rect fin,
                         cs_seg fe, cs_seg e, int hit, cs_snake *out)
{
    out->found = true;
    out->wheel = wheel;
    /* without a wheel, "wheel first then forward" and "forward" are one
     * straight move: reported as the initial forward */
    out->forward1 = p->u.y == 0 ? p->s1 + p->s2 : p->s1;
    out->forward2 = p->u.y == 0 ? 0.0 : p->s2;
    out->cost = p->cost;
    out->length = p->s1 + charger->width * fabs(out->wheel) * DEG + p->s2;
    out->final = fin;
    out->touches = hit;
    /* the contact point: the middle of the common part when the front edge
     * meets the facing flush, else the closest pair's point on the facing */
    cs_vec2 ev = sub(e.b, e.a);
    double el2 = dot(ev, ev), tt;
    if (fabs(cross(sub(fe.b, fe.a), ev)) <= 1e-9 * sqrt(el2) * charger->width) {
        double ta = dot(sub(fe.a, e.a), ev) / el2, tb = dot(sub(fe.b, e.a), ev) / el2;
        tt = 0.5 * (dmax(dmin(ta, tb), 0.0) + dmin(dmax(ta, tb), 1.0));
    } else {
        /* squared distances, a square root only where the margin needs it */
        cs_vec2 best = fe.a;
        double bd2 = point_seg_d2(fe.a, e), d2 = point_seg_d2(fe.b, e);
        if (d2 < bd2)
            best = fe.b, bd2 = d2;
        double bd = sqrt(bd2);
        const cs_vec2 ends[2] = { e.a, e.b };
        for (int i = 0; i < 2; i++) {
            double di2 = point_seg_d2(ends[i], fe);
            if (di2 < bd2 && sqrt(di2) < bd - 1e-12)
                best = ends[i], bd = sqrt(di2), bd2 = di2;
        }
        tt = dot(sub(best, e.a), ev) / el2;
    }
    out->contact = add(e.a, scale(ev, dmin(dmax(tt, 0.0), 1.0)));
}

/* The untried candidates of both frames, cheapest first (frame in bit 6 of
 * each entry), their costs alongside in oc; returns how many. */
static int order_candidates(const snake_ctx *k, int ord[128], double oc[128])
{
    int n = 0;
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < k[m].nc; i++)
            if (!k[m].used[i]) {
                double c = k[m].cand[i].cost;
                int j = n++;
                for (; j > 0 && oc[j - 1] > c; j--) {
                    ord[j] = ord[j - 1];
                    oc[j] = oc[j - 1];
                }
                ord[j] = m << 6 | i;
                oc[j] = c;
            }
    return n;
}

/* The lazy candidate ord[at] of the n in order: its true cost, then back in
 * order, before its equals. False (and the candidate used) when its
 * concluding forward never reaches the facing. */
static bool settle_lazy(snake_ctx *k, int *ord, double *oc, int n, int at)
{
    int bm = ord[at] >> 6, bi = ord[at] & 63;
    path *p = &k[bm].cand[bi];
    double s2 = wheel_first_forward(&k[bm], p->u);
    if (!isfinite(s2)) {
        k[bm].used[bi] = true;
        return false;
    }
    p->s2 = s2 < 1e-9 ? 0.0 : s2;
    p->cost = k[bm].w * p->u.y + p->s2;
    p->exact = true;
    int j = at, v = ord[at];
    for (; j + 1 < n && oc[j + 1] < p->cost; j++) {
        ord[j] = ord[j + 1];
        oc[j] = oc[j + 1];
    }
    ord[j] = v;
    oc[j] = p->cost;
    return true;
}

/* Whether path p of frame kk is valid: at its end the front edge is on the
 * facing and the charger does not overlap the target, and on the way it
 * touches the target nowhere before. c is set to the charger's outline at
 * the end, in the frame. */
static bool path_valid(const snake_ctx *kk, const path *p, cs_vec2 c[4])
{
    /* the end first, then the way there */
    charger_at(kk->hw, kk->d, p->s1, p->u, c);
    cs_vec2 step = scale(v2(-p->u.y, p->u.x), p->s2);
    for (int i = 0; i < 4; i++)
        c[i] = add(c[i], step);
    cs_seg fe = { c[0], c[3] }, ek = { kk->e[0], kk->e[1] };
    if (!segs_within(fe, ek, 1e-7) ||
        !rects_apart(scale(add(c[0], c[2]), 0.5), p->u, kk->hw, 0.5 * kk->d, kk->tc, kk->tu,
                     0.5 * kk->tw, 0.5 * kk->td, CS_GEOM_EPS))
        return false;
    bool early = false;
    int ph = cs_geom_path_touch(kk->hw, kk->d, p, kk->t, kk->tw, kk->td, kk->t1, &early);
    return ph != 0 && !early;
}

/* The first of the n_others units that path p of frame kk (world frame fr)
 * touches on the way, -1 if none. */
static int other_touched(const snake_ctx *kk, const path *p, const frame *fr,
                         const cs_rect *others, int n_others)
{
    int hit = -1;
    for (int o = 0; o < n_others && hit < 0; o++) {
        cs_poly op = cs_geom_rect_poly(&others[o]);
        cs_vec2 ol[4];
        poly_local(fr, op.v, 4, ol);
        bool dummy;
        if (cs_geom_path_touch(kk->hw, kk->d, p, ol, others[o].width, others[o].depth, NAN,
                               &dummy) != 0)
            hit = o;
    }
    return hit;
}

/* Tries the untried candidates of both frames cheapest first, cheaper
 * than a clean path already in out. A valid one reaches the facing with
 * the front edge, touching the target nowhere before. Returns true when out
 * holds a valid path touching no other unit; the cheapest valid path
 * touching one is kept in out meanwhile. */
static bool try_candidates(const cs_rect *charger, cs_seg e, const cs_rect *others,
                           int n_others, snake_ctx *k, const frame *fr, cs_snake *out)
{
    int ord[128];
    double oc[128];
    int n = order_candidates(k, ord, oc);
    for (int at = 0; at < n;) {
        int bm = ord[at] >> 6, bi = ord[at] & 63;
        path *p = &k[bm].cand[bi];
        if (out->found && out->touches < 0 && p->cost >= out->cost)
            return true;
        if (!p->exact) {
            if (!settle_lazy(k, ord, oc, n, at))
                at++;
            continue;
        }
        at++;
        k[bm].used[bi] = true;
        cs_vec2 c[4];
        if (!path_valid(&k[bm], p, c))
            continue;
        double wheel = path_wheel(&fr[bm], p);
        cs_rect fin = path_pose(charger, &fr[bm], p, wheel);
        int hit = other_touched(&k[bm], p, &fr[bm], others, n_others);
        if (hit >= 0 && out->found)
            continue;
        cs_seg fw = { to_world(&fr[bm], c[0]), to_world(&fr[bm], c[3]) };
        if (fr[bm].sx < 0) { /* mirrored: the frame's FL is the world's FR */
            cs_vec2 t = fw.a;
            fw.a = fw.b;
            fw.b = t;
        }
        snake_result(charger, wheel, p, fin, fw, e, hit, out);
        if (hit < 0)
            return true;
    }
    return out->found && out->touches < 0;
}

/* The snaking problem in the unmirrored frame, k[0] (world frame fr[0]),
 * and what both frames share: the target's centre, the unit vector along
 * its front edge and its outline in cs_geom_rect_poly's order (FL, RL, RR,
 * FR, counter-clockwise), the facing e and its outward normal n. */
static void snake_setup(const cs_rect *charger, const cs_rect *target, cs_seg e, cs_vec2 n,
                        const frame *fr, snake_ctx k[2])
{
    cs_vec2 tc = to_local(&fr[0], target->c);
    cs_vec2 tr = v2(dot(target->right, charger->right), dot(target->right, charger->fwd));
    cs_vec2 tf = v2(dot(target->fwd, charger->right), dot(target->fwd, charger->fwd));
    cs_vec2 thw = scale(tr, 0.5 * target->width), thd = scale(tf, 0.5 * target->depth);
    k[0].t[0] = add(tc, sub(thd, thw));
    k[0].t[1] = sub(tc, add(thw, thd));
    k[0].t[2] = add(tc, sub(thw, thd));
    k[0].t[3] = add(tc, add(thw, thd));
    k[0].tc = tc;
    k[0].tu = tr;
    k[0].e[0] = to_local(&fr[0], e.a);
    k[0].e[1] = to_local(&fr[0], e.b);
    k[0].n = v2(dot(n, charger->right), dot(n, charger->fwd));
    for (int m = 0; m < 2; m++) {
        k[m].hw = 0.5 * charger->width;
        k[m].w = charger->width;
        k[m].d = charger->depth;
        k[m].tw = target->width;
        k[m].td = target->depth;
        k[m].nc = 0;
    }
    /* the same in both frames: the mirror keeps distances along y */
    k[0].t1 = k[1].t1 =
        cs_geom_box_sweep_start(k[0].w, k[0].d, k[0].t, target->width, target->depth);
}

/* The mirrored frame k[1] from k[0]: x -> -x, the outline reversed to stay
 * counter-clockwise. */
static void snake_mirror(snake_ctx k[2])
{
    for (int i = 0; i < 4; i++)
        k[1].t[3 - i] = v2(-k[0].t[i].x, k[0].t[i].y);
    k[1].tc = v2(-k[0].tc.x, k[0].tc.y);
    k[1].tu = v2(-k[0].tu.x, k[0].tu.y);
    for (int i = 0; i < 2; i++)
        k[1].e[i] = v2(-k[0].e[i].x, k[0].e[i].y);
    k[1].n = v2(-k[0].n.x, k[0].n.y);
}

void cs_geom_snake(const cs_rect *charger, const cs_rect *target, cs_facing f,
                   const cs_rect *others, int n_others, cs_snake *out)
{
    out->found = false;
    out->touches = -1;
    snake_ctx k[2];
    frame fr[2];
    cs_seg e = cs_geom_edge(target, f);
    snake_frame(charger, 1.0, &fr[0]);
    fr[1] = fr[0];
    fr[1].sx = -1.0;
    snake_setup(charger, target, e, edge_normal(target, f), fr, k);
    /* The straight path first: when no path can cost less (straight_least,
     * or else the two frames' bounds), it is the cheapest. Then the wheels,
     * the frame whose bound is lower first; the other frame is skipped when
     * a clean path found already costs no more than its bound. */
    add_path(&k[0], seg_contact(v2(-k[0].hw, 0), v2(k[0].hw, 0), v2(0, 1), k[0].e[0], k[0].e[1]),
             v2(1, 0), 0);
    double lb[2] = { NAN, NAN };
    bool least = false;
    if (k[0].nc == 1) {
        /* no path costs less than the facing's least y (no point of the
         * front edge advances more than the cost): often enough at once */
        double s = k[0].cand[0].cost;
        least = dmin(k[0].e[0].y, k[0].e[1].y) + 1e-12 >= s ||
                cs_geom_snake_straight_least(&k[0], s);
        /* the straight path alone, the mirrored frame not needed */
        if (least && try_candidates(charger, e, others, n_others, k, fr, out))
            return;
    }
    snake_mirror(k);
    if (k[0].nc == 1 && !least) {
        /* the frames' bounds cover the paths of both, and together every
         * path */
        lb[0] = cs_geom_snake_lower_bound(&k[0], k[0].hw);
        lb[1] = cs_geom_snake_lower_bound(&k[1], k[1].hw);
        least = k[0].cand[0].cost <= dmin(lb[0], lb[1]) + 1e-12;
        if (least && try_candidates(charger, e, others, n_others, k, fr, out))
            return;
    }
    if (isnan(lb[0])) {
        lb[0] = cs_geom_snake_lower_bound(&k[0], k[0].hw);
        lb[1] = cs_geom_snake_lower_bound(&k[1], k[1].hw);
    }
    int first = lb[1] < lb[0];
    for (int r = 0; r < 2; r++) {
        int m = r ? 1 - first : first;
        if (out->found && out->touches < 0 && out->cost <= lb[m] + 1e-12)
            break;
        cs_geom_snake_candidates(&k[m]);
        if (try_candidates(charger, e, others, n_others, k, fr, out) && r == 1)
            return;
    }
}

bool cs_geom_snake_sweep_hits(const cs_rect *r, double forward1, double wheel, double forward2,
                              const cs_rect *other)
{
    frame fr;
    snake_frame(r, wheel < 0 ? -1.0 : 1.0, &fr);
    cs_poly op = cs_geom_rect_poly(other);
    cs_vec2 ol[4];
    poly_local(&fr, op.v, 4, ol);
    double th = fabs(wheel) * DEG;
    path p = { forward1, forward2, 0, v2(cos(th), sin(th)), true };
    bool early;
    return cs_geom_path_touch(0.5 * r->width, r->depth, &p, ol, other->width, other->depth, NAN,
                              &early) != 0;
}
