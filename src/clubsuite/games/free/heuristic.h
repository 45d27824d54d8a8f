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
        rival_winner, team_partner, break_team, diamond_value, ace_of_hearts_value, first_spade_cost, solo_margin,
        joker_own_tricks, chest_samples;
} fh_weights_t;

#define FH_PRIMARY (FC_PRIMARY(0) | FC_PRIMARY(1) | FC_PRIMARY(2) | FC_PRIMARY(3))

/* What the public play has shown, kept up to date as cards are played (what each seat's own handicaps discarded and
 * gave, which only it knows, free_t keeps). */
typedef struct {
    uint64_t played;      /* every card played to a trick */
    int voids[FC_SEATS];  /* suits (as bits) a seat has shown to be out of by not following (bot.py's _note_plays) */
    int taken_spade[FC_SEATS];
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
    t->unseen = FH_PRIMARY & ~t->hand & ~k->played & ~f->discarded[seat];
    for (int s = 0; s < FC_SEATS; s++) t->held_by[s] = f->gave[seat][s] & t->unseen;
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

/* -- the auction, the Ten's discard and the pass (bot.py) -------------------------------------------------------- */

/* bot.py's expected_tricks: the sum of the hand's best ten card potentials, added from the best down. */
static double fh_expected_tricks(const fh_weights_t *w, uint64_t hand, uint64_t unseen) {
    double chances[FC_SEATS * 13];
    int n = 0;
    for (uint64_t m = hand; m; m &= m - 1) {
        double c = fh_potential(w, __builtin_ctzll(m), hand, unseen);
        int i = n++;
        while (i > 0 && chances[i - 1] < c) { /* sorted from the highest down (equal values: any order, same sum) */
            chances[i] = chances[i - 1];
            i--;
        }
        chances[i] = c;
    }
    double total = 0.0;
    for (int i = 0; i < n && i < FC_MAX_TRICKS; i++) total += chances[i];
    return total;
}

/* bot.py's cheapest_card: the candidate with the lowest potential, then the lowest strength, the first of equals. */
static int fh_cheapest(const fh_weights_t *w, uint64_t candidates, uint64_t hand, uint64_t unseen) {
    int best = -1;
    double best_potential = 0.0;
    for (uint64_t m = candidates; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        double p = fh_potential(w, i, hand, unseen);
        if (best < 0 || p < best_potential || (p == best_potential && fc_strength(i) < fc_strength(best))) {
            best = i;
            best_potential = p;
        }
    }
    return best;
}

/* bot.py's apply_handicaps: the hand after the handicaps of `bids` in order (FC-5). */
static uint64_t fh_apply_handicaps(const fh_weights_t *w, uint64_t hand, const int *bids, int n) {
    for (int b = 0; b < n; b++) {
        int bid = bids[b];
        if (bid >= FC_JOKER) continue;
        int suit = bid / 13, tier = fc_bid_tier(bid);
        if (tier == 0) {
            uint64_t in_suit = hand & FC_PRIMARY(suit);
            if (in_suit) hand &= ~(1ull << fh_cheapest(w, in_suit, hand, FH_PRIMARY & ~hand));
        } else {
            hand &= ~fc_top_cards(hand, suit, tier == 3 ? 3 : 1);
        }
    }
    return hand;
}

/* bot.py's choose_bid for the seat to act (its auction): a bid, or FC_PASS. The chests are drawn from `rng` as
 * random.Random.sample draws them, eight for each bid weighed, as bot.py's judge_bid does. */
static int fh_choose_bid(const fh_weights_t *w, const free_t *f, mt_t *rng) {
    int seat = f->to_act;
    fh_init_higher();
    uint64_t legal = fc_legal(f);
    uint64_t bids = legal & ~(1ull << FC_PASS);
    if (!(legal >> FC_PASS & 1)) return __builtin_ctzll(bids); /* the forced opening with the ten of spades */
    uint64_t hand = f->hands[seat];
    int pool[FC_SEATS * 13], n = 0, own[FC_MAX_BIDS + 1], n_own = 0;
    for (uint64_t m = FH_PRIMARY & ~hand; m; m &= m - 1) pool[n++] = __builtin_ctzll(m);
    for (int i = 0; i < f->n_bids; i++)
        if (f->bid_seat[i] == seat) own[n_own++] = f->bid_card[i];
    int samples = (int)w->chest_samples, best = FC_PASS;
    double best_tricks = -1.0;
    for (uint64_t m = bids; m; m &= m - 1) {
        int bid = __builtin_ctzll(m);
        own[n_own] = bid;
        double total = 0.0;
        for (int k = 0; k < samples; k++) {
            uint64_t chest = mt_sample_mask(rng, pool, n, 6);
            uint64_t after = fh_apply_handicaps(w, hand | chest, own, n_own + 1);
            total += fh_expected_tricks(w, after, FH_PRIMARY & ~after & ~(hand | chest));
        }
        double tricks = total / w->chest_samples;
        double need = bid >= FC_JOKER ? w->joker_own_tricks : FC_SOLO_CONTRACT + w->solo_margin;
        if (tricks >= need && tricks > best_tricks) {
            best_tricks = tricks;
            best = bid;
        }
    }
    return best;
}

/* bot.py's choose_discard: the Ten's discard or the card passed to the right, the one whose loss costs least. */
static int fh_choose_discard(const fh_weights_t *w, const free_t *f) {
    int seat = f->to_act;
    fh_init_higher();
    uint64_t hand = f->hands[seat], unseen = FH_PRIMARY & ~hand & ~f->discarded[seat];
    int winner_alone = f->partner < 0 && seat == f->winner; /* bot.py's role_of(view) == "winner" */
    int best = -1;
    double best_cost = 0.0;
    for (uint64_t m = fc_legal(f); m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        double cost = fh_potential(w, i, hand, unseen);
        if (i == FC_ACE_OF_HEARTS) {
            cost += w->ace_of_hearts_value;
        } else if (i / 13 == FC_DIAMONDS) {
            cost += w->diamond_value * (winner_alone ? 1.0 : 2.0);
        } else if (i / 13 == FC_SPADES) {
            cost -= w->first_spade_cost / 2;
        }
        cost = cost + (double)fc_strength(i) / 100.0;
        if (best < 0 || cost < best_cost) {
            best = i;
            best_cost = cost;
        }
    }
    return best;
}

/* FreeHeuristicBot.choose for the seat to act of `f`: the action number it takes. */
static int fh_choose(const fh_weights_t *w, const free_t *f, const fh_known_t *k, mt_t *rng) {
    if (f->stage == FC_AUCTION) return fh_choose_bid(w, f, rng);
    if (f->stage == FC_HANDICAP || f->stage == FC_PASSING) return fh_choose_discard(w, f);
    return fh_choose_play(w, f, k);
}

/* A match as clubsuite.runner.play_match plays it with bot.py's heuristic bot in the seats of `heuristic` (bits) and
 * the random bot in the others, all drawing from one generator seeded derive_seed(match_seed, 0x5EED) (the random
 * bot one random() a decision, the heuristic bot its chests in the auction), the deals and the end as
 * fc_random_match's. */
static void fh_match(const fh_weights_t *w, uint64_t match_seed, int target, int no_spades_needs_a_trick,
                     unsigned heuristic, mt_t *deals, mt_t *bots, free_outcome_t *out) {
    memset(out, 0, sizeof *out);
    mt_seed(bots, derive_seed1(match_seed, 0x5EED));
    for (;;) {
        uint64_t auction[FC_SEATS], primary[FC_SEATS], chest;
        mt_seed(deals, derive_seed1(match_seed, (uint64_t)out->hands));
        fc_deal(deals, out->hands % FC_SEATS, auction, primary, &chest);
        free_t f;
        fh_known_t k;
        memset(&k, 0, sizeof k);
        fc_start(&f, auction, primary, chest, out->hands % FC_SEATS, no_spades_needs_a_trick);
        while (f.stage != FC_OVER) {
            int action;
            if (heuristic >> f.to_act & 1) {
                action = fh_choose(w, &f, &k, bots);
            } else {
                uint64_t legal = fc_legal(&f);
                action = kth_bit(legal, mt_below(bots, __builtin_popcountll(legal)));
            }
            fh_step(&k, &f, action);
            out->decisions++;
        }
        if (fc_match_scored(out, &f, target)) return;
    }
}

/* Play `f` to the end of the hand from any stage with the heuristic bot in every seat, its chests drawn from `rng`
 * (the search bots' play-outs from the auction on); the actions go to `out` (room for `room`); returns how many, or
 * -1 where they would not fit. */
static int fh_finish_hand(const fh_weights_t *w, free_t *f, fh_known_t *k, mt_t *rng, int16_t *out, int room) {
    int n = 0;
    while (f->stage != FC_OVER) {
        if (n >= room) return -1;
        int action = fh_choose(w, f, k, rng);
        out[n++] = (int16_t)action;
        fh_step(k, f, action);
    }
    return n;
}

#endif
