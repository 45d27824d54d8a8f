/* Clubs (partnership) in C: the three-card pass (CP-2), trick play (CP-1), the partnership score (CP-3) and the
 * match's end (CP-4), over the engine's bit masks (card index suit * 13 + rank - 2, clubs in bits 0..12).
 *
 * This restates hand.py, deal.py and match.py beside it for speed; tests/partnership/test_native_partnership.py
 * plays thousands of random matches through both and compares every legal set, event and score.
 */
#ifndef CLUBS_PARTNERSHIP_H
#define CLUBS_PARTNERSHIP_H

#include "kernel.h" /* src/clubsuite/native/kernel.h */

#define P_SEATS 4
#define P_TRICKS 13
#define P_PASS 3
#define P_SUIT 0x1FFFull
#define P_RUBY_DAME (1 * 13 + 12 - 2)

enum { P_PASSING = 0, P_PLAY = 1, P_OVER = 2 };
enum { P_LEFT = 0, P_RIGHT = 1, P_NONE = 2 }; /* the pass directions of hands 0, 1, 2, repeating (CP-2) */
enum { P_EV_NONE = 0, P_EV_PLAY_STARTED = 1, P_EV_TRICK = 2, P_EV_SCORED = 3 };

typedef struct {
    uint64_t hands[P_SEATS];
    uint64_t chosen[P_SEATS]; /* the cards each seat chose to pass (0: not yet) */
    uint64_t taken[P_SEATS];  /* the cards of the tricks each seat won */
    uint64_t trick_mask;      /* the cards of the trick in progress */
    int dealer, direction, to_act, phase, n_chosen;
    int leader, trick_len, led, top, winning;
    int tricks_done;
    int tricks_won[P_SEATS];
    int team_scores[2];
} partnership_t;

static inline int p_receiver(int seat, int direction) {
    if (direction == P_LEFT) return (seat + 1) % P_SEATS;
    if (direction == P_RIGHT) return (seat + P_SEATS - 1) % P_SEATS;
    return seat;
}

static void p_start_play(partnership_t *p) { /* CP-1: the dealer's left leads the first trick */
    p->phase = P_PLAY;
    p->leader = p->to_act = (p->dealer + 1) % P_SEATS;
}

static void partnership_start(partnership_t *p, const uint64_t hands[P_SEATS], int dealer, int direction) {
    memset(p, 0, sizeof *p);
    for (int s = 0; s < P_SEATS; s++) p->hands[s] = hands[s];
    p->dealer = dealer;
    p->direction = direction;
    p->to_act = (dealer + 1) % P_SEATS;
    p->leader = p->led = p->top = p->winning = -1;
    if (direction == P_NONE) {
        p_start_play(p);
    } else {
        p->phase = P_PASSING;
    }
}

/* The legal cards of the seat to act (play phase): any card leads; a follower follows suit if able (CP-1). */
static inline uint64_t partnership_legal(const partnership_t *p) {
    uint64_t hand = p->hands[p->to_act];
    if (p->trick_len == 0) return hand;
    uint64_t follow = hand & (P_SUIT << (13 * p->led));
    return follow ? follow : hand;
}

/* The seat to act chooses three of its cards to pass (CP-2); nothing moves until all four chose. Returns
 * P_EV_PLAY_STARTED once they did, else P_EV_NONE. */
static int partnership_pass(partnership_t *p, uint64_t cards) {
    int seat = p->to_act;
    p->chosen[seat] = cards;
    if (++p->n_chosen < P_SEATS) {
        p->to_act = (seat + 1) % P_SEATS;
        return P_EV_NONE;
    }
    for (int s = 0; s < P_SEATS; s++) p->hands[s] &= ~p->chosen[s];
    for (int s = 0; s < P_SEATS; s++) p->hands[p_receiver(s, p->direction)] |= p->chosen[s];
    p_start_play(p);
    return P_EV_PLAY_STARTED;
}

/* A legal card of the seat to act. Returns P_EV_TRICK when it completed a trick (won by p->leader), P_EV_SCORED
 * when that was the last one (the scores in p->team_scores), else P_EV_NONE. */
static int partnership_play(partnership_t *p, int idx) {
    int seat = p->to_act;
    p->hands[seat] ^= 1ull << idx;
    int suit = idx / 13;
    if (p->trick_len == 0) {
        p->led = suit;
        p->top = idx;
        p->winning = seat;
    } else if ((suit == 0 && (p->top >= 13 || idx > p->top)) ||
               (suit == p->led && p->top / 13 == suit && idx > p->top)) {
        /* CP-1: the highest club wins; with no club, the highest card of the suit led */
        p->top = idx;
        p->winning = seat;
    }
    p->trick_mask = p->trick_len == 0 ? 1ull << idx : p->trick_mask | 1ull << idx;
    if (++p->trick_len < P_SEATS) {
        p->to_act = (seat + 1) % P_SEATS;
        return P_EV_NONE;
    }
    int winner = p->winning;
    p->tricks_won[winner]++;
    p->taken[winner] |= p->trick_mask;
    p->tricks_done++;
    p->trick_len = 0;
    p->leader = p->to_act = winner;
    if (p->tricks_done < P_TRICKS) return P_EV_TRICK;
    for (int team = 0; team < 2; team++) { /* CP-3 */
        int tricks = p->tricks_won[team] + p->tricks_won[team + 2];
        uint64_t cards = p->taken[team] | p->taken[team + 2];
        p->team_scores[team] = tricks + __builtin_popcountll(cards & P_SUIT) + ((cards >> P_RUBY_DAME & 1) ? 5 : 0) +
                               (tricks == P_TRICKS ? 5 : 0);
    }
    p->phase = P_OVER;
    p->to_act = -1;
    return P_EV_SCORED;
}

/* The deal clubsuite.games.partnership.deal.PartnershipDeal.random draws: card k of the shuffled deck to seat
 * (dealer + 1 + k % 4) % 4. */
static void partnership_deal(mt_t *rng, int dealer, uint64_t hands[P_SEATS]) {
    int order[52];
    shuffled(rng, 52, order);
    for (int s = 0; s < P_SEATS; s++) hands[s] = 0;
    for (int k = 0; k < 52; k++) hands[(dealer + 1 + (k & 3)) % P_SEATS] |= 1ull << order[k];
}

/* C(n, k) for the small numbers of a pass. */
static int p_comb(int n, int k) {
    if (k < 0 || k > n) return 0;
    long long r = 1;
    for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return (int)r;
}

/* The index-th set of three cards of hand in the order of itertools.combinations over its cards in index order
 * (hand.PassChoices.__getitem__). */
static uint64_t p_pass_at(uint64_t hand, int index) {
    int cards[52], n = 0;
    for (uint64_t m = hand; m; m &= m - 1) cards[n++] = __builtin_ctzll(m);
    uint64_t mask = 0;
    int start = 0;
    for (int left = P_PASS; left > 0; left--) {
        int pos = start;
        for (;;) {
            int block = p_comb(n - pos - 1, left - 1);
            if (index < block) break;
            index -= block;
            pos++;
        }
        mask |= 1ull << cards[pos];
        start = pos + 1;
    }
    return mask;
}

/* One hand played to its end by random bots drawing from `bots` as clubsuite.bots.RandomBot does. */
static void partnership_play_random_hand(partnership_t *p, mt_t *bots) {
    while (p->phase == P_PASSING) {
        uint64_t hand = p->hands[p->to_act];
        partnership_pass(p, p_pass_at(hand, mt_below(bots, p_comb(__builtin_popcountll(hand), P_PASS))));
    }
    while (p->phase == P_PLAY) {
        uint64_t legal = partnership_legal(p);
        partnership_play(p, kth_bit(legal, mt_below(bots, __builtin_popcountll(legal))));
    }
}

typedef struct {
    int hands;
    int totals[2]; /* each partnership's total */
    int winner;    /* the partnership that won */
} partnership_outcome_t;

/* The deal of the match's next hand (hand i from derive_seed(match_seed, i), dealt by dealer i % 4). */
static void p_match_deal(uint64_t match_seed, const partnership_outcome_t *out, mt_t *deals, uint64_t hands[P_SEATS]) {
    mt_seed(deals, derive_seed1(match_seed, (uint64_t)out->hands));
    partnership_deal(deals, out->hands % P_SEATS, hands);
}

/* The hand `p` just played added to the match; whether CP-4 ends the match (an exact tie at the target plays on). */
static int p_match_scored(partnership_outcome_t *out, const partnership_t *p, int target) {
    out->hands++;
    out->totals[0] += p->team_scores[0];
    out->totals[1] += p->team_scores[1];
    int high = out->totals[0] > out->totals[1] ? out->totals[0] : out->totals[1];
    if (high >= target && out->totals[0] != out->totals[1]) {
        out->winner = out->totals[0] > out->totals[1] ? 0 : 1;
        return 1;
    }
    return 0;
}

/* A match as clubsuite.runner.play_match plays it with random bots in every seat: hand i dealt by dealer i % 4
 * with pass direction i % 3 from derive_seed(match_seed, i), the bots drawing from one generator seeded
 * derive_seed(match_seed, 0x5EED); CP-4 ends it (an exact tie at the target plays on). */
static void partnership_random_match(uint64_t match_seed, int target, mt_t *deals, mt_t *bots,
                                     partnership_outcome_t *out) {
    memset(out, 0, sizeof *out);
    mt_seed(bots, derive_seed1(match_seed, 0x5EED));
    for (;;) {
        int dealer = out->hands % P_SEATS;
        uint64_t hands[P_SEATS];
        p_match_deal(match_seed, out, deals, hands);
        partnership_t p;
        partnership_start(&p, hands, dealer, out->hands % 3);
        partnership_play_random_hand(&p, bots);
        if (p_match_scored(out, &p, target)) return;
    }
}

#endif
