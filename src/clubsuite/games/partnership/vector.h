/* Many partnership tables for a learning program, in C: seats played from outside (one learner, or several:
 * self-play), the others (a learner's partner among them) by the random, the heuristic or the learned bot, and the
 * observation of the seat to act written straight into an array.
 *
 * This restates, for the kernel, what clubsuite.rl.vector's engine path does with the engine's match (as the
 * whist tables of games/whist/vector.h do): episode k of table i is the match of seed derive_seed(base_i, k), dealt
 * and played as clubsuite.runner.play_match deals and plays it (core.h: hand h dealt by seat h % 4, passing as
 * h % 3 says, from derive_seed(match_seed, h); the bots drawing from one generator seeded
 * derive_seed(match_seed, 0x5EED)); the ids played from outside and the learned seats' choices draw nothing. A pass
 * (CP-2) is spelled as rl.py spells it: its three cards in increasing id order, one id a step. The observation is
 * the one rl.py fills from a seat's view, then `picked`; tests/test_rl_vector.py holds the two paths to each other
 * step by step.
 */
#ifndef CLUBS_PARTNERSHIP_VECTOR_H
#define CLUBS_PARTNERSHIP_VECTOR_H

#include "heuristic.h"
#include "vector_kinds.h"

enum { PV_IDS = 52 }; /* the partnership coding's action ids: the cards by index */
/* The observation's slots (rl.py's LAYOUT, then the environment's `picked`). */
enum {
    PV_HAND = 0,
    PV_PLAYED_BY = 52,
    PV_TRICK = 260,
    PV_GIVEN = 468,
    PV_RECEIVED = 520,
    PV_KNOWN_AT = 572,
    PV_VOIDS = 780,
    PV_CHOSEN = 796,
    PV_DIRECTION = 800,
    PV_PHASE = 803,
    PV_LEADER = 805,
    PV_WINNING = 809,
    PV_DEALER = 813,
    PV_TRICKS_WON = 817,
    PV_POINTS = 821,
    PV_TOTALS = 823,
    PV_PICKED = 825,
    PV_SIZE = 877
};
#define PV_SEAT_OF_EPISODE 0x5EA7 /* the path of derive_seed that draws the learner's seat when it is not fixed */
#define PV_CLUBS_POINTS_SCALE 36.0

typedef struct {
    /* the table's settings */
    int target, max_hands, points, fixed_seat;
    int lineup[P_SEATS - 1]; /* who plays the other seats, in increasing seat order */
    /* the match */
    uint64_t base, match_seed, episode;
    int learner, bots[P_SEATS]; /* the learner's seat; who plays each seat (vector_episode.h's kinds) */
    double gained[P_SEATS];     /* each seat's rewards since they were last taken */
    int hands; /* hands dealt, the one in progress included */
    int totals[2];
    int state, winner;
    /* the hand in progress */
    ph_table_t tb;
    uint64_t played_by[P_SEATS];
    int trick_card[P_SEATS]; /* each seat's card in the trick in progress, or -1 */
    uint64_t picked;         /* the ids the seat to act has picked in its pass so far */
    int done;                /* the episode ended at the last step: the next step starts the next one */
    mt_t deals, rng;
} pv_table_t;

/* Deal the match's next hand (runner.deal_next): dealt by seat hands % 4, passing as hands % 3 says (CP-2). */
static void pv_deal(pv_table_t *v) {
    uint64_t hands[P_SEATS];
    int dealer = v->hands % P_SEATS;
    mt_seed(&v->deals, derive_seed1(v->match_seed, (uint64_t)v->hands));
    partnership_deal(&v->deals, dealer, hands);
    ph_start(&v->tb, hands, dealer, v->hands % 3);
    for (int s = 0; s < P_SEATS; s++) {
        v->played_by[s] = 0;
        v->trick_card[s] = -1;
    }
    v->picked = 0;
    v->hands++;
}

/* Start episode v->episode: its match seed, the learner's seat, the bots in the other seats, the first deal. */
static void pv_begin(pv_table_t *v) {
    v->match_seed = derive_seed1(v->base, v->episode);
    v->learner = v->fixed_seat >= 0 ? v->fixed_seat
                                     : (int)(derive_seed1(v->match_seed, PV_SEAT_OF_EPISODE) % P_SEATS);
    for (int s = 0, k = 0; s < P_SEATS; s++) {
        v->bots[s] = s == v->learner ? VT_OUTSIDE : v->lineup[k++];
        v->gained[s] = 0.0;
    }
    mt_seed(&v->rng, derive_seed1(v->match_seed, 0x5EED));
    v->hands = 0;
    v->state = VT_PLAYING;
    v->winner = -1;
    v->totals[0] = v->totals[1] = 0;
    pv_deal(v);
}

/* The ids the seat to act may pick now, as a mask: in the play its legal cards (CP-1); in the pass (CP-2) the cards
 * that continue a set of three in increasing order: above the last one picked, with enough cards above them left to
 * complete it. 0 when the match is not in play. */
static uint64_t pv_allowed(const pv_table_t *v) {
    const partnership_t *p = &v->tb.p;
    if (v->state != VT_PLAYING) return 0;
    if (p->phase == P_PLAY) return partnership_legal(p);
    uint64_t hand = p->hands[p->to_act], allowed = 0;
    int taken = __builtin_popcountll(v->picked);
    uint64_t above = v->picked ? hand & ~((2ull << (63 - __builtin_clzll(v->picked))) - 1) : hand;
    for (uint64_t m = above; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        uint64_t higher = above & ~((2ull << c) - 1);
        if (__builtin_popcountll(higher) >= P_PASS - taken - 1) allowed |= 1ull << c;
    }
    return allowed;
}

/* Apply a whole action of the seat to act (a pass as its three cards, or a card), adding to each seat's `gained` what
 * it brings (its partnership's score of the hand, or the match's result: +1 when its partnership won, -1 otherwise,
 * CP-4 having no draw). A hand that ends scores (CP-3, CP-4) and the next is dealt unless the match ended or reached
 * max_hands. */
static void pv_act(pv_table_t *v, uint64_t pass, int card) {
    partnership_t *p = &v->tb.p;
    int seat = p->to_act;
    if (p->phase == P_PASSING) {
        ph_pass(&v->tb, pass);
        return;
    }
    if (p->trick_len == 0) {
        for (int s = 0; s < P_SEATS; s++) v->trick_card[s] = -1;
    }
    v->played_by[seat] |= 1ull << card;
    v->trick_card[seat] = card;
    int ev = ph_play(&v->tb, card);
    if (ev == P_EV_TRICK) {
        for (int s = 0; s < P_SEATS; s++) v->trick_card[s] = -1;
    }
    if (ev != P_EV_SCORED) return;
    for (int s = 0; s < P_SEATS; s++) v->trick_card[s] = -1;
    v->totals[0] += p->team_scores[0];
    v->totals[1] += p->team_scores[1];
    for (int s = 0; s < P_SEATS && v->points; s++) v->gained[s] += (double)p->team_scores[s % 2];
    int high = v->totals[0] > v->totals[1] ? v->totals[0] : v->totals[1];
    if (high >= v->target && v->totals[0] != v->totals[1]) {
        v->state = VT_ENDED;
        v->winner = v->totals[0] > v->totals[1] ? 0 : 1;
        for (int s = 0; s < P_SEATS && !v->points; s++) v->gained[s] += v->winner == s % 2 ? 1.0 : -1.0;
    } else if (v->hands >= v->max_hands) {
        v->state = VT_TRUNCATED;
    } else {
        pv_deal(v);
    }
}

/* The random or heuristic bot of the seat to act plays (a pass, or a card). */
static void pv_bot(pv_table_t *v) {
    const partnership_t *p = &v->tb.p;
    int heuristic = v->bots[p->to_act] == VT_HEURISTIC;
    if (p->phase == P_PASSING) {
        uint64_t hand = p->hands[p->to_act];
        uint64_t pass = heuristic ? ph_pass_choice(&v->tb)
                                  : p_pass_at(hand, mt_below(&v->rng, p_comb(__builtin_popcountll(hand), P_PASS)));
        pv_act(v, pass, -1);
    } else {
        uint64_t legal = partnership_legal(p);
        int card = heuristic ? ph_card_choice(&v->tb) : kth_bit(legal, mt_below(&v->rng, __builtin_popcountll(legal)));
        pv_act(v, 0, card);
    }
}

/* One id of the seat to act (allowed by pv_allowed): a card played, or one card of its pass, the pass made once three
 * are picked. */
static void pv_id(pv_table_t *v, int id) {
    if (v->tb.p.phase == P_PASSING) {
        v->picked |= 1ull << id;
        if (__builtin_popcountll(v->picked) < P_PASS) return;
        uint64_t pass = v->picked;
        v->picked = 0;
        pv_act(v, pass, -1);
        return;
    }
    pv_act(v, 0, id);
}

static inline void pv_cards(float *obs, int offset, uint64_t cards) {
    for (; cards; cards &= cards - 1) obs[offset + __builtin_ctzll(cards)] = 1.0f;
}

static inline float pv_clipped(double value, double low, double high) {
    return (float)(value < low ? low : value > high ? high : value);
}

/* The observation of seat `me` (PV_SIZE values, zeroed here) and its mask (PV_IDS entries): rl.py's observe() of its
 * view, then `picked` (where it is to act). */
static void pv_observe(const pv_table_t *v, int me, float *obs, int8_t *mask) {
    const partnership_t *p = &v->tb.p;
    int acting = v->state == VT_PLAYING && p->to_act == me;
#define PV_REL(seat) (((seat) - me + P_SEATS) % P_SEATS)
    memset(obs, 0, PV_SIZE * sizeof *obs);
    pv_cards(obs, PV_HAND, p->hands[me]);
    for (int s = 0; s < P_SEATS; s++) {
        pv_cards(obs, PV_PLAYED_BY + 52 * PV_REL(s), v->played_by[s]);
        if (p->trick_len > 0 && v->trick_card[s] >= 0) obs[PV_TRICK + 52 * PV_REL(s) + v->trick_card[s]] = 1.0f;
    }
    pv_cards(obs, PV_GIVEN, p->chosen[me]); /* 0 before it chose, and in a hand without a pass */
    if (v->tb.passed) {                     /* CP-2: once the cards moved, what came and where its own went */
        int receiver = p_receiver(me, p->direction);
        for (int g = 0; g < P_SEATS; g++) {
            if (p_receiver(g, p->direction) == me) pv_cards(obs, PV_RECEIVED, p->chosen[g]);
        }
        pv_cards(obs, PV_KNOWN_AT + 52 * PV_REL(receiver), p->chosen[me] & ~v->tb.played);
    }
    for (int s = 0; s < P_SEATS; s++) {
        for (int suit = 0; suit < 4; suit++) {
            if (v->tb.voids[s] >> suit & 1) obs[PV_VOIDS + 4 * PV_REL(s) + suit] = 1.0f;
        }
        if (p->chosen[s]) obs[PV_CHOSEN + PV_REL(s)] = 1.0f;
    }
    obs[PV_DIRECTION + p->direction] = 1.0f;
    obs[PV_PHASE + (p->phase == P_PASSING ? 0 : 1)] = 1.0f;
    if (p->leader >= 0) obs[PV_LEADER + PV_REL(p->leader)] = 1.0f;
    if (p->trick_len > 0) obs[PV_WINNING + PV_REL(p->winning)] = 1.0f;
    obs[PV_DEALER + PV_REL(p->dealer)] = 1.0f;
    int team_points[2];
    for (int team = 0; team < 2; team++) { /* CP-3 so far: tricks, clubs, the ruby dame, the sweep */
        int tricks = p->tricks_won[team] + p->tricks_won[team + 2];
        uint64_t cards = p->taken[team] | p->taken[team + 2];
        team_points[team] = tricks + __builtin_popcountll(cards & P_SUIT) + ((cards >> P_RUBY_DAME & 1) ? 5 : 0) +
                            (tricks == P_TRICKS ? 5 : 0);
    }
    for (int s = 0; s < P_SEATS; s++) {
        obs[PV_TRICKS_WON + PV_REL(s)] = pv_clipped((double)p->tricks_won[s] / 13, 0.0, 1.0);
    }
    int mine = me % 2, theirs = 1 - mine;
    obs[PV_POINTS] = pv_clipped((double)team_points[mine] / PV_CLUBS_POINTS_SCALE, 0.0, 1.0);
    obs[PV_POINTS + 1] = pv_clipped((double)team_points[theirs] / PV_CLUBS_POINTS_SCALE, 0.0, 1.0);
    obs[PV_TOTALS] = pv_clipped((double)v->totals[mine] / v->target, 0.0, 2.0);
    obs[PV_TOTALS + 1] = pv_clipped((double)v->totals[theirs] / v->target, 0.0, 2.0);
    if (acting) pv_cards(obs, PV_PICKED, v->picked);
#undef PV_REL
    uint64_t allowed = acting ? pv_allowed(v) : 0;
    for (int id = 0; id < PV_IDS; id++) mask[id] = (int8_t)((allowed >> id) & 1);
}

/* The names the shared glue uses (native/vector_tables.pxi, included by _core.pyx). */
typedef pv_table_t vector_table_t;
enum {
    VT_IDS = PV_IDS,
    VT_SEATS = P_SEATS,
    VT_RULES = 1,
    VT_WEIGHTS = 0,
    VT_SCRATCH = 0,
    VT_MAX_ACTIONS = 286, /* the passes of three cards of 13 */
    VT_MAX_SPELLING = P_PASS
};

/* A table's settings: `rules` the VT_RULES numbers of the rules (target), `lineup` who plays the other seats in
 * increasing seat order, `weights` the heuristic bot's VT_WEIGHTS constants; the caller checked every number. */
static void vt_settings(vector_table_t *v, const int *rules, int max_hands, int points, int seat, const int *lineup,
                        const double *weights) {
    v->target = rules[0];
    v->max_hands = max_hands;
    v->points = points;
    v->fixed_seat = seat;
    for (int k = 0; k < P_SEATS - 1; k++) v->lineup[k] = lineup[k];
    (void)weights; /* the heuristic bot has no constants from Python */
}

/* The observation's length (every table of the game has the same). */
static int vt_size(const vector_table_t *v) {
    (void)v;
    return PV_SIZE;
}

/* The hooks of native/vector_episode.h, which makes the tables' reset and step of them. */
static int vt_seats(const vector_table_t *v) {
    (void)v;
    return P_SEATS;
}

static int vt_to_act(const vector_table_t *v) { return v->state == VT_PLAYING ? v->tb.p.to_act : -1; }

static void vt_begin(vector_table_t *v, void *scratch) {
    (void)scratch;
    pv_begin(v);
}

static void vt_bot(vector_table_t *v, void *scratch) {
    (void)scratch;
    pv_bot(v);
}

static int vt_id(vector_table_t *v, int id, void *scratch) {
    (void)scratch;
    if (!(pv_allowed(v) >> id & 1)) return 0;
    pv_id(v, id);
    return 1;
}

/* The seat to act's legal actions spelled: a card its one id; a pass its three cards in increasing order (CP-2). */
static int vt_spell(vector_table_t *v, void *scratch, int *start, int *ids) {
    (void)scratch;
    const partnership_t *p = &v->tb.p;
    if (p->phase == P_PLAY) return vt_spell_ids(partnership_legal(p), start, ids);
    int count = 0, at = 0;
    start[0] = 0;
    uint64_t hand = p->hands[p->to_act];
    for (uint64_t a = hand; a; a &= a - 1) {
        for (uint64_t b = a & (a - 1); b; b &= b - 1) {
            for (uint64_t c = b & (b - 1); c; c &= c - 1) {
                if (count >= VT_MAX_ACTIONS) return -1;
                ids[at++] = __builtin_ctzll(a);
                ids[at++] = __builtin_ctzll(b);
                ids[at++] = __builtin_ctzll(c);
                start[++count] = at;
            }
        }
    }
    return count;
}

static int vt_picked_slot(const vector_table_t *v) {
    (void)v;
    return PV_PICKED;
}

static void vt_observe(vector_table_t *v, int seat, float *obs, int8_t *mask, void *scratch) {
    (void)scratch;
    pv_observe(v, seat, obs, mask);
}

#include "vector_episode.h"

#endif
