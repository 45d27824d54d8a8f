/* Free Clubs in C: the auction (FC-3, FC-4), the treasure chest and the handicaps (FC-5), the Queen pass and the
 * general pass (FC-2), trick play (FC-1, FC-6, FC-7), the hand's score (FC-8) and the match's end (FC-9), over the
 * engine's bit masks (card index suit * 13 + rank - 2, clubs in bits 0..12, the jokers 52 and 53).
 *
 * This restates hand.py, match.py and deal.py beside it for speed, in the default table rules only (no misplays,
 * FC-10: the engine refuses every illegal card, so that mode is left to it). Every action is a number: a card index
 * 0..53, or FC_PASS (54) for the auction's pass. The engine lists the legal actions of every stage in card-index
 * order with the pass last, so a mask of those numbers lists them in the engine's order, and the random bot's k-th
 * action is the mask's k-th bit. tests/free/test_native_free.py plays thousands of random matches through both and
 * compares every legal set, event and score.
 */
#ifndef CLUBS_FREE_H
#define CLUBS_FREE_H

#include "kernel.h" /* src/clubsuite/native/kernel.h */

#define FC_SEATS 3
#define FC_PASS 54             /* the auction's pass: after every card, as the engine lists it last (FC-3) */
#define FC_TEN_OF_SPADES 47    /* the opening bid (FC-3) */
#define FC_ACE_OF_HEARTS 38    /* +10 to its taker (FC-8) */
#define FC_JOKER 52            /* 52 and 53 */
#define FC_MAX_TRICKS 10       /* FC-7 */
#define FC_SOLO_CONTRACT 7     /* FC-4 */
#define FC_TEAM_CONTRACT 10    /* FC-4 */
#define FC_MAX_BIDS 18         /* bids rise strictly through 17 values (FC-3), so at most 17 */
#define FC_SUIT_PRIMARY 0x10FFull /* within one 13-bit suit block: 2..9 (bits 0..7) and the ace (bit 12) */
#define FC_PRIMARY(suit) (FC_SUIT_PRIMARY << (13 * (suit)))

enum { FC_CLUBS = 0, FC_DIAMONDS = 1, FC_HEARTS = 2, FC_SPADES = 3 };

/* The stages, in hand.py's Stage order. */
enum { FC_AUCTION = 0, FC_HANDICAP = 1, FC_PASSING = 2, FC_PLAY = 3, FC_OVER = 4 };

/* What an action did, beyond the action itself (the codes of clubsuite.native's EV_*). */
enum { FC_EV_NONE = 0, FC_EV_PLAY_STARTED = 1, FC_EV_TRICK = 2, FC_EV_SCORED = 3 };

/* The position of an auction card in the bidding order (FC-3): 10S 0 .. 10C 3, JS 4 .. KC 15, a Joker 16. */
static inline int fc_bid_value(int idx) {
    if (idx >= FC_JOKER) return 16;
    return (idx % 13 - 8) * 4 + (3 - idx / 13);
}

/* The level of an auction card (FC-3): 0 Ten, 1 Jack, 2 Queen, 3 King, 4 Joker. */
static inline int fc_bid_tier(int idx) { return fc_bid_value(idx) / 4; }

/* How high a primary card plays within its suit, as a key to compare (hand.py's strength()): the ace ranks below
 * the two (-1), then 2..9 as their bits. Clubs are trumps (FC-1 play as the engine states it). */
static inline int fc_strength(int idx) {
    int rank = idx % 13;
    return rank == 12 ? -1 : rank;
}

/* The n highest primary cards of `suit` in `hand` (all of them if fewer), as a mask (FC-5: Jack 1, Queen 1,
 * King 3; a suit with too few gives what there is). */
static inline uint64_t fc_top_cards(uint64_t hand, int suit, int n) {
    uint64_t block = (hand >> (13 * suit)) & FC_SUIT_PRIMARY, taken = 0;
    for (; n > 0 && block; n--) {
        uint64_t low = block & 0xFFull; /* 2..9: the highest bit is the strongest; the ace comes last */
        uint64_t bit = low ? 1ull << (63 - __builtin_clzll(low)) : 1ull << 12;
        block &= ~bit;
        taken |= bit;
    }
    return taken << (13 * suit);
}

typedef struct {
    uint64_t hands[FC_SEATS];   /* the primary cards held */
    uint64_t auction[FC_SEATS]; /* the auction cards not yet bid (cleared when the auction ends) */
    uint64_t chest;
    uint64_t taken[FC_SEATS];   /* the cards of the tricks each seat won */
    int stage, dealer, to_act, no_spades_needs_a_trick;
    int last_call_pass;         /* the auction's last call was a pass (FC-3: a second one ends it) */
    int n_bids, winner, partner;
    int pend_at, n_pend;        /* the handicaps: the next one to resolve, and how many (FC-5) */
    int n_pass, n_chosen;       /* the general pass: seats taking part, and choices made (FC-2) */
    int leader, n_players, trick_len, tricks_done;
    int last_winner;            /* the last trick's winner (-1 before the first), who leads next if they hold cards */
    int tricks_won[FC_SEATS];
    int scores[FC_SEATS];
    int8_t bid_seat[FC_MAX_BIDS], bid_card[FC_MAX_BIDS];  /* every bid in order (FC-3) */
    int8_t pend_seat[FC_MAX_BIDS], pend_card[FC_MAX_BIDS]; /* the team's handicaps in bid order (FC-5) */
    int8_t pass_order[FC_SEATS], pass_choice[FC_SEATS];
    int8_t players[FC_SEATS];                              /* the seats in the trick in progress, in order (FC-7) */
    int8_t trick_seat[FC_SEATS], trick_card[FC_SEATS];
    uint64_t discarded[FC_SEATS];        /* what each seat's own handicaps discarded (hand.py's discards) */
    uint64_t gave[FC_SEATS][FC_SEATS];   /* gave[s][r]: the cards s gave r, Queen and pass (hand.py's passed) */
} free_t;

static void fc_start(free_t *f, const uint64_t auction[FC_SEATS], const uint64_t primary[FC_SEATS], uint64_t chest,
                     int dealer, int no_spades_needs_a_trick) {
    memset(f, 0, sizeof *f);
    for (int s = 0; s < FC_SEATS; s++) {
        f->auction[s] = auction[s];
        f->hands[s] = primary[s];
        if (auction[s] >> FC_TEN_OF_SPADES & 1) f->to_act = s; /* FC-3: the holder of 10S opens */
    }
    f->chest = chest;
    f->dealer = dealer;
    f->no_spades_needs_a_trick = no_spades_needs_a_trick;
    f->stage = FC_AUCTION;
    f->winner = f->partner = f->leader = f->last_winner = -1;
}

/* The legal actions of the seat to act as a mask of action numbers (0 once the hand is over). */
static inline uint64_t fc_legal(const free_t *f) {
    int seat = f->to_act;
    switch (f->stage) {
    case FC_AUCTION: {
        uint64_t held = f->auction[seat];
        if (f->n_bids == 0) return held & 1ull << FC_TEN_OF_SPADES; /* FC-3: 10S opens, no pass before it */
        int last = f->bid_card[f->n_bids - 1];
        int value = fc_bid_value(last), tier = fc_bid_tier(last);
        uint64_t legal = 1ull << FC_PASS, rest = held;
        while (rest) { /* FC-3: higher in the order, at most one level above the most recent bid */
            int idx = __builtin_ctzll(rest);
            rest &= rest - 1;
            if (fc_bid_value(idx) > value && fc_bid_tier(idx) <= tier + 1) legal |= 1ull << idx;
        }
        return legal;
    }
    case FC_HANDICAP: /* FC-5: a Ten discards a primary card of its suit, the player's choice */
        return f->hands[seat] & FC_PRIMARY(f->pend_card[f->pend_at] / 13);
    case FC_PASSING: /* FC-2: any card held */
        return f->hands[seat];
    case FC_PLAY:
        if (f->trick_len) { /* follow the suit led if possible */
            uint64_t follow = f->hands[seat] & FC_PRIMARY(f->trick_card[0] / 13);
            if (follow) return follow;
        }
        return f->hands[seat];
    default:
        return 0;
    }
}

/* FC-7: the hand ends after ten tricks, or once at least two players are out of cards. */
static inline int fc_hand_done(const free_t *f) {
    int empty = (f->hands[0] == 0) + (f->hands[1] == 0) + (f->hands[2] == 0);
    return f->tricks_done >= FC_MAX_TRICKS || empty >= 2;
}

/* FC-6: `seat` if it holds cards, else the next seat clockwise that does. */
static inline int fc_next_with_cards(const free_t *f, int seat) {
    for (int k = 0; k < FC_SEATS; k++) {
        int s = (seat + k) % FC_SEATS;
        if (f->hands[s]) return s;
    }
    return seat;
}

static inline void fc_begin_trick(free_t *f, int leader) {
    f->leader = f->to_act = leader;
    f->n_players = 0;
    for (int k = 0; k < FC_SEATS; k++) { /* FC-7: only the seats holding cards play to it */
        int s = (leader + k) % FC_SEATS;
        if (f->hands[s]) f->players[f->n_players++] = (int8_t)s;
    }
    f->trick_len = 0;
}

/* FC-4 and FC-8: each seat's points for the hand. */
static void fc_score(free_t *f) {
    int penalty[FC_SEATS] = {0, 0, 0};
    if (f->partner >= 0) { /* FC-4: a Joker team must take all ten tricks together, else -50 each */
        if (f->tricks_won[f->winner] + f->tricks_won[f->partner] < FC_TEAM_CONTRACT) {
            penalty[f->winner] = penalty[f->partner] = -50;
        }
    } else if (f->winner >= 0 && f->tricks_won[f->winner] < FC_SOLO_CONTRACT) {
        penalty[f->winner] = -50; /* FC-4: the lone winner's seven tricks */
    }
    int diamonds[FC_SEATS], most = 0, leaders = 0;
    for (int s = 0; s < FC_SEATS; s++) {
        f->scores[s] = 10 * f->tricks_won[s] + penalty[s];
        diamonds[s] = __builtin_popcountll(f->taken[s] & FC_PRIMARY(FC_DIAMONDS));
        if (diamonds[s] > most) most = diamonds[s];
    }
    for (int s = 0; s < FC_SEATS; s++) leaders += most > 0 && diamonds[s] == most;
    for (int s = 0; s < FC_SEATS; s++) {
        if (most > 0 && diamonds[s] == most) f->scores[s] += leaders == 1 ? 20 : 10; /* FC-8: none if nobody took one */
        if (f->taken[s] >> FC_ACE_OF_HEARTS & 1) f->scores[s] += 10;
        if (!(f->taken[s] & FC_PRIMARY(FC_SPADES)) && (f->tricks_won[s] > 0 || !f->no_spades_needs_a_trick)) {
            f->scores[s] += 5; /* FC-8, option no_spades_needs_a_trick */
        }
    }
}

static int fc_finish(free_t *f) {
    fc_score(f);
    f->stage = FC_OVER;
    f->to_act = -1;
    f->trick_len = 0;
    return FC_EV_SCORED;
}

/* FC-1, FC-6: the player after the auction winner leads (with a Joker, the one player outside the team), or the
 * next with cards; a hand in which two seats already hold nothing is scored at once (FC-7). */
static int fc_start_play(free_t *f) {
    f->stage = FC_PLAY;
    int first = f->partner >= 0 ? 3 - f->winner - f->partner : (f->winner + 1) % FC_SEATS;
    if (fc_hand_done(f)) return fc_finish(f);
    fc_begin_trick(f, fc_next_with_cards(f, first));
    return FC_EV_PLAY_STARTED;
}

/* FC-2: the general pass, starting at the auction winner's left; a seat holding nothing has nothing to pass. */
static int fc_start_pass(free_t *f) {
    int w = f->winner;
    f->n_pass = f->n_chosen = 0;
    for (int k = 1; k <= FC_SEATS; k++) {
        int s = (w + k) % FC_SEATS;
        if (f->hands[s]) f->pass_order[f->n_pass++] = (int8_t)s;
    }
    if (f->n_pass == 0) return fc_start_play(f);
    f->stage = FC_PASSING;
    f->to_act = f->pass_order[0];
    return FC_EV_NONE;
}

/* FC-5: resolve the handicaps in bid order until a Ten with cards of its suit asks for a choice, or none is left.
 * A Jack discards the highest card of its suit, a Queen passes it to the left neighbour (FC-2), a King discards
 * the three highest; a suit with too few gives what there is, a Ten on an empty suit does nothing. */
static int fc_run_handicaps(free_t *f) {
    while (f->pend_at < f->n_pend) {
        int seat = f->pend_seat[f->pend_at], bid = f->pend_card[f->pend_at];
        int suit = bid / 13, tier = fc_bid_tier(bid);
        if (tier == 0) {
            if (f->hands[seat] & FC_PRIMARY(suit)) {
                f->stage = FC_HANDICAP;
                f->to_act = seat;
                return FC_EV_NONE;
            }
            f->pend_at++;
            continue;
        }
        f->pend_at++;
        uint64_t removed = fc_top_cards(f->hands[seat], suit, tier == 3 ? 3 : 1);
        f->hands[seat] &= ~removed;
        if (tier == 2) {
            f->hands[(seat + 1) % FC_SEATS] |= removed; /* counts for later handicaps (FC-5) */
            f->gave[seat][(seat + 1) % FC_SEATS] |= removed;
        } else {
            f->discarded[seat] |= removed;
        }
    }
    return fc_start_pass(f);
}

/* FC-3, FC-4: the last bidder wins and takes the chest; a Joker's bidder partners the most recent bidder before
 * it; every unbid auction card leaves play; then the team's handicaps, Jokers aside, in bid order (FC-5). */
static int fc_end_auction(free_t *f) {
    int last = f->n_bids - 1;
    f->winner = f->bid_seat[last];
    if (f->bid_card[last] >= FC_JOKER) f->partner = f->bid_seat[last - 1];
    for (int s = 0; s < FC_SEATS; s++) f->auction[s] = 0;
    f->hands[f->winner] |= f->chest;
    f->n_pend = f->pend_at = 0;
    for (int i = 0; i < f->n_bids; i++) {
        int seat = f->bid_seat[i];
        if ((seat == f->winner || seat == f->partner) && f->bid_card[i] < FC_JOKER) {
            f->pend_seat[f->n_pend] = (int8_t)seat;
            f->pend_card[f->n_pend++] = f->bid_card[i];
        }
    }
    return fc_run_handicaps(f);
}

/* A bid or the pass (FC-3): two passes in a row end the auction, a Joker ends it at once (FC-4). */
static int fc_auction(free_t *f, int action) {
    int seat = f->to_act;
    if (action == FC_PASS) {
        if (f->last_call_pass) return fc_end_auction(f);
        f->last_call_pass = 1;
        f->to_act = (seat + 1) % FC_SEATS;
        return FC_EV_NONE;
    }
    f->last_call_pass = 0;
    f->bid_seat[f->n_bids] = (int8_t)seat;
    f->bid_card[f->n_bids++] = (int8_t)action;
    f->auction[seat] &= ~(1ull << action);
    if (action >= FC_JOKER) return fc_end_auction(f);
    f->to_act = (seat + 1) % FC_SEATS;
    return FC_EV_NONE;
}

/* FC-2: every choice made first, then the cards move all at once, each to the giver's right. */
static int fc_choose_pass(free_t *f, int idx) {
    f->pass_choice[f->n_chosen++] = (int8_t)idx;
    if (f->n_chosen < f->n_pass) {
        f->to_act = f->pass_order[f->n_chosen];
        return FC_EV_NONE;
    }
    for (int k = 0; k < f->n_pass; k++) f->hands[f->pass_order[k]] &= ~(1ull << f->pass_choice[k]);
    for (int k = 0; k < f->n_pass; k++) {
        f->hands[(f->pass_order[k] + 2) % FC_SEATS] |= 1ull << f->pass_choice[k];
        f->gave[f->pass_order[k]][(f->pass_order[k] + 2) % FC_SEATS] |= 1ull << f->pass_choice[k];
    }
    return fc_start_play(f);
}

/* FC-1, as hand.py's trick_winner(): the highest club wins the trick, else the highest card of the suit led (the ace
 * low). */
static inline int fc_trick_winner(const free_t *f) {
    int best = 0;
    int best_club = f->trick_card[0] / 13 == FC_CLUBS;
    for (int k = 1; k < f->trick_len; k++) {
        int c = f->trick_card[k], club = c / 13 == FC_CLUBS;
        if (club > best_club) {
            best = k;
            best_club = 1;
        } else if (club == best_club && c / 13 == f->trick_card[best] / 13 &&
                   fc_strength(c) > fc_strength(f->trick_card[best])) {
            best = k;
        }
    }
    return f->trick_seat[best];
}

/* A card of the seat to act (FC-1): the trick's winner leads the next, or the next seat with cards (FC-6); the
 * hand ends by FC-7. */
static int fc_play(free_t *f, int idx) {
    int seat = f->to_act;
    f->hands[seat] &= ~(1ull << idx);
    f->trick_seat[f->trick_len] = (int8_t)seat;
    f->trick_card[f->trick_len++] = (int8_t)idx;
    if (f->trick_len < f->n_players) {
        f->to_act = f->players[f->trick_len];
        return FC_EV_NONE;
    }
    int winner = fc_trick_winner(f);
    f->tricks_won[winner]++;
    f->tricks_done++;
    f->last_winner = winner;
    for (int k = 0; k < f->trick_len; k++) f->taken[winner] |= 1ull << f->trick_card[k];
    if (fc_hand_done(f)) return fc_finish(f);
    fc_begin_trick(f, fc_next_with_cards(f, winner));
    return FC_EV_TRICK;
}

/* A legal action of the seat to act (the caller checked it against fc_legal): returns the event code. */
static int fc_step(free_t *f, int action) {
    switch (f->stage) {
    case FC_AUCTION:
        return fc_auction(f, action);
    case FC_HANDICAP: /* FC-5: the Ten's discard, then the handicaps after it */
        f->pend_at++;
        f->hands[f->to_act] &= ~(1ull << action);
        f->discarded[f->to_act] |= 1ull << action;
        return fc_run_handicaps(f);
    case FC_PASSING:
        return fc_choose_pass(f, action);
    default:
        return fc_play(f, action);
    }
}

/* The auction cards in card-index order (each suit's 10 J Q K, then the jokers) and the primary cards (each suit's
 * 2..9 then A), as deal.py lists them before shuffling. */
static const int8_t FC_AUCTION_LIST[18] = {8, 9, 10, 11, 21, 22, 23, 24, 34, 35, 36, 37, 47, 48, 49, 50, 52, 53};
static const int8_t FC_PRIMARY_LIST[36] = {0,  1,  2,  3,  4,  5,  6,  7,  12, 13, 14, 15, 16, 17, 18, 19, 20, 25,
                                           26, 27, 28, 29, 30, 31, 32, 33, 38, 39, 40, 41, 42, 43, 44, 45, 46, 51};

/* The deal clubsuite.games.free.deal.FreeDeal.random draws: the auction cards shuffled (Fisher-Yates on random())
 * and dealt one at a time from the dealer's left, then with the same generator the primary cards likewise, the last
 * six of them the chest. */
static void fc_deal(mt_t *rng, int dealer, uint64_t auction[FC_SEATS], uint64_t primary[FC_SEATS], uint64_t *chest) {
    int order[36];
    for (int s = 0; s < FC_SEATS; s++) auction[s] = primary[s] = 0;
    *chest = 0;
    shuffled(rng, 18, order);
    for (int k = 0; k < 18; k++) auction[(dealer + 1 + k) % FC_SEATS] |= 1ull << FC_AUCTION_LIST[order[k]];
    shuffled(rng, 36, order);
    for (int k = 0; k < 36; k++) {
        uint64_t bit = 1ull << FC_PRIMARY_LIST[order[k]];
        if (k < 30) {
            primary[(dealer + 1 + k) % FC_SEATS] |= bit;
        } else {
            *chest |= bit;
        }
    }
}

/* One hand played to its end by random bots drawing from `bots` as clubsuite.bots.RandomBot does: the k-th legal
 * action with k = floor(random() * number of legal actions), one draw per decision, a single choice included. */
static int fc_play_random_hand(free_t *f, mt_t *bots) {
    int decisions = 0;
    while (f->stage != FC_OVER) {
        uint64_t legal = fc_legal(f);
        fc_step(f, kth_bit(legal, mt_below(bots, __builtin_popcountll(legal))));
        decisions++;
    }
    return decisions;
}

typedef struct {
    int hands;              /* hands played */
    int totals[FC_SEATS];   /* each seat's total score */
    int winners;            /* bit s set: seat s won (always one seat, FC-9) */
    int draw;               /* always 0: Free Clubs has no draw (FC-9) */
    long long decisions;    /* the decisions the bots made (the benchmarks' count of actions) */
} free_outcome_t;

/* The hand `f` just played added to the match; whether FC-9 ends the match: a total at the target or more that one
 * seat alone has as the highest (a tie at the top plays another hand). */
static int fc_match_scored(free_outcome_t *out, const free_t *f, int target) {
    out->hands++;
    for (int s = 0; s < FC_SEATS; s++) out->totals[s] += f->scores[s];
    int top = out->totals[0];
    for (int s = 1; s < FC_SEATS; s++) {
        if (out->totals[s] > top) top = out->totals[s];
    }
    if (top < target) return 0;
    int leaders = 0;
    for (int s = 0; s < FC_SEATS; s++) {
        if (out->totals[s] == top) leaders |= 1 << s;
    }
    if (__builtin_popcount((unsigned)leaders) != 1) return 0;
    out->winners = leaders;
    return 1;
}

/* A match as clubsuite.runner.play_match plays it with random bots in every seat: hand i dealt by dealer i % 3
 * from derive_seed(match_seed, i), the bots drawing from one generator seeded derive_seed(match_seed, 0x5EED).
 * FC-9 ends it after the first hand at which a total is at the target or more and one seat alone has the highest;
 * a tie at the top plays another hand. */
static void fc_random_match(uint64_t match_seed, int target, int no_spades_needs_a_trick, mt_t *deals, mt_t *bots,
                            free_outcome_t *out) {
    memset(out, 0, sizeof *out);
    mt_seed(bots, derive_seed1(match_seed, 0x5EED));
    for (;;) {
        int dealer = out->hands % FC_SEATS;
        uint64_t auction[FC_SEATS], primary[FC_SEATS], chest;
        mt_seed(deals, derive_seed1(match_seed, (uint64_t)out->hands));
        fc_deal(deals, dealer, auction, primary, &chest);
        free_t f;
        fc_start(&f, auction, primary, chest, dealer, no_spades_needs_a_trick);
        out->decisions += fc_play_random_hand(&f, bots);
        if (fc_match_scored(out, &f, target)) return;
    }
}

#endif
