/* The heuristic bot of North Star's CLUBS in C, for the play-outs of the search bots: bot.py restated. Every figure
 * is worked out with the same double operations in the same order as bot.py (its sums are written as loops from
 * 0.0, its ties go to the first candidate as Python's max and min give them, its hypergeometric draws divide two
 * integers below 2 ** 53, which Python divides as these doubles), so the C bot picks the same action as the Python
 * bot; tests/northstar/test_heuristic_northstar.py compares them at every decision of many rounds.
 *
 * What a seat knows is what its NorthstarView shows: its own cards, the cards played this round, the hand sizes, the
 * trick, and the cards it saw in the rounds since the last full shuffle (NS-6), which are out of play (`earlier`,
 * given by the caller from bot.py's seen_earlier).
 */
#ifndef CLUBS_NORTHSTAR_HEURISTIC_H
#define CLUBS_NORTHSTAR_HEURISTIC_H

#include <math.h>

#include "core.h"

/* bot.py's Weights (the values come from Python: Weights' fields in this order). */
typedef struct {
    double kappa, shed, keep_lead, lead_only, lead_value, take, gift, deny, lead_only_control, stranded, wild_fill,
        finish, double_cost, double_per_player;
} nh_weights_t;

#define NH_MEMO 2048 /* slots of a decision's plan memo (a hand of ten cards has at most 1,024 sub-hands) */

/* One decision's Table (bot.py): what the seat knows, the odds and the memo of plans. */
typedef struct {
    const nh_weights_t *w;
    const int *points;
    int seat, n, crazy, wild;
    uint64_t hand, counts;
    int sizes[NS_MAX_SEATS];
    unsigned partners; /* seats, as bits */
    int n_kinds, kind_size[NS_MAX_SEATS], kind_mult[NS_MAX_SEATS]; /* Odds.sizes, in its insertion order */
    int pool, unseen[NS_TOP + 1];
    int lone;
    double sets[NS_TOP + 2][NS_TOP + 2]; /* Odds._set_table(k) when set_done >> k & 1 */
    unsigned set_done;
    double runs[NS_TOP + 2][NS_TOP + 1]; /* Odds._run_stands(length, high) when run_done[length] >> high & 1 */
    unsigned run_done[NS_TOP + 2];
    double have[NS_MAX_SEATS][5]; /* 1 - p_none(pool, kind_size[i], c): an opponent holds one of c cards */
    uint32_t memo_gen[NH_MEMO]; /* plan(packed) memo: a slot is this decision's when memo_gen is `gen` */
    uint64_t memo_key[NH_MEMO];
    double memo_value[NH_MEMO];
    uint32_t gen;
} nh_table_t;

static const double nh_inf = HUGE_VAL;

/* comb(n, k) for n <= 60 (every value below 2 ** 63), from Pascal's triangle, made at the first call. */
static uint64_t nh_combs[NS_CARDS + 1][NS_CARDS + 1];

static inline uint64_t nh_comb(int n, int k) {
    if (k < 0 || k > n) return 0;
    if (!nh_combs[0][0])
        for (int i = 0; i <= NS_CARDS; i++) {
            nh_combs[i][0] = 1;
            for (int j = 1; j <= i; j++) nh_combs[i][j] = nh_combs[i - 1][j - 1] + (j < i ? nh_combs[i - 1][j] : 0);
        }
    return nh_combs[n][k];
}

/* x ** mult as Python's float ** int gives it: libm's pow (exactly x when mult is 1). */
static inline double nh_pow(double x, int mult) { return mult == 1 ? x : pow(x, (double)mult); }

/* bot.py's p_none: the chance that `held` cards drawn from `pool` include none of `good` particular cards. */
static double nh_p_none(int pool, int held, int good) {
    if (held > pool - good) return 0.0;
    return (double)nh_comb(pool - good, held) / (double)nh_comb(pool, held);
}

/* bot.py's p_at_least: the chance that `held` cards drawn from `pool` include at least `k` of `good` cards. */
static double nh_p_at_least(int pool, int held, int good, int k) {
    int top = good < held ? good : held;
    if (top < k) return 0.0;
    uint64_t hits = 0;
    for (int x = k; x <= top; x++) hits += nh_comb(good, x) * nh_comb(pool - good, held - x);
    return (double)hits / (double)nh_comb(pool, held);
}

/* bot.py's value_counts: the cards of a mask as counts by value, 3 bits per value (value v at bit 3 * (v - 1)). */
static inline uint64_t nh_value_counts(uint64_t mask) {
    uint64_t total = 0;
    for (int v = 1; v <= NS_TOP; v++)
        total += (uint64_t)__builtin_popcountll(mask & ns_value_mask(v)) << (3 * (v - 1));
    return total;
}

static inline int nh_count_of(uint64_t packed, int v) { return (int)(packed >> (3 * (v - 1)) & 7); }

static inline int nh_club_points(uint64_t mask, const int *points) {
    int total = 0;
    for (uint64_t m = mask & NS_CLUBS; m; m &= m - 1) total += points[__builtin_ctzll(m)];
    return total;
}

/* FOLLOWABLE: how often a play of (is a run, size) finds a chance on someone else's lead. */
static inline double nh_followable(int run, int size) {
    if (size == 2) return 0.5;
    if (size == 3) return 0.15;
    if (size == 1 && !run) return 1.0;
    return 0.0;
}

/* Odds._set_table(k): t[v], the chance that no opponent holds k cards of one value above v (t[0]: any value). */
static const double *nh_set_table(nh_table_t *t, int k) {
    double *stand = t->sets[k];
    if (t->set_done >> k & 1) return stand;
    double factors[9]; /* the factor of a value with `good` cards (at most 8: four, and four wild 15s), once made */
    unsigned made = 0;
    for (int i = 0; i < 17; i++) stand[i] = 1.0;
    for (int w = NS_TOP; w >= 1; w--) {
        int good = t->unseen[w] + (t->wild && w != NS_TOP ? t->unseen[NS_TOP] : 0);
        if (!(made >> good & 1)) {
            double factor = 1.0;
            if (good >= k)
                for (int i = 0; i < t->n_kinds; i++)
                    factor *= nh_pow(1.0 - nh_p_at_least(t->pool, t->kind_size[i], good, k), t->kind_mult[i]);
            factors[good] = factor;
            made |= 1u << good;
        }
        stand[w - 1] = stand[w] * factors[good];
    }
    t->set_done |= 1u << k;
    return stand;
}

/* Odds._run_stands(length, high): the chance that no opponent holds a run of `length` topped above `high`. */
static double nh_run_stands(nh_table_t *t, int length, int high) {
    if (t->run_done[length] >> high & 1) return t->runs[length][high];
    double p = 1.0, streak[NS_TOP + 1], next[NS_TOP + 1];
    int first = high + 2 - length > 1 ? high + 2 - length : 1;
    for (int i = 0; i < t->n_kinds; i++) {
        streak[0] = 1.0;
        for (int j = 1; j < length; j++) streak[j] = 0.0;
        for (int u = first; u <= NS_TOP; u++) {
            double have = t->have[i][t->unseen[u]];
            double total = 0.0;
            for (int j = 0; j < length; j++) total += streak[j];
            next[0] = total * (1.0 - have);
            for (int j = 1; j < length; j++) next[j] = streak[j - 1] * have;
            for (int j = 0; j < length; j++) streak[j] = next[j];
        }
        double total = 0.0;
        for (int j = 0; j < length; j++) total += streak[j];
        p *= nh_pow(total, t->kind_mult[i]);
    }
    t->runs[length][high] = p;
    t->run_done[length] |= 1u << high;
    return p;
}

/* Odds.stands: the chance that a play (a run, or a set or single of `size` cards topped by `high`) is not beaten. */
static double nh_stands(nh_table_t *t, int run, int size, int high) {
    if (!t->n_kinds || (high == NS_TOP && !t->crazy)) return 1.0; /* nobody to beat it, or a 15 wins at once (NS-4) */
    double p;
    if (run) {
        p = nh_run_stands(t, size, high);
        if (t->crazy && size < NS_TOP) p *= nh_run_stands(t, size + 1, 0); /* NS-11 */
    } else {
        p = nh_set_table(t, size)[high];
        if (t->crazy && size < 8) p *= nh_set_table(t, size + 1)[0]; /* NS-11 */
    }
    return p;
}

/* Table.cost: the plan cost of one play, a turn less what it is worth as a likely winner. */
static double nh_cost(nh_table_t *t, int run, int size, int high) {
    double p = nh_stands(t, run, size, high);
    double f = nh_followable(run, size);
    return 1.0 - p * (1.0 + (t->w->kappa - 1.0) * (f + (1.0 - f) * t->w->lead_only_control));
}

/* Table.plan: the least total cost of splitting the cards `packed` into singles, sets and runs. */
static double nh_plan(nh_table_t *t, uint64_t packed) {
    if (!packed) return 0.0;
    unsigned slot = (unsigned)((packed * 0x9E3779B97F4A7C15ull) >> 53) & (NH_MEMO - 1);
    while (t->memo_gen[slot] == t->gen) {
        if (t->memo_key[slot] == packed) return t->memo_value[slot];
        slot = (slot + 1) & (NH_MEMO - 1);
    }
    int v = __builtin_ctzll(packed) / 3 + 1;
    uint64_t unit = 1ull << (3 * (v - 1));
    int have = nh_count_of(packed, v);
    double best = nh_cost(t, 0, 1, v) + nh_plan(t, packed - unit);
    for (int k = 2; k <= have; k++) {
        double c = nh_cost(t, 0, k, v) + nh_plan(t, packed - (uint64_t)k * unit);
        if (c < best) best = c;
    }
    uint64_t rest = packed - unit;
    for (int w = v + 1; w <= NS_TOP && nh_count_of(packed, w); w++) {
        rest -= 1ull << (3 * (w - 1));
        double c = nh_cost(t, 1, w - v + 1, w) + nh_plan(t, rest);
        if (c < best) best = c;
    }
    /* the recursion may have filled slots: find this key's slot again */
    slot = (unsigned)((packed * 0x9E3779B97F4A7C15ull) >> 53) & (NH_MEMO - 1);
    while (t->memo_gen[slot] == t->gen) slot = (slot + 1) & (NH_MEMO - 1);
    t->memo_gen[slot] = t->gen;
    t->memo_key[slot] = packed;
    t->memo_value[slot] = best;
    return best;
}

typedef struct {
    int run, size, high;
} nh_shape_t;

/* Table.plan_plays: the plays of a least-cost plan of `packed`; returns how many (at most ten). */
static int nh_plan_plays(nh_table_t *t, uint64_t packed, nh_shape_t *out) {
    int n = 0;
    while (packed) {
        double target = nh_plan(t, packed);
        int v = __builtin_ctzll(packed) / 3 + 1;
        uint64_t unit = 1ull << (3 * (v - 1));
        nh_shape_t best_shape = {0, 1, v};
        uint64_t best_rest = packed - unit;
        double best = fabs(nh_cost(t, 0, 1, v) + nh_plan(t, best_rest) - target);
        for (int k = 2; k <= nh_count_of(packed, v); k++) {
            uint64_t rest = packed - (uint64_t)k * unit;
            double d = fabs(nh_cost(t, 0, k, v) + nh_plan(t, rest) - target);
            if (d < best) {
                best = d;
                best_shape = (nh_shape_t){0, k, v};
                best_rest = rest;
            }
        }
        uint64_t rest = packed - unit;
        for (int w = v + 1; w <= NS_TOP && nh_count_of(packed, w); w++) {
            rest -= 1ull << (3 * (w - 1));
            double d = fabs(nh_cost(t, 1, w - v + 1, w) + nh_plan(t, rest) - target);
            if (d < best) {
                best = d;
                best_shape = (nh_shape_t){1, w - v + 1, w};
                best_rest = rest;
            }
        }
        out[n++] = best_shape;
        packed = best_rest;
    }
    return n;
}

/* Table.lone_beats: the chance that some opponent holding one card can beat a single of `value` with it. */
static double nh_lone_beats(const nh_table_t *t, int value) {
    if (!t->pool) return 0.0;
    int above = 0;
    for (int u = value + 1; u <= NS_TOP; u++) above += t->unseen[u];
    double higher = (double)above / (double)t->pool;
    return 1.0 - pow(1.0 - higher, (double)t->lone);
}

static inline nh_shape_t nh_shape(const ns_action_t *a) {
    nh_shape_t s = {a->kind == NS_RUN, __builtin_popcountll(a->cards), a->high};
    return s;
}

/* bot.py's wild_fills: how many 15s of the play stand for another value (NS-9). */
static inline int nh_wild_fills(const ns_action_t *a) {
    int fifteens = __builtin_popcountll(a->cards & NS_FIFTEENS);
    if (a->high == NS_TOP) return a->kind == NS_RUN && fifteens ? fifteens - 1 : 0;
    return fifteens;
}

/* Table(view): the seat to act's knowledge of round `r`; `earlier`: the cards it saw in earlier rounds since the
 * last full shuffle (out of play, NS-6). */
static void nh_table_start(nh_table_t *t, const ns_round_t *r, const ns_options_t *o, const nh_weights_t *w,
                           uint64_t earlier) {
    int seat = r->to_act, n = r->n;
    t->w = w;
    t->points = o->club_points;
    t->seat = seat;
    t->n = n;
    t->crazy = o->crazy;
    t->wild = o->wild;
    t->hand = r->hands[seat];
    t->counts = nh_value_counts(t->hand);
    t->partners = 0;
    t->n_kinds = 0;
    t->lone = 0;
    for (int s = 0; s < n; s++) {
        t->sizes[s] = __builtin_popcountll(r->hands[s]);
        if (s != seat && s % o->n_teams == seat % o->n_teams) t->partners |= 1u << s;
    }
    for (int s = 0; s < n; s++) {
        int h = t->sizes[s];
        if (s == seat || (t->partners >> s & 1) || !h) continue;
        int i = 0;
        while (i < t->n_kinds && t->kind_size[i] != h) i++;
        if (i == t->n_kinds) {
            t->kind_size[i] = h;
            t->kind_mult[i] = 0;
            t->n_kinds++;
        }
        t->kind_mult[i]++;
        if (h == 1) t->lone++;
    }
    uint64_t played = r->trick_cards;
    for (int s = 0; s < n; s++) played |= r->won[s];
    uint64_t unknown = NS_DECK & ~t->hand & ~played & ~earlier;
    t->pool = __builtin_popcountll(unknown);
    t->unseen[0] = 0;
    for (int v = 1; v <= NS_TOP; v++) t->unseen[v] = __builtin_popcountll(unknown & ns_value_mask(v));
    for (int i = 0; i < t->n_kinds; i++)
        for (int c = 0; c <= 4; c++) t->have[i][c] = 1.0 - nh_p_none(t->pool, t->kind_size[i], c);
    t->set_done = 0;
    memset(t->run_done, 0, sizeof t->run_done);
    if (++t->gen == 0) { /* after 2 ** 32 decisions: every slot is made free again */
        memset(t->memo_gen, 0, sizeof t->memo_gen);
        t->gen = 1;
    }
}

/* NorthstarHeuristic.lead: the play to lead (NS-4); returns its index in `legal`. */
static int nh_lead(nh_table_t *t, const ns_action_t *legal, int first_play, int n_legal) {
    const nh_weights_t *w = t->w;
    for (int s = 0; s < t->n; s++) {
        if (!(t->partners >> s & 1) || t->sizes[s] != 1) continue;
        /* help the partner out: a low single gives their last card a chance to follow */
        int best = -1, best_high = 0, best_clubs = 0;
        for (int i = first_play; i < n_legal; i++) {
            const ns_action_t *a = &legal[i];
            if (a->kind != NS_SINGLE || (a->cards & NS_FIFTEENS)) continue;
            int clubs = nh_club_points(a->cards, t->points);
            if (best < 0 || a->high < best_high || (a->high == best_high && clubs < best_clubs)) {
                best = i;
                best_high = a->high;
                best_clubs = clubs;
            }
        }
        if (best >= 0) return best;
    }
    double whole = nh_plan(t, t->counts);
    nh_shape_t plan[NS_HAND + 1];
    int n_plan = nh_plan_plays(t, t->counts, plan);
    if (n_plan == 2) {
        /* two plays left: lead the likely winner first; the other then goes out on the regained lead */
        nh_shape_t sure = plan[0];
        if (nh_stands(t, plan[1].run, plan[1].size, plan[1].high) > nh_stands(t, sure.run, sure.size, sure.high))
            sure = plan[1];
        if (nh_stands(t, sure.run, sure.size, sure.high) >= w->finish) {
            int best = -1, best_clubs = 0;
            for (int i = first_play; i < n_legal; i++) {
                nh_shape_t s = nh_shape(&legal[i]);
                if (s.run != sure.run || s.size != sure.size || s.high != sure.high || nh_wild_fills(&legal[i]))
                    continue;
                int clubs = nh_club_points(legal[i].cards, t->points);
                if (best < 0 || clubs < best_clubs) {
                    best = i;
                    best_clubs = clubs;
                }
            }
            if (best >= 0) return best;
        }
    }
    double regain = 0.0;
    for (int i = 0; i < n_plan; i++)
        regain += nh_stands(t, plan[i].run, plan[i].size, plan[i].high) * nh_followable(plan[i].run, plan[i].size);
    double stranded = w->stranded * (1.0 - regain > 0.0 ? 1.0 - regain : 0.0);
    int best = first_play;
    double best_score = -nh_inf;
    for (int i = first_play; i < n_legal; i++) {
        const ns_action_t *a = &legal[i];
        nh_shape_t s = nh_shape(a);
        uint64_t counts = nh_value_counts(a->cards);
        double stand = nh_stands(t, s.run, s.size, s.high);
        double progress = whole - nh_plan(t, t->counts - counts);
        double lead_only = 1.0 - nh_followable(s.run, s.size);
        double base = w->shed * progress + (w->keep_lead + stranded * lead_only) * stand + w->lead_only * lead_only;
        base -= 0.01 * a->high;
        if (t->wild) base -= w->wild_fill * nh_wild_fills(a);
        if (s.size == 1 && t->lone) base -= w->deny * nh_lone_beats(t, a->high);
        int clubs = nh_club_points(a->cards, t->points);
        double score = base + clubs * (stand * w->take - (1.0 - stand) * w->gift);
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

/* NorthstarHeuristic.follow: beat the play on the table or pass, whichever is worth more. */
static int nh_follow(nh_table_t *t, const ns_round_t *r, const ns_action_t *legal, int first_play, int n_legal,
                     int pass_at) {
    const nh_weights_t *w = t->w;
    double whole = nh_plan(t, t->counts);
    int top_seat = r->top_seat;
    int urgent = top_seat >= 0 && !(t->partners >> top_seat & 1) && t->sizes[top_seat] > 0 && t->sizes[top_seat] <= 2;
    int best = pass_at >= 0 ? pass_at : first_play;
    double best_score = pass_at >= 0 ? 0.0 : -nh_inf;
    for (int i = first_play; i < n_legal; i++) {
        const ns_action_t *a = &legal[i];
        nh_shape_t s = nh_shape(a);
        double stand = nh_stands(t, s.run, s.size, s.high);
        double progress = whole - nh_plan(t, t->counts - nh_value_counts(a->cards));
        int taken = nh_club_points(r->trick_cards | a->cards, t->points);
        int own = nh_club_points(a->cards, t->points);
        double score = w->shed * progress + stand * (w->take * taken + w->lead_value) - (1.0 - stand) * w->gift * own;
        if (urgent) score += w->deny * stand;
        if (t->wild) score -= w->wild_fill * nh_wild_fills(a);
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

/* NorthstarHeuristic.choose for the seat to act of `r`, whose legal actions (ns_legal's list) are `legal`: the index
 * of the action it takes. */
static int nh_choose(nh_table_t *t, const ns_round_t *r, const ns_options_t *o, const nh_weights_t *w,
                     uint64_t earlier, const ns_action_t *legal, int n_legal) {
    if (n_legal == 1) return 0;
    int pass_at = -1, double_at = -1, first_play = n_legal;
    for (int i = 0; i < n_legal; i++) {
        if (legal[i].kind == NS_PASS) {
            pass_at = i;
        } else if (legal[i].kind == NS_DOUBLE) {
            double_at = i;
        } else if (first_play == n_legal) {
            first_play = i;
        }
    }
    nh_table_start(t, r, o, w, earlier);
    /* NS-8: call when the plan of the hand is cheap enough to go out first */
    if (double_at >= 0 && nh_plan(t, t->counts) <= w->double_cost + w->double_per_player * (4 - t->n))
        return double_at;
    if (first_play == n_legal) return pass_at;
    if (r->last_turn == t->seat) {
        /* NS-5: the last holder takes a trick that holds club points */
        int best = first_play, best_points = nh_club_points(r->trick_cards | legal[first_play].cards, t->points);
        for (int i = first_play + 1; i < n_legal; i++) {
            int points = nh_club_points(r->trick_cards | legal[i].cards, t->points);
            if (points > best_points) {
                best = i;
                best_points = points;
            }
        }
        return best_points > 0 || pass_at < 0 ? best : pass_at;
    }
    /* NS-5: going out takes a bonus card; among the ways, take the trick too where possible */
    int out = -1, out_clubs = 0;
    double out_stand = 0.0;
    for (int i = first_play; i < n_legal; i++) {
        if (legal[i].cards != t->hand) continue;
        nh_shape_t s = nh_shape(&legal[i]);
        double stand = nh_stands(t, s.run, s.size, s.high);
        int clubs = nh_club_points(legal[i].cards, t->points);
        if (out < 0 || stand > out_stand || (stand == out_stand && -clubs > -out_clubs)) {
            out = i;
            out_stand = stand;
            out_clubs = clubs;
        }
    }
    if (out >= 0) return out;
    if (r->top_seat >= 0 && (t->partners >> r->top_seat & 1) && pass_at >= 0) return pass_at; /* NS-10 */
    if (!r->top.cards) return nh_lead(t, legal, first_play, n_legal);
    return nh_follow(t, r, legal, first_play, n_legal, pass_at);
}

/* Play round `r` to its end with the heuristic bot in every seat; `earlier[s]`: what seat s saw in earlier rounds.
 * The actions taken go to `out` (room for NS_MAX_ACTIONS... a round has at most a few hundred); returns how many, or
 * -1 where a legal list would not fit. */
static int nh_finish(ns_round_t *r, const ns_options_t *o, const nh_weights_t *w, const uint64_t *earlier,
                     nh_table_t *t, ns_action_t *legal, ns_action_t *out, int room) {
    int n = 0;
    ns_events_t ev;
    while (r->to_act >= 0) {
        int n_legal = ns_legal(r, o, legal);
        if (n_legal < 0 || n >= room) return -1;
        int k = nh_choose(t, r, o, w, earlier[r->to_act], legal, n_legal);
        out[n++] = legal[k];
        ns_apply(r, o, &legal[k], &ev);
    }
    return n;
}

/* A match as clubsuite.runner.play_match plays it (first dealer seat 0) with bot.py's heuristic bot (weights `w`) in
 * the seats of `heuristic` (bits) and the random bot in the others, which draw floor(random() * len(legal)) from one
 * generator seeded derive_seed(match seed, 0x5EED) (the heuristic bot draws nothing). Each heuristic seat knows what
 * it saw in the rounds since the last full shuffle (bot.py's seen_earlier): its own hand and every card played, in
 * the rounds back to the last one dealt from a whole pack, when this round is dealt from the cards left undealt
 * (NS-6). `actions` has room for NS_MAX_ACTIONS. Returns the decisions made, or -1 where a legal list would not
 * fit. */
static long long nh_match(ns_match_t *m, const ns_options_t *o, const nh_weights_t *w, unsigned heuristic,
                          uint64_t seed, mt_t *deals, mt_t *bots, ns_action_t *actions, nh_table_t *t) {
    ns_events_t ev;
    long long decisions = 0;
    uint64_t seen[NS_MAX_SEATS] = {0}, earlier[NS_MAX_SEATS], dealt[NS_MAX_SEATS];
    int n = o->players;
    ns_match_start(m, seed);
    mt_seed(bots, derive_seed1(seed, 0x5EED));
    while (!m->over) {
        ns_deal(m, o, deals);
        int stock = m->pack_stock, whole = stock == 0 || stock == NS_CARDS;
        for (int s = 0; s < n; s++) {
            earlier[s] = !whole && stock >= NS_HAND * n ? seen[s] : 0;
            if (whole) seen[s] = 0; /* the rounds before a whole pack's deal tell nothing of this one's */
            dealt[s] = m->round.hands[s];
        }
        while (m->round.to_act >= 0) {
            int count = ns_legal(&m->round, o, actions);
            if (count <= 0) return -1;
            int seat = m->round.to_act;
            int k = heuristic >> seat & 1 ? nh_choose(t, &m->round, o, w, earlier[seat], actions, count)
                                         : (int)mt_below(bots, count);
            ns_apply(&m->round, o, &actions[k], &ev);
            decisions++;
        }
        uint64_t played = m->round.trick_cards;
        for (int s = 0; s < n; s++) played |= m->round.won[s];
        for (int s = 0; s < n; s++) seen[s] |= dealt[s] | played;
        ns_score(m, o);
    }
    return decisions;
}

#endif
