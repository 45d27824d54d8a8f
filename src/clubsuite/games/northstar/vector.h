/* Many tables of North Star's CLUBS for a learning program, in C: seats played from outside (one learner, or several:
 * self-play), the others by the random, the heuristic or the learned bot, and the observation of the seat to act
 * written straight into an array.
 *
 * This restates, for the kernel, what clubsuite.rl.vector's engine path does with the engine's match: episode k of
 * table i is the match of seed derive_seed(base_i, k), dealt and played as clubsuite.runner.play_match deals and
 * plays it (core.h and heuristic.h as nh_match plays a match: round r dealt by seat r % players from derive_seed(
 * match_seed, r) out of the kept pack, NS-6; the bots drawing from one generator seeded derive_seed(match_seed,
 * 0x5EED)); the ids played from outside and the learned seats' choices draw nothing. A play is spelled as rl.py
 * spells it: its cards' ids in increasing order, then the id of what it counts as; a call is one id. The
 * observation is the one rl.py fills from a seat's view, value for value, for any player count and rules option;
 * tests/test_rl_vector.py and tests/test_rl_selfplay.py hold the two paths to each other step by step.
 */
#ifndef CLUBS_NORTHSTAR_VECTOR_H
#define CLUBS_NORTHSTAR_VECTOR_H

#include "heuristic.h"
#include "vector_kinds.h"

/* The action ids of the North Star coding (rl.py): the 60 cards (the kernel's card numbers), then what a play counts
 * as (60 + 15 * kind + high - 1, kinds single, set, run), pass (NS-4) and double or nothing (NS-8). */
enum { NV_FINISH = NS_CARDS, NV_PASS = NV_FINISH + 3 * NS_TOP, NV_DOUBLE = NV_PASS + 1, NV_IDS = NV_DOUBLE + 1 };
enum { NV_TOP_BONUS = 12 };  /* the highest bonus card of any player count (rl.py divides every bonus by it, NS-1) */
enum { NV_RULES = 8 + NS_TOP }; /* the rules settings: the options' eight numbers, then the 15 club points */
#define NV_SEAT_OF_EPISODE 0x5EA7 /* the path of derive_seed that draws the learner's seat when it is not fixed */
#define NV_WEIGHTS 14             /* nh_weights_t's doubles: bot.py's Weights */

/* Where each slot of the observation starts for a player count (rl.py's layout(players), then `picked`). */
typedef struct {
    int hand, played_by, won, top, top_kind, top_high, top_size, top_seat, passes, hand_sizes, out, bonus, doubled,
        started, last_turn, partner, dealer, seen_last_round, totals, picked, size;
} nv_layout_t;

static nv_layout_t nv_layout(int n) {
    nv_layout_t l;
    int at = 0;
#define NV_SLOT(name, length) (l.name = at, at += (length))
    NV_SLOT(hand, NS_CARDS);
    NV_SLOT(played_by, n * NS_CARDS);
    NV_SLOT(won, n * NS_CARDS);
    NV_SLOT(top, NS_CARDS);
    NV_SLOT(top_kind, 3);
    NV_SLOT(top_high, 1);
    NV_SLOT(top_size, 1);
    NV_SLOT(top_seat, n);
    NV_SLOT(passes, 1);
    NV_SLOT(hand_sizes, n);
    NV_SLOT(out, n);
    NV_SLOT(bonus, n);
    NV_SLOT(doubled, n);
    NV_SLOT(started, 1);
    NV_SLOT(last_turn, n);
    NV_SLOT(partner, n);
    NV_SLOT(dealer, n);
    NV_SLOT(seen_last_round, NS_CARDS);
    NV_SLOT(totals, n);
    NV_SLOT(picked, NV_IDS);
#undef NV_SLOT
    l.size = at;
    return l;
}

typedef struct {
    /* the table's settings */
    ns_options_t o;
    int max_hands, points; /* points: the round's score as reward (else the match's result) */
    int fixed_seat;        /* the learner's seat, or -1: drawn for each episode */
    int lineup[NS_MAX_SEATS - 1]; /* who plays the other seats, in increasing seat order */
    nh_weights_t w;               /* the heuristic bot's weights */
    nv_layout_t l;
    /* the match */
    uint64_t base, match_seed;
    uint64_t episode;
    int learner, bots[NS_MAX_SEATS]; /* the learner's seat; who plays each seat (vector_episode.h's kinds) */
    double gained[NS_MAX_SEATS];     /* each seat's rewards since they were last taken */
    int state;
    ns_match_t m;
    /* what each seat saw in the rounds since the last full shuffle, and what it may use of it this round (NS-6,
     * bot.py's seen_earlier, as nh_match keeps them), and each seat's hand as dealt this round */
    uint64_t seen[NS_MAX_SEATS], earlier[NS_MAX_SEATS], dealt[NS_MAX_SEATS];
    uint64_t played_by[NS_MAX_SEATS]; /* the cards each seat played this round */
    uint64_t last_round[NS_MAX_SEATS]; /* each seat's hand and every card played in the round before (NS-6) */
    unsigned out;                     /* the seats gone out this round, as bits (NS-5) */
    uint64_t picked;                  /* the card ids the seat to act has picked in its decision in progress */
    int done; /* the episode ended at the last step: the next step starts the next one */
    mt_t deals, rng;
} nv_table_t;

/* The working memory of a step, shared by a batch's tables (stepped one at a time): one decision's Table of the
 * heuristic bot and the legal list. */
typedef struct {
    nh_table_t t;
    ns_action_t actions[NS_MAX_ACTIONS];
} nv_scratch_t;

_Static_assert(sizeof(nh_weights_t) == NV_WEIGHTS * sizeof(double), "nh_weights_t is NV_WEIGHTS doubles in a row");

/* Deal the match's next round (runner.deal_next) and what each heuristic seat may use of earlier rounds (nh_match). */
static void nv_deal(nv_table_t *v) {
    int n = v->o.players;
    ns_deal(&v->m, &v->o, &v->deals);
    int stock = v->m.pack_stock, whole = stock == 0 || stock == NS_CARDS;
    for (int s = 0; s < n; s++) {
        v->earlier[s] = !whole && stock >= NS_HAND * n ? v->seen[s] : 0;
        if (whole) v->seen[s] = 0; /* the rounds before a whole pack's deal tell nothing of this one's */
        v->dealt[s] = v->m.round.hands[s];
        v->played_by[s] = 0;
    }
    v->out = 0;
    v->picked = 0;
}

/* Start episode v->episode: its match seed, the learner's seat, the bots in the other seats, the first deal. */
static void nv_begin(nv_table_t *v) {
    int n = v->o.players;
    v->match_seed = derive_seed1(v->base, v->episode);
    v->learner = v->fixed_seat >= 0 ? v->fixed_seat : (int)(derive_seed1(v->match_seed, NV_SEAT_OF_EPISODE) % n);
    for (int s = 0, j = 0; s < n; s++) v->bots[s] = s == v->learner ? VT_OUTSIDE : v->lineup[j++];
    mt_seed(&v->rng, derive_seed1(v->match_seed, 0x5EED));
    ns_match_start(&v->m, v->match_seed);
    for (int s = 0; s < NS_MAX_SEATS; s++) v->seen[s] = v->last_round[s] = 0, v->gained[s] = 0.0;
    v->state = VT_PLAYING;
    nv_deal(v);
}

/* Apply a legal action of the seat to act, adding to each seat's `gained` what it brings (a round's score, or the
 * match's result: +1 a winner, -1 otherwise, as v->points says). A round that ends is scored (NS-2, NS-5, NS-7) and
 * the next dealt unless the match ended or reached max_hands. */
static void nv_act(nv_table_t *v, const ns_action_t *a) {
    ns_round_t *r = &v->m.round;
    ns_events_t ev;
    int n = v->o.players;
    if (a->kind <= NS_RUN) v->played_by[r->to_act] |= a->cards;
    int flags = ns_apply(r, &v->o, a, &ev);
    if (flags & NS_EV_OUT) v->out |= 1u << ev.out_seat;
    if (!(flags & NS_EV_ENDED)) return;
    uint64_t played = r->trick_cards;
    for (int s = 0; s < n; s++) played |= r->won[s];
    for (int s = 0; s < n; s++) v->seen[s] |= v->dealt[s] | played;
    ns_score(&v->m, &v->o);
    for (int s = 0; s < n && v->points; s++) v->gained[s] += (double)r->scores[s];
    if (v->m.over) {
        v->state = VT_ENDED;
        for (int s = 0; s < n && !v->points; s++) v->gained[s] += (v->m.winners >> s) & 1 ? 1.0 : -1.0; /* NS-7 */
    } else if (v->m.scored >= v->max_hands) {
        v->state = VT_TRUNCATED;
    } else {
        for (int s = 0; s < n; s++) v->last_round[s] = v->dealt[s] | played;
        nv_deal(v);
    }
}

/* The random or heuristic bot of the seat to act plays. A legal list too long for the scratch (never seen: see
 * NS_MAX_ACTIONS) stops the match as truncated rather than guess. */
static void nv_bot(nv_table_t *v, nv_scratch_t *sc) {
    const ns_round_t *r = &v->m.round;
    int count = ns_legal(r, &v->o, sc->actions), seat = r->to_act;
    if (count <= 0) {
        v->state = VT_TRUNCATED;
        return;
    }
    int k = v->bots[seat] == VT_HEURISTIC ? nh_choose(&sc->t, r, &v->o, &v->w, v->earlier[seat], sc->actions, count)
                                          : (int)mt_below(&v->rng, count);
    ns_action_t chosen = sc->actions[k];
    nv_act(v, &chosen);
}

/* The id that continues action `a` after the card ids `picked` (rl.py's spelling), or -1 where `a` does not begin
 * with them: a call is its one id; a play its cards in increasing order, then what it counts as. */
static inline int nv_next_id(const ns_action_t *a, uint64_t picked) {
    if (a->kind == NS_PASS) return picked ? -1 : NV_PASS;
    if (a->kind == NS_DOUBLE) return picked ? -1 : NV_DOUBLE;
    if (picked) {
        uint64_t through_last = (2ull << (63 - __builtin_clzll(picked))) - 1; /* the cards up to the last picked */
        if ((a->cards & through_last) != picked) return -1;
    }
    uint64_t rest = a->cards & ~picked;
    return rest ? __builtin_ctzll(rest) : NV_FINISH + NS_TOP * a->kind + a->high - 1;
}

/* An id of the seat to act: a card id is noted; an id that ends a spelling (what the cards count as, pass or double)
 * takes the action it spells. Returns 0 where the id continues no legal action (nothing changes), else 1. */
static int nv_id(nv_table_t *v, int id, nv_scratch_t *sc) {
    int count = ns_legal(&v->m.round, &v->o, sc->actions), found = -1;
    for (int i = 0; i < count && found < 0; i++) {
        if (nv_next_id(&sc->actions[i], v->picked) == id) found = i;
    }
    if (found < 0) return 0;
    if (id < NS_CARDS) {
        v->picked |= 1ull << id;
        return 1;
    }
    ns_action_t chosen = sc->actions[found]; /* the spellings are prefix-free: this is the one action spelled */
    v->picked = 0;
    nv_act(v, &chosen);
    return 1;
}

static inline void nv_cards(float *obs, int offset, uint64_t cards) {
    for (; cards; cards &= cards - 1) obs[offset + __builtin_ctzll(cards)] = 1.0f;
}

static inline float nv_clipped(double value, double low, double high) {
    return (float)(value < low ? low : value > high ? high : value);
}

/* The observation of seat `me` (l.size values, zeroed here) and its mask (NV_IDS entries): rl.py's observe() of its
 * view, then the ids picked in its decision in progress (where it is to act). */
static void nv_observe(const nv_table_t *v, int me, float *obs, int8_t *mask, nv_scratch_t *sc) {
    const ns_round_t *r = &v->m.round;
    const nv_layout_t *l = &v->l;
    int n = v->o.players, teams = v->o.n_teams, acting = v->state == VT_PLAYING && r->to_act == me;
#define NV_REL(seat) (((seat) - me + n) % n)
    memset(obs, 0, (size_t)l->size * sizeof *obs);
    nv_cards(obs, l->hand, r->hands[me]);
    for (int s = 0; s < n; s++) {
        nv_cards(obs, l->played_by + NS_CARDS * NV_REL(s), v->played_by[s]);
        nv_cards(obs, l->won + NS_CARDS * NV_REL(s), r->won[s]);
    }
    if (r->top.cards) { /* the play to beat (none when the next play leads) */
        nv_cards(obs, l->top, r->top.cards);
        obs[l->top_kind + r->top.kind] = 1.0f;
        obs[l->top_high] = nv_clipped(r->top.high / (double)NS_TOP, 0.0, 1.0);
        obs[l->top_size] = nv_clipped(__builtin_popcountll(r->top.cards) / 10.0, 0.0, 1.0);
    }
    if (r->top_seat >= 0) obs[l->top_seat + NV_REL(r->top_seat)] = 1.0f;
    obs[l->passes] = nv_clipped(r->passes / (double)n, 0.0, 1.0);
    int team_totals[NS_MAX_SEATS] = {0};
    for (int s = 0; s < n; s++) team_totals[s % teams] += v->m.totals[s]; /* NS-10: a seat's team is seat % teams */
    for (int s = 0; s < n; s++) {
        int rel = NV_REL(s);
        obs[l->hand_sizes + rel] = nv_clipped(__builtin_popcountll(r->hands[s]) / 10.0, 0.0, 1.0);
        if (r->bonus[s] >= 0) obs[l->bonus + rel] = nv_clipped(r->bonus[s] / (double)NV_TOP_BONUS, 0.0, 1.0);
        obs[l->totals + rel] = nv_clipped((double)team_totals[s % teams] / v->o.goal, -1.0, 2.0);
        if (v->out >> s & 1) obs[l->out + rel] = 1.0f;
        if (r->doubled >> s & 1) obs[l->doubled + rel] = 1.0f;
        if (s != me && s % teams == me % teams) obs[l->partner + rel] = 1.0f;
    }
    obs[l->started] = (float)(r->started >> me & 1);
    if (r->last_turn >= 0) obs[l->last_turn + NV_REL(r->last_turn)] = 1.0f;
    obs[l->dealer + NV_REL(r->dealer)] = 1.0f;
    if (v->m.rounds > 1) nv_cards(obs, l->seen_last_round, v->last_round[me]);
    if (acting) nv_cards(obs, l->picked, v->picked);
#undef NV_REL
    memset(mask, 0, NV_IDS);
    if (!acting) return;
    int count = ns_legal(r, &v->o, sc->actions);
    for (int i = 0; i < count; i++) {
        int id = nv_next_id(&sc->actions[i], v->picked);
        if (id >= 0) mask[id] = 1;
    }
}

/* The names the shared glue uses (native/vector_tables.pxi, included by _core.pyx). */
typedef nv_table_t vector_table_t;
enum {
    VT_IDS = NV_IDS,
    VT_SEATS = NS_MAX_SEATS,
    VT_RULES = NV_RULES,
    VT_WEIGHTS = NV_WEIGHTS,
    VT_SCRATCH = sizeof(nv_scratch_t),
    VT_MAX_ACTIONS = NS_MAX_ACTIONS,
    VT_MAX_SPELLING = NS_HAND + 1 /* a play's cards, then what it counts as */
};

/* A table's settings: `rules` the VT_RULES numbers of the rules (players, teams, team play, double or nothing, wild
 * 15s, Crazy CLUBS, the leftover rule, the goal, then the points of the clubs 1..15: _core.pyx's _options), `lineup`
 * who plays the other players-1 seats in increasing seat order, `weights` the heuristic bot's VT_WEIGHTS weights;
 * the caller checked every number. */
static void vt_settings(vector_table_t *v, const int *rules, int max_hands, int points, int seat, const int *lineup,
                        const double *weights) {
    v->o.players = rules[0];
    v->o.n_teams = rules[1];
    v->o.teams = rules[2];
    v->o.double_or_nothing = rules[3];
    v->o.wild = rules[4];
    v->o.crazy = rules[5];
    v->o.leftover = rules[6];
    v->o.goal = rules[7];
    for (int k = 0; k < NS_TOP; k++) v->o.club_points[k] = rules[8 + k];
    v->max_hands = max_hands;
    v->points = points;
    v->fixed_seat = seat;
    for (int j = 0; j < v->o.players - 1; j++) v->lineup[j] = lineup[j];
    memcpy(&v->w, weights, sizeof v->w);
    v->l = nv_layout(v->o.players);
}

/* The observation's length for the table's player count. */
static int vt_size(const vector_table_t *v) { return v->l.size; }

/* The hooks of native/vector_episode.h, which makes the tables' reset and step of them. */
static int vt_seats(const vector_table_t *v) { return v->o.players; }

static int vt_to_act(const vector_table_t *v) { return v->state == VT_PLAYING ? v->m.round.to_act : -1; }

static void vt_begin(vector_table_t *v, void *scratch) {
    (void)scratch;
    nv_begin(v);
}

static void vt_bot(vector_table_t *v, void *scratch) { nv_bot(v, (nv_scratch_t *)scratch); }

static int vt_id(vector_table_t *v, int id, void *scratch) { return nv_id(v, id, (nv_scratch_t *)scratch); }

static int vt_spell(vector_table_t *v, void *scratch, int *start, int *ids) {
    nv_scratch_t *sc = (nv_scratch_t *)scratch;
    int count = ns_legal(&v->m.round, &v->o, sc->actions), at = 0;
    if (count <= 0) return -1;
    start[0] = 0;
    for (int i = 0; i < count; i++) {
        uint64_t picked = 0;
        for (int id; (id = nv_next_id(&sc->actions[i], picked)) >= 0 && id < NS_CARDS;) {
            ids[at++] = id;
            picked |= 1ull << id;
        }
        ids[at++] = nv_next_id(&sc->actions[i], picked);
        start[i + 1] = at;
    }
    return count;
}

static int vt_picked_slot(const vector_table_t *v) { return v->l.picked; }

static void vt_observe(vector_table_t *v, int seat, float *obs, int8_t *mask, void *scratch) {
    nv_observe(v, seat, obs, mask, (nv_scratch_t *)scratch);
}

#include "vector_episode.h"

#endif
