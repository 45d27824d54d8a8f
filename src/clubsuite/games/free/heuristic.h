/* The heuristic bot of Free Clubs in C, for the play-outs of the search bots: bot.py's card play restated (its
 * auction, which samples chests, and its discards stay in Python, so a play-out runs here from the card play on).
 * Every figure is worked out with the same double operations in the same order as bot.py, and its ties go to the
 * first card as Python's max gives them, so the C bot plays the same card as the Python bot;
 * tests/free/test_heuristic_free.py compares them at every decision of many hands.
 *
 * What a seat knows is what its FreeView shows (bot.py's read_table): its own cards, the cards played, the hand
 * sizes, the suits each seat has shown to be out of, who has taken a spade, the cards its own handicaps discarded and
 * the cards it gave to each other seat (Queen handicaps and the pass, FC-2, FC-5).
 */
#ifndef CLUBS_FREE_HEURISTIC_H
#define CLUBS_FREE_HEURISTIC_H

#include <math.h>

#include "core.h"

/* bot.py's tuning constants, handed over from Python (the names of bot.py's module constants, in this order). */
typedef struct {
    double plain_top, plain_decay, plain_length_decay, club_slope, club_floor, keep_weight, friend_defender,
        rival_winner, team_partner, break_team, diamond_value, ace_of_hearts_value, first_spade_cost;
} fh_weights_t;

#define FH_PRIMARY (FC_PRIMARY(0) | FC_PRIMARY(1) | FC_PRIMARY(2) | FC_PRIMARY(3))

/* What the public play has shown, kept up to date as cards are played, and each seat's private knowledge. */
typedef struct {
    uint64_t played;      /* every card played to a trick */
    int voids[FC_SEATS];  /* suits (as bits) a seat has shown to be out of by not following (bot.py's _note_plays) */
    int taken_spade[FC_SEATS];
    uint64_t discards[FC_SEATS];     /* what each seat's own handicaps discarded */
    uint64_t gave[FC_SEATS][FC_SEATS]; /* gave[s][r]: the cards seat s gave seat r */
} fh_known_t;

/* fc_step with what the play shows noted (bot.py's read_table): the card played, a seat not following the suit led
 * (void in it), a spade in a trick its winner takes. Any action of the seat to act that fc_legal allows. */
static int fh_step(fh_known_t *k, free_t *f, int action) {
    if (f->stage != FC_PLAY) return fc_step(f, action);
    uint64_t trick = 1ull << action;
    for (int j = 0; j < f->trick_len; j++) trick |= 1ull << f->trick_card[j];
    k->played |= 1ull << action;
    if (f->trick_len && action / 13 != f->trick_card[0] / 13) k->voids[f->to_act] |= 1 << (f->trick_card[0] / 13);
    int event = fc_step(f, action);
    if ((event == FC_EV_TRICK || event == FC_EV_SCORED) && (trick & FC_PRIMARY(FC_SPADES)))
        k->taken_spade[f->last_winner] = 1;
    return event;
}

/* bot.py's Table, for the seat to act. */
typedef struct {
    int seat;
    uint64_t hand, unseen;
    int sizes[FC_SEATS], voids[FC_SEATS];
    uint64_t held_by[FC_SEATS];
    int taken_spade;
} fh_table_t;

static uint64_t fh_higher[54]; /* bot.py's _HIGHER: the primary cards of a card's suit that play above it */

static void fh_init_higher(void) {
    if (fh_higher[FC_ACE_OF_HEARTS]) return; /* the ace plays lowest: its suit's 2..9 are above it */
    for (int c = 0; c < 52; c++) {
        uint64_t above = 0;
        for (uint64_t m = FC_PRIMARY(c / 13); m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            if (fc_strength(i) > fc_strength(c)) above |= 1ull << i;
        }
        fh_higher[c] = above;
    }
}

static void fh_table(fh_table_t *t, const free_t *f, const fh_known_t *k) {
    int seat = f->to_act;
    t->seat = seat;
    t->hand = f->hands[seat];
    for (int s = 0; s < FC_SEATS; s++) {
        t->sizes[s] = __builtin_popcountll(f->hands[s]);
        t->voids[s] = t->sizes[s] == 0 ? 0xF : k->voids[s];
    }
    t->unseen = FH_PRIMARY & ~t->hand & ~k->played & ~k->discards[seat];
    for (int s = 0; s < FC_SEATS; s++) t->held_by[s] = k->gave[seat][s] & t->unseen;
    t->taken_spade = k->taken_spade[seat];
}

/* bot.py's chance_holds_any: the chance that `seat` holds at least one of `cards`. */
static double fh_holds_any(const fh_table_t *t, int seat, uint64_t cards) {
    if (cards & t->held_by[seat]) return 1.0;
    uint64_t others_known = 0;
    for (int s = 0; s < FC_SEATS; s++)
        if (s != seat) others_known |= t->held_by[s];
    cards &= ~others_known;
    for (int suit = 0; suit < 4; suit++)
        if (t->voids[seat] >> suit & 1) cards &= ~FC_PRIMARY(suit);
    int n = __builtin_popcountll(cards);
    if (n == 0) return 0.0;
    int pool = __builtin_popcountll(t->unseen & ~others_known);
    double share = 0.0;
    if (pool) {
        double ratio = (double)t->sizes[seat] / (double)pool;
        share = ratio < 1.0 ? ratio : 1.0; /* min(1.0, ratio) */
    }
    return 1.0 - pow(1.0 - share, (double)n);
}

static inline int fh_beats(int challenger, int best) {
    int cs = challenger / 13, bs = best / 13;
    if (cs == bs) return fc_strength(challenger) > fc_strength(best);
    return cs == FC_CLUBS;
}

/* bot.py's chance_beaten: the chance that `seat`, playing later to the trick, beats `best` of suit `led` led. */
static double fh_chance_beaten(const fh_table_t *t, int seat, int best, int led) {
    if (t->sizes[seat] == 0) return 0.0;
    uint64_t higher = fh_higher[best] & t->unseen;
    if (best / 13 == led || led == FC_CLUBS) {
        double p = fh_holds_any(t, seat, higher);
        if (led != FC_CLUBS) {
            double p_void = 1.0 - fh_holds_any(t, seat, t->unseen & FC_PRIMARY(led));
            double p_ruff = fh_holds_any(t, seat, t->unseen & FC_PRIMARY(FC_CLUBS));
            p += (1.0 - p) * p_void * p_ruff;
        }
        return p;
    }
    double p_void = 1.0 - fh_holds_any(t, seat, t->unseen & FC_PRIMARY(led));
    return p_void * fh_holds_any(t, seat, higher);
}

/* bot.py's card_potential: the chance that card `idx` of `hand` takes a trick later. */
static double fh_potential(const fh_weights_t *w, int idx, uint64_t hand, uint64_t unseen) {
    int outstanding = __builtin_popcountll(fh_higher[idx] & unseen);
    if (idx / 13 == FC_CLUBS) {
        double chance = 1.0 - w->club_slope * outstanding;
        return chance > w->club_floor ? chance : w->club_floor; /* max(CLUB_FLOOR, chance) */
    }
    int above_mine = __builtin_popcountll(fh_higher[idx] & hand);
    return w->plain_top * pow(w->plain_decay, (double)outstanding) * pow(w->plain_length_decay, (double)above_mine);
}

/* bot.py's seat_values: what this seat gains when each seat takes the trick in play. */
static void fh_seat_values(const fh_weights_t *w, const free_t *f, int me, double values[FC_SEATS]) {
    int winner = f->winner, partner = f->partner, left = FC_MAX_TRICKS - f->tricks_done;
    for (int s = 0; s < FC_SEATS; s++) values[s] = 0.0;
    values[me] = 1.0;
    if (winner < 0) return;
    if (partner >= 0) {
        int team_alive = f->tricks_won[winner] + f->tricks_won[partner] == f->tricks_done;
        if (me == winner || me == partner) {
            int other = me == winner ? partner : winner;
            values[other] = team_alive ? w->team_partner : 0.0;
        } else if (team_alive) {
            values[me] += w->break_team;
        }
    } else if (me != winner) {
        int won = f->tricks_won[winner];
        if (won < FC_SOLO_CONTRACT && FC_SOLO_CONTRACT <= won + left) {
            values[winner] = w->rival_winner;
            values[3 - me - winner] = w->friend_defender;
        }
    }
}

static double fh_trick_content(const fh_weights_t *w, const fh_table_t *t, uint64_t cards) {
    double value = w->diamond_value * __builtin_popcountll(cards & FC_PRIMARY(FC_DIAMONDS));
    if (cards >> FC_ACE_OF_HEARTS & 1) value += w->ace_of_hearts_value;
    if ((cards & FC_PRIMARY(FC_SPADES)) && !t->taken_spade) value -= w->first_spade_cost;
    return value;
}

static double fh_gift_cost(const fh_weights_t *w, int idx) {
    if (idx == FC_ACE_OF_HEARTS) return w->ace_of_hearts_value;
    if (idx / 13 == FC_DIAMONDS) return w->diamond_value;
    if (idx / 13 == FC_SPADES) return -w->first_spade_cost / 3;
    return 0.0;
}

/* bot.py's score_play: the value of playing `idx` now. */
static double fh_score_play(const fh_weights_t *w, const free_t *f, const fh_table_t *t, int idx,
                            const double values[FC_SEATS]) {
    int me = t->seat;
    int led = (f->trick_len ? f->trick_card[0] : idx) / 13;
    int best_seat = f->trick_len ? f->trick_seat[0] : me, best = f->trick_len ? f->trick_card[0] : idx;
    uint64_t cards = 1ull << idx;
    for (int k = 0; k < f->trick_len; k++) cards |= 1ull << f->trick_card[k];
    for (int k = 1; k <= f->trick_len; k++) {
        int s = k < f->trick_len ? f->trick_seat[k] : me, c = k < f->trick_len ? f->trick_card[k] : idx;
        if (fh_beats(c, best)) {
            best_seat = s;
            best = c;
        }
    }
    double holds = 1.0, value = 0.0;
    for (int j = 1; j <= 2; j++) { /* bot.py's later_seats: to play after this seat, holding cards */
        int s = (me + j) % FC_SEATS, played = 0;
        for (int k = 0; k < f->trick_len; k++) played |= f->trick_seat[k] == s;
        if (played || t->sizes[s] == 0) continue;
        if (values[s] < values[best_seat]) {
            double p = fh_chance_beaten(t, s, best, led);
            value += holds * p * values[s];
            holds *= 1.0 - p;
        }
    }
    value += holds * values[best_seat];
    double mine = best_seat == me ? holds : 0.0;
    value += mine * fh_trick_content(w, t, cards) - (1.0 - mine) * fh_gift_cost(w, idx);
    return value - w->keep_weight * fh_potential(w, idx, t->hand, t->unseen) - (double)fc_strength(idx) / 1000.0;
}

/* bot.py's choose_play for the seat to act of `f` (in its card play): the card with the best score, the first of
 * equals in card order. */
static int fh_choose_play(const fh_weights_t *w, const free_t *f, const fh_known_t *k) {
    fh_table_t t;
    double values[FC_SEATS];
    fh_init_higher();
    fh_table(&t, f, k);
    fh_seat_values(w, f, t.seat, values);
    uint64_t legal = fc_legal(f);
    int best = -1;
    double best_score = 0.0;
    for (uint64_t m = legal; m; m &= m - 1) {
        int idx = __builtin_ctzll(m);
        double score = fh_score_play(w, f, &t, idx, values);
        if (best < 0 || score > best_score) {
            best = idx;
            best_score = score;
        }
    }
    return best;
}

/* Play the card play of `f` to the end of the hand with the heuristic bot in every seat; the cards go to `out` (at
 * most 30); returns how many. */
static int fh_finish(const fh_weights_t *w, free_t *f, fh_known_t *k, int8_t *out) {
    int n = 0;
    while (f->stage == FC_PLAY) {
        int idx = fh_choose_play(w, f, k);
        out[n++] = (int8_t)idx;
        fh_step(k, f, idx);
    }
    return n;
}

#endif
