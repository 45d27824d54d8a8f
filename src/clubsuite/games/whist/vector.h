/* Many whist tables for a learning program, in C: seats played from outside (one learner, or several: self-play),
 * the others by the random, the heuristic or the learned bot, and the observation of the seat to act written
 * straight into an array.
 *
 * This restates, for the kernel, what clubsuite.rl.vector's engine path does with the engine's match: episode k of
 * table i is the match of seed derive_seed(base_i, k), dealt and played as clubsuite.runner.play_match deals and
 * plays it (core.h, heuristic.h: hand h dealt by seat h % 3 from derive_seed(match_seed, h), the bots drawing from
 * one generator seeded derive_seed(match_seed, 0x5EED)); the ids played from outside and the learned seats' choices
 * draw nothing. The observation is the one rl.py (the whist coding) fills from a seat's view, value for value;
 * tests/test_rl_vector.py holds the two paths to each other step by step.
 */
#ifndef CLUBS_WHIST_VECTOR_H
#define CLUBS_WHIST_VECTOR_H

#include "heuristic.h"
#include "vector_kinds.h"

/* The action ids of the whist coding (rl.py): cards 0..51 by index, then keep and exchange (CW-4). */
enum { WV_KEEP = 52, WV_EXCHANGE = 53, WV_IDS = 54 };
/* The observation's slots (rl.py's LAYOUT, then the environment's `picked`). */
enum {
    WV_HAND = 0,
    WV_PLAYED_BY = 52,
    WV_TRICK = 208,
    WV_KNOWN_AT = 364,
    WV_DECIDED = 572,
    WV_PHASE = 581,
    WV_LEADER = 583,
    WV_DEALER = 586,
    WV_TRICKS_WON = 589,
    WV_TOTALS = 592,
    WV_CLUBS_BROKEN = 595,
    WV_PICKED = 596,
    WV_SIZE = 650
};
#define WV_SEAT_OF_EPISODE 0x5EA7 /* the path of derive_seed that draws the learner's seat when it is not fixed */

typedef struct {
    /* the table's settings */
    int target, lead_rule, max_hands, points; /* points: the hand's score as reward (else the match's result) */
    int fixed_seat;                            /* the learner's seat, or -1: drawn for each episode */
    int lineup[W_SEATS - 1];                   /* who plays the other seats, in increasing seat order */
    /* the match */
    uint64_t base, match_seed;
    uint64_t episode;
    int learner, bots[W_SEATS]; /* the learner's seat; who plays each seat (vector_episode.h's kinds) */
    double gained[W_SEATS];     /* each seat's rewards since they were last taken */
    int hands; /* hands dealt, the one in progress included */
    int totals[W_SEATS];
    int state, winners, draw;
    /* the hand in progress */
    wh_table_t tb;
    int order[W_SEATS], took[W_SEATS], n_decided, someone;
    uint64_t played_by[W_SEATS];
    int done; /* the episode ended at the last step: the next step starts the next one */
    mt_t deals, rng;
} wv_table_t;

/* Deal the match's next hand (runner.deal_next), dealt by seat hands % 3. */
static void wv_deal(wv_table_t *v) {
    int dealer = v->hands % W_SEATS;
    uint64_t hands[W_SEATS], bid;
    mt_seed(&v->deals, derive_seed1(v->match_seed, (uint64_t)v->hands));
    whist_deal(&v->deals, dealer, hands, &bid);
    memset(&v->tb, 0, sizeof v->tb);
    whist_start(&v->tb.w, hands, bid, dealer, v->lead_rule);
    for (int s = 0; s < W_SEATS; s++) {
        v->tb.known_at[s] = -1;
        v->tb.totals[s] = v->totals[s];
        v->played_by[s] = 0;
    }
    v->tb.target = v->target;
    v->n_decided = v->someone = 0;
    v->hands++;
}

/* Start episode v->episode: its match seed, the learner's seat, the bots in the other seats, the first deal. */
static void wv_begin(wv_table_t *v) {
    v->match_seed = derive_seed1(v->base, v->episode);
    v->learner = v->fixed_seat >= 0 ? v->fixed_seat
                                     : (int)(derive_seed1(v->match_seed, WV_SEAT_OF_EPISODE) % W_SEATS);
    for (int s = 0, k = 0; s < W_SEATS; s++) v->bots[s] = s == v->learner ? VT_OUTSIDE : v->lineup[k++];
    mt_seed(&v->rng, derive_seed1(v->match_seed, 0x5EED));
    v->hands = 0;
    v->state = VT_PLAYING;
    v->winners = v->draw = 0;
    for (int s = 0; s < W_SEATS; s++) v->totals[s] = v->gained[s] = 0;
    wv_deal(v);
}

/* The ids the seat to act may pick, as a mask over 0..53 (0: the match is not in play). */
static uint64_t wv_legal(const wv_table_t *v) {
    if (v->state != VT_PLAYING) return 0;
    if (v->tb.w.phase == W_EXCHANGE) return (1ull << WV_KEEP) | (1ull << WV_EXCHANGE);
    return whist_legal(&v->tb.w);
}

/* Apply a legal id of the seat to act, adding to each seat's `gained` what it brings (a hand's score, or the match's
 * result: +1 a winner, 0 for all in a draw, -1 otherwise, as v->points says). A hand that ends scores (CW-5) and the
 * next is dealt unless the match ended or reached max_hands. */
static void wv_act(wv_table_t *v, int id) {
    whist_t *w = &v->tb.w;
    int seat = w->to_act;
    if (w->phase == W_EXCHANGE) {
        int take = id == WV_EXCHANGE;
        if (take) v->tb.given[seat] = w->hands[seat];
        v->order[v->n_decided] = seat;
        v->took[v->n_decided++] = take;
        v->someone |= take;
        if (whist_decide(w, take) == W_EV_PLAY_STARTED) {
            for (int i = 0; i < v->n_decided; i++) { /* where each exchanger's old hand is now (CW-4) */
                if (!v->took[i]) continue;
                v->tb.known_at[v->order[i]] = WH_BID;
                for (int j = i + 1; j < v->n_decided; j++) {
                    if (v->took[j]) {
                        v->tb.known_at[v->order[i]] = v->order[j];
                        break;
                    }
                }
            }
        }
        return;
    }
    v->played_by[seat] |= 1ull << id;
    if (wh_play(&v->tb, id) != W_EV_SCORED) return;
    int hit = 0;
    for (int s = 0; s < W_SEATS; s++) {
        v->totals[s] += w->tricks_won[s] - WH_QUOTA;
        if (v->totals[s] >= v->target || v->totals[s] <= -v->target) hit |= 1 << s;
    }
    if (v->points) {
        for (int s = 0; s < W_SEATS; s++) v->gained[s] += (double)(w->tricks_won[s] - WH_QUOTA);
    }
    if (hit) {
        v->state = VT_ENDED;
        v->draw = hit == 7;
        v->winners = v->draw ? 0 : hit;
        for (int s = 0; s < W_SEATS && !v->points; s++) v->gained[s] += v->draw ? 0.0 : (v->winners >> s) & 1 ? 1.0 : -1.0;
    } else if (v->hands >= v->max_hands) {
        v->state = VT_TRUNCATED;
    } else {
        wv_deal(v);
    }
}

/* The id the bot of the seat to act picks (heuristic.h's bots, drawing from the match's one generator). */
static int wv_bot_choice(wv_table_t *v) {
    whist_t *w = &v->tb.w;
    int seat = w->to_act;
    if (w->phase == W_EXCHANGE) {
        int take = v->bots[seat] == WH_RANDOM_BOT
                       ? mt_below(&v->rng, 2)
                       : wh_exchange_choice(w->hands[seat], seat, v->tb.totals[seat], v->target, v->someone, &v->rng);
        return take ? WV_EXCHANGE : WV_KEEP;
    }
    if (v->bots[seat] == WH_RANDOM_BOT) {
        uint64_t legal = whist_legal(w);
        return kth_bit(legal, mt_below(&v->rng, __builtin_popcountll(legal)));
    }
    return wh_card_choice(&v->tb);
}

static inline void wv_cards(float *obs, int offset, uint64_t cards) {
    for (; cards; cards &= cards - 1) obs[offset + __builtin_ctzll(cards)] = 1.0f;
}

static inline float wv_clipped(double value, double low, double high) {
    return (float)(value < low ? low : value > high ? high : value);
}

/* The observation of seat `me` (WV_SIZE values, zeroed here) and its mask (WV_IDS entries): rl.py's observe() of its
 * view, then an empty `picked` (every whist decision is one id). */
static void wv_observe(const wv_table_t *v, int me, float *obs, int8_t *mask) {
    const whist_t *w = &v->tb.w;
#define WV_REL(seat) (((seat) - me + W_SEATS) % W_SEATS)
    memset(obs, 0, WV_SIZE * sizeof *obs);
    wv_cards(obs, WV_HAND, w->hands[me]);
    for (int s = 0; s < W_SEATS; s++) wv_cards(obs, WV_PLAYED_BY + 52 * WV_REL(s), v->played_by[s]);
    for (int k = 0; k < w->trick_len; k++) obs[WV_TRICK + 52 * WV_REL(v->tb.trick_seats[k]) + w->trick[k]] = 1.0f;
    /* CW-4: the hand the learner left in the middle is with the next player who exchanged after it, or in the
     * bid hand; its cards since played are left out (view.known_cards). */
    for (int i = 0; i < v->n_decided; i++) {
        if (v->order[i] != me || !v->took[i]) continue;
        int block = W_SEATS;
        for (int j = i + 1; j < v->n_decided; j++) {
            if (v->took[j]) {
                block = WV_REL(v->order[j]);
                break;
            }
        }
        wv_cards(obs, WV_KNOWN_AT + 52 * block, v->tb.given[me] & ~v->tb.played);
    }
    for (int s = 0; s < W_SEATS; s++) {
        int decided = 0;
        for (int i = 0; i < v->n_decided; i++) {
            if (v->order[i] == s) decided = v->took[i] ? 2 : 1;
        }
        obs[WV_DECIDED + 3 * WV_REL(s) + decided] = 1.0f;
    }
    obs[WV_PHASE + (w->phase == W_EXCHANGE ? 0 : 1)] = 1.0f;
    if (w->leader >= 0) obs[WV_LEADER + WV_REL(w->leader)] = 1.0f;
    obs[WV_DEALER + WV_REL(w->dealer)] = 1.0f;
    for (int s = 0; s < W_SEATS; s++) {
        obs[WV_TRICKS_WON + WV_REL(s)] = wv_clipped((double)w->tricks_won[s] / 13, 0.0, 1.0);
        obs[WV_TOTALS + WV_REL(s)] = wv_clipped((double)v->totals[s] / v->target, -2.0, 2.0);
    }
    obs[WV_CLUBS_BROKEN] = (float)w->t.broken;
#undef WV_REL
    uint64_t legal = v->tb.w.to_act == me ? wv_legal(v) : 0;
    for (int id = 0; id < WV_IDS; id++) mask[id] = (int8_t)((legal >> id) & 1);
}

/* The names the shared glue uses (native/vector_tables.pxi, included by _core.pyx). */
typedef wv_table_t vector_table_t;
enum {
    VT_IDS = WV_IDS,
    VT_SEATS = W_SEATS,
    VT_RULES = 2,
    VT_WEIGHTS = 0,
    VT_SCRATCH = 0,
    VT_MAX_ACTIONS = 13, /* a hand's cards, or keep and exchange */
    VT_MAX_SPELLING = 1
};

/* A table's settings: `rules` the VT_RULES numbers of the rules (target, lead rule: CW-3), `lineup` who plays the
 * other seats in increasing seat order, `weights` the heuristic bot's VT_WEIGHTS constants; the caller checked every
 * number. */
static void vt_settings(vector_table_t *v, const int *rules, int max_hands, int points, int seat, const int *lineup,
                        const double *weights) {
    v->lead_rule = rules[1]; /* CW-3 */
    v->target = rules[0];
    v->max_hands = max_hands;
    v->points = points;
    v->fixed_seat = seat;
    for (int k = 0; k < W_SEATS - 1; k++) v->lineup[k] = lineup[k];
    (void)weights; /* the heuristic bot has no constants from Python */
}

/* The observation's length (every table of the game has the same). */
static int vt_size(const vector_table_t *v) {
    (void)v;
    return WV_SIZE;
}

/* The hooks of native/vector_episode.h, which makes the tables' reset and step of them. */
static int vt_seats(const vector_table_t *v) {
    (void)v;
    return W_SEATS;
}

static int vt_to_act(const vector_table_t *v) { return v->state == VT_PLAYING ? v->tb.w.to_act : -1; }

static void vt_begin(vector_table_t *v, void *scratch) {
    (void)scratch;
    wv_begin(v);
}

static void vt_bot(vector_table_t *v, void *scratch) {
    (void)scratch;
    wv_act(v, wv_bot_choice(v));
}

static int vt_id(vector_table_t *v, int id, void *scratch) {
    (void)scratch;
    if (!(wv_legal(v) >> id & 1)) return 0;
    wv_act(v, id);
    return 1;
}

static int vt_spell(vector_table_t *v, void *scratch, int *start, int *ids) {
    (void)scratch;
    return vt_spell_ids(wv_legal(v), start, ids);
}

static int vt_picked_slot(const vector_table_t *v) {
    (void)v;
    return WV_PICKED;
}

static void vt_observe(vector_table_t *v, int seat, float *obs, int8_t *mask, void *scratch) {
    (void)scratch;
    wv_observe(v, seat, obs, mask);
}

#include "vector_episode.h"

#endif
