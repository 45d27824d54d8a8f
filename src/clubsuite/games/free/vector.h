/* Many Free Clubs tables for a learning program, in C: seats played from outside (one learner, or several:
 * self-play), the others by the random, the heuristic or the learned bot, and the observation of the seat to act
 * written straight into an array.
 *
 * This restates, for the kernel, what clubsuite.rl.vector's engine path does with the engine's match: episode k of
 * table i is the match of seed derive_seed(base_i, k), dealt and played as clubsuite.runner.play_match deals and
 * plays it (core.h, heuristic.h: hand h dealt by seat h % 3 from derive_seed(match_seed, h), the bots drawing from
 * one generator seeded derive_seed(match_seed, 0x5EED)); the ids played from outside and the learned seats' choices
 * draw nothing. The default table rules only (no misplays, FC-10), as core.h. The observation is the one rl.py (the
 * Free Clubs coding) fills from a seat's view, value for value; tests/test_rl_vector.py holds the two paths to each other
 * step by step.
 */
#ifndef CLUBS_FREE_VECTOR_H
#define CLUBS_FREE_VECTOR_H

#include "heuristic.h"
#include "vector_kinds.h"

/* The action ids of the Free Clubs coding (rl.py): the cards 0..53 by index (the deck's order), then the pass. */
enum { FV_IDS = 55 };
/* The observation's slots (rl.py's LAYOUT, then the environment's `picked`); a card block is 54 entries. */
enum {
    FV_HAND = 0,
    FV_AUCTION_HAND = 54,
    FV_UNBID = 108,
    FV_CHEST = 162,
    FV_DISCARDS = 216,
    FV_PASS_CHOICE = 270,
    FV_GIVEN_TO = 324,
    FV_RECEIVED_FROM = 486,
    FV_BIDS = 648,
    FV_TOP_BID = 810,
    FV_TOP_BIDDER = 864,
    FV_PASSED_LAST = 867,
    FV_WINNER = 870,
    FV_PARTNER = 873,
    FV_HANDICAPPED = 876,
    FV_PLAYED_BY = 879,
    FV_TRICK = 1041,
    FV_STAGE = 1203,
    FV_LEADER = 1207,
    FV_DEALER = 1210,
    FV_HAND_SIZES = 1213,
    FV_AUCTION_SIZES = 1216,
    FV_TRICKS_WON = 1219,
    FV_TOTALS = 1222,
    FV_PICKED = 1225,
    FV_SIZE = 1280
};
#define FV_CARDS 54
/* A seat's latest call in the auction of the hand in progress. */
enum { FV_NO_CALL = 0, FV_BID = 1, FV_PASSED = 2 };
#define FV_SEAT_OF_EPISODE 0x5EA7 /* the path of derive_seed that draws the learner's seat when it is not fixed */
#define FV_WEIGHTS 16             /* fh_weights_t's doubles: bot.py's heuristic_constants() */

typedef struct {
    /* the table's settings */
    int target, no_spades_needs_a_trick, max_hands, points; /* points: the hand's score as reward (else the match's) */
    int fixed_seat;                                         /* the learner's seat, or -1: drawn for each episode */
    int lineup[FC_SEATS - 1];                               /* who plays the other seats, in increasing seat order */
    fh_weights_t w;                                         /* the heuristic bot's constants */
    /* the match */
    uint64_t base, match_seed;
    uint64_t episode;
    int learner, bots[FC_SEATS]; /* the learner's seat; who plays each seat (vector_episode.h's kinds) */
    double gained[FC_SEATS];     /* each seat's rewards since they were last taken */
    int state;
    free_outcome_t out; /* hands scored, totals, winners (fc_match_scored) */
    /* the hand in progress */
    free_t f;
    fh_known_t k;
    uint64_t dealt_auction[FC_SEATS]; /* each seat's auction cards as dealt (view.unbid_auction) */
    uint64_t played_by[FC_SEATS];     /* the cards each seat played this hand, the trick in progress included */
    int last_call[FC_SEATS];          /* FV_NO_CALL, FV_BID, FV_PASSED */
    int done; /* the episode ended at the last step: the next step starts the next one */
    mt_t deals, rng;
} fv_table_t;

_Static_assert(sizeof(fh_weights_t) == FV_WEIGHTS * sizeof(double), "fh_weights_t is FV_WEIGHTS doubles in a row");

/* Deal the match's next hand (runner.deal_next), dealt by seat (hands scored) % 3. */
static void fv_deal(fv_table_t *v) {
    int dealer = v->out.hands % FC_SEATS;
    uint64_t primary[FC_SEATS], chest;
    mt_seed(&v->deals, derive_seed1(v->match_seed, (uint64_t)v->out.hands));
    fc_deal(&v->deals, dealer, v->dealt_auction, primary, &chest);
    fc_start(&v->f, v->dealt_auction, primary, chest, dealer, v->no_spades_needs_a_trick);
    memset(&v->k, 0, sizeof v->k);
    for (int s = 0; s < FC_SEATS; s++) {
        v->played_by[s] = 0;
        v->last_call[s] = FV_NO_CALL;
    }
}

/* Start episode v->episode: its match seed, the learner's seat, the bots in the other seats, the first deal. */
static void fv_begin(fv_table_t *v) {
    v->match_seed = derive_seed1(v->base, v->episode);
    v->learner = v->fixed_seat >= 0 ? v->fixed_seat
                                     : (int)(derive_seed1(v->match_seed, FV_SEAT_OF_EPISODE) % FC_SEATS);
    for (int s = 0, j = 0; s < FC_SEATS; s++) {
        v->bots[s] = s == v->learner ? VT_OUTSIDE : v->lineup[j++];
        v->gained[s] = 0.0;
    }
    mt_seed(&v->rng, derive_seed1(v->match_seed, 0x5EED));
    memset(&v->out, 0, sizeof v->out);
    v->state = VT_PLAYING;
    fv_deal(v);
}

/* The ids the seat to act may pick, as a mask over 0..54 (0: the match is not in play). */
static uint64_t fv_legal(const fv_table_t *v) { return v->state == VT_PLAYING ? fc_legal(&v->f) : 0; }

/* Apply a legal id of the seat to act, adding to each seat's `gained` what it brings (a hand's score, or the match's
 * result +1/-1, as v->points says: Free Clubs has no draw, FC-9). A hand that ends scores (FC-8) and the next is
 * dealt unless the match ended or reached max_hands. */
static void fv_act(fv_table_t *v, int id) {
    free_t *f = &v->f;
    int seat = f->to_act;
    if (f->stage == FC_AUCTION) v->last_call[seat] = id == FC_PASS ? FV_PASSED : FV_BID;
    if (f->stage == FC_PLAY) v->played_by[seat] |= 1ull << id;
    if (fh_step(&v->k, f, id) != FC_EV_SCORED) return;
    for (int s = 0; s < FC_SEATS && v->points; s++) v->gained[s] += (double)f->scores[s];
    if (fc_match_scored(&v->out, f, v->target)) {
        v->state = VT_ENDED;
        for (int s = 0; s < FC_SEATS && !v->points; s++) v->gained[s] += (v->out.winners >> s) & 1 ? 1.0 : -1.0;
    } else if (v->out.hands >= v->max_hands) {
        v->state = VT_TRUNCATED;
    } else {
        fv_deal(v);
    }
}

/* The id the bot of the seat to act picks (the random bot one draw a decision, the heuristic bot its chests in the
 * auction, both from the match's one generator). */
static int fv_bot_choice(fv_table_t *v) {
    if (v->bots[v->f.to_act] == VT_HEURISTIC) return fh_choose(&v->w, &v->f, &v->k, &v->rng);
    uint64_t legal = fc_legal(&v->f);
    return kth_bit(legal, mt_below(&v->rng, __builtin_popcountll(legal)));
}

static inline void fv_cards(float *obs, int offset, uint64_t cards) {
    for (; cards; cards &= cards - 1) obs[offset + __builtin_ctzll(cards)] = 1.0f;
}

static inline float fv_clipped(double value, double low, double high) {
    return (float)(value < low ? low : value > high ? high : value);
}

/* The observation of seat `me` (FV_SIZE values, zeroed here) and its mask (FV_IDS entries): rl.py's observe() of its
 * view, then an empty `picked` (every Free Clubs decision is one id). */
static void fv_observe(const fv_table_t *v, int me, float *obs, int8_t *mask) {
    const free_t *f = &v->f;
#define FV_REL(seat) (((seat) - me + FC_SEATS) % FC_SEATS)
    memset(obs, 0, FV_SIZE * sizeof *obs);
    fv_cards(obs, FV_HAND, f->hands[me]);
    fv_cards(obs, FV_AUCTION_HAND, f->auction[me]);
    uint64_t bid_by_me = 0;
    for (int i = 0; i < f->n_bids; i++) {
        if (f->bid_seat[i] == me) bid_by_me |= 1ull << f->bid_card[i];
    }
    fv_cards(obs, FV_UNBID, v->dealt_auction[me] & ~bid_by_me); /* FC-3: own auction cards not bid */
    if (f->winner == me) fv_cards(obs, FV_CHEST, f->chest);     /* FC-5: only the taker sees the chest */
    fv_cards(obs, FV_DISCARDS, f->discarded[me]);
    for (int k = 0; k < f->n_chosen; k++) { /* FC-2: the card this seat chose to pass (kept for the hand) */
        if (f->pass_order[k] == me) obs[FV_PASS_CHOICE + f->pass_choice[k]] = 1.0f;
    }
    for (int s = 0; s < FC_SEATS; s++) { /* the Queen handicaps' and the pass's cards this seat gave or received */
        fv_cards(obs, FV_GIVEN_TO + FV_CARDS * FV_REL(s), f->gave[me][s]);
        fv_cards(obs, FV_RECEIVED_FROM + FV_CARDS * FV_REL(s), f->gave[s][me]);
    }
    for (int i = 0; i < f->n_bids; i++) obs[FV_BIDS + FV_CARDS * FV_REL(f->bid_seat[i]) + f->bid_card[i]] = 1.0f;
    if (f->n_bids) {
        obs[FV_TOP_BID + f->bid_card[f->n_bids - 1]] = 1.0f;
        obs[FV_TOP_BIDDER + FV_REL(f->bid_seat[f->n_bids - 1])] = 1.0f;
    }
    for (int s = 0; s < FC_SEATS; s++) {
        if (v->last_call[s] == FV_PASSED) obs[FV_PASSED_LAST + FV_REL(s)] = 1.0f;
    }
    if (f->winner >= 0) obs[FV_WINNER + FV_REL(f->winner)] = 1.0f;
    if (f->partner >= 0) obs[FV_PARTNER + FV_REL(f->partner)] = 1.0f;
    for (int s = 0; s < FC_SEATS; s++) fv_cards(obs, FV_PLAYED_BY + FV_CARDS * FV_REL(s), v->played_by[s]);
    for (int j = 0; j < f->trick_len; j++) obs[FV_TRICK + FV_CARDS * FV_REL(f->trick_seat[j]) + f->trick_card[j]] = 1.0f;
    if (f->stage < FC_OVER) obs[FV_STAGE + f->stage] = 1.0f;
    if (f->leader >= 0) obs[FV_LEADER + FV_REL(f->leader)] = 1.0f;
    obs[FV_DEALER + FV_REL(f->dealer)] = 1.0f;
    for (int s = 0; s < FC_SEATS; s++) {
        /* FC-5: what the seat's handicaps removed, its discards and its Queens' cards to its left */
        int removed = __builtin_popcountll(f->discarded[s]) + __builtin_popcountll(f->gave[s][(s + 1) % FC_SEATS]);
        int r = FV_REL(s);
        obs[FV_HANDICAPPED + r] = fv_clipped(removed / 6.0, 0.0, 1.0);
        obs[FV_HAND_SIZES + r] = fv_clipped(__builtin_popcountll(f->hands[s]) / 16.0, 0.0, 1.0);
        obs[FV_AUCTION_SIZES + r] = fv_clipped(__builtin_popcountll(f->auction[s]) / 6.0, 0.0, 1.0);
        obs[FV_TRICKS_WON + r] = fv_clipped(f->tricks_won[s] / 10.0, 0.0, 1.0);
        obs[FV_TOTALS + r] = fv_clipped((double)v->out.totals[s] / v->target, -2.0, 2.0);
    }
#undef FV_REL
    uint64_t legal = f->to_act == me ? fv_legal(v) : 0;
    for (int id = 0; id < FV_IDS; id++) mask[id] = (int8_t)((legal >> id) & 1);
}

/* The names the shared glue uses (native/vector_tables.pxi, included by _core.pyx). */
typedef fv_table_t vector_table_t;
enum {
    VT_IDS = FV_IDS,
    VT_SEATS = FC_SEATS,
    VT_RULES = 2,
    VT_WEIGHTS = FV_WEIGHTS,
    VT_SCRATCH = 0,
    VT_MAX_ACTIONS = FV_IDS, /* one id an action */
    VT_MAX_SPELLING = 1
};

/* A table's settings: `rules` the VT_RULES numbers of the rules (target, the reading of FC-8: 1 where the no-spades
 * bonus needs a trick), `lineup` who plays the other seats in increasing seat order, `weights` the heuristic bot's
 * VT_WEIGHTS constants; the caller checked every number. */
static void vt_settings(vector_table_t *v, const int *rules, int max_hands, int points, int seat, const int *lineup,
                        const double *weights) {
    v->no_spades_needs_a_trick = rules[1];
    v->target = rules[0];
    v->max_hands = max_hands;
    v->points = points;
    v->fixed_seat = seat;
    for (int k = 0; k < FC_SEATS - 1; k++) v->lineup[k] = lineup[k];
    memcpy(&v->w, weights, sizeof v->w);
}

/* The observation's length (every table of the game has the same). */
static int vt_size(const vector_table_t *v) {
    (void)v;
    return FV_SIZE;
}

/* The hooks of native/vector_episode.h, which makes the tables' reset and step of them. */
static int vt_seats(const vector_table_t *v) {
    (void)v;
    return FC_SEATS;
}

static int vt_to_act(const vector_table_t *v) { return v->state == VT_PLAYING ? v->f.to_act : -1; }

static void vt_begin(vector_table_t *v, void *scratch) {
    (void)scratch;
    fv_begin(v);
}

static void vt_bot(vector_table_t *v, void *scratch) {
    (void)scratch;
    fv_act(v, fv_bot_choice(v));
}

static int vt_id(vector_table_t *v, int id, void *scratch) {
    (void)scratch;
    if (!(fv_legal(v) >> id & 1)) return 0;
    fv_act(v, id);
    return 1;
}

static int vt_spell(vector_table_t *v, void *scratch, int *start, int *ids) {
    (void)scratch;
    return vt_spell_ids(fv_legal(v), start, ids);
}

static int vt_picked_slot(const vector_table_t *v) {
    (void)v;
    return FV_PICKED;
}

static void vt_observe(vector_table_t *v, int seat, float *obs, int8_t *mask, void *scratch) {
    (void)scratch;
    fv_observe(v, seat, obs, mask);
}

#include "vector_episode.h"

#endif
