/* Clubs (whist group) in C: the exchange round (CW-4), trick play (CW-1, CW-2), the hand's score and the match's end
 * (CW-5), over the engine's bit masks (card index suit * 13 + rank - 2, clubs in bits 0..12).
 *
 * This restates rules.py, hand.py and match.py beside it for speed; tests/whist/test_native_whist.py plays
 * thousands of random hands and matches through both and compares every legal set, event and score.
 */
#ifndef CLUBS_WHIST_H
#define CLUBS_WHIST_H

#include "kernel.h" /* src/clubsuite/native/kernel.h */

#define W_SEATS 3
#define W_TRICKS 13
#define W_CLUBS 0x1FFFull
#define W_FULL ((1ull << 52) - 1)

enum { W_EXCHANGE = 0, W_PLAY = 1, W_OVER = 2 };
enum { W_LEAD_LAST_EXCHANGER = 0, W_LEAD_LEFT_OF_LAST_EXCHANGER = 1 };
enum { W_KEEP = 64, W_TAKE = 65 }; /* the exchange decisions as actions; cards are their indices 0..51 */

/* What an action did, beyond the action itself. */
enum { W_EV_NONE = 0, W_EV_PLAY_STARTED = 1, W_EV_TRICK = 2, W_EV_SCORED = 3 };

/* The trick in progress as the rules read it: the suit led, the highest card of that suit and the highest club
 * (-1: none), the seat winning it so far, and whether clubs are broken. */
typedef struct {
    int led, top_led, top_club, winning, broken;
} whist_trick_t;

/* Card idx from seat onto a trick that already holds `before` cards: who is winning it, and clubs broken (CW-2). */
static inline void whist_trick_add(whist_trick_t *t, int before, int seat, int idx) {
    int suit = idx / 13;
    if (before == 0) {
        t->led = suit;
        t->winning = seat;
        if (suit == 0) {
            t->top_club = idx;
            t->top_led = -1;
            t->broken = 1; /* CW-2: a club led */
        } else {
            t->top_club = -1;
            t->top_led = idx;
        }
    } else if (suit == 0) {
        if (t->led) t->broken = 1; /* CW-2: a club on a plain-suit trick */
        if (idx > t->top_club) {
            t->top_club = idx;
            t->winning = seat;
        }
    } else if (suit == t->led && t->top_club < 0 && idx > t->top_led) {
        t->top_led = idx;
        t->winning = seat;
    }
}

typedef struct {
    uint64_t hands[W_SEATS];
    uint64_t bid;
    int dealer, to_act, phase, lead_rule;
    int last_exchanger; /* -1: nobody exchanged */
    int leader;
    whist_trick_t t; /* the trick in progress, and clubs broken */
    int trick_len;
    int trick[W_SEATS];
    int tricks_done;
    int tricks_won[W_SEATS];
} whist_t;

static void whist_start(whist_t *w, const uint64_t hands[W_SEATS], uint64_t bid, int dealer, int lead_rule) {
    memset(w, 0, sizeof *w);
    for (int s = 0; s < W_SEATS; s++) w->hands[s] = hands[s];
    w->bid = bid;
    w->dealer = dealer;
    w->lead_rule = lead_rule;
    w->phase = W_EXCHANGE;
    w->to_act = (dealer + 1) % W_SEATS;
    w->last_exchanger = -1;
    w->leader = -1;
    w->t.led = w->t.top_led = w->t.top_club = w->t.winning = -1;
}

/* The legal cards of `hand` with `trick_len` cards of trick `t` down: CW-2 for a lead, CW-1's tiers for a follow. */
static inline uint64_t whist_legal_for(uint64_t hand, int trick_len, const whist_trick_t *t) {
    if (trick_len == 0) {
        if (t->broken) return hand;
        uint64_t plain = hand & ~W_CLUBS;
        return plain ? plain : hand;
    }
    uint64_t clubs = hand & W_CLUBS;
    if (t->led == 0) { /* a club lead: beat the highest club, else any club, else anything */
        uint64_t higher = clubs & ~((2ull << t->top_club) - 1);
        if (higher) return higher;
        return clubs ? clubs : hand;
    }
    uint64_t follow = hand & (W_CLUBS << (13 * t->led));
    if (t->top_club < 0) {
        if (follow) {
            uint64_t higher = follow & ~((2ull << t->top_led) - 1);
            return higher ? higher : follow;
        }
        return clubs ? clubs : hand;
    }
    if (follow) return follow;
    uint64_t over = clubs & ~((2ull << t->top_club) - 1);
    return over ? over : hand;
}

/* The seat to act's legal cards (play phase). */
static inline uint64_t whist_legal(const whist_t *w) { return whist_legal_for(w->hands[w->to_act], w->trick_len, &w->t); }

/* An exchange decision of the seat to act (exchange phase only). Returns W_EV_PLAY_STARTED when the dealer's
 * decision ends the round (the leader is then w->leader), else W_EV_NONE. */
static int whist_decide(whist_t *w, int take) {
    int seat = w->to_act;
    if (take) { /* CW-4: the exchanger takes the bid hand and leaves their own as the new bid hand */
        uint64_t mine = w->hands[seat];
        w->hands[seat] = w->bid;
        w->bid = mine;
        w->last_exchanger = seat;
    }
    if (seat != w->dealer) {
        w->to_act = (seat + 1) % W_SEATS;
        return W_EV_NONE;
    }
    w->phase = W_PLAY;
    int leader;
    if (w->last_exchanger < 0) {
        leader = (w->dealer + 1) % W_SEATS;
    } else if (w->lead_rule == W_LEAD_LAST_EXCHANGER) { /* CW-3 */
        leader = w->last_exchanger;
    } else {
        leader = (w->last_exchanger + 1) % W_SEATS;
    }
    w->leader = w->to_act = leader;
    return W_EV_PLAY_STARTED;
}

/* A legal card of the seat to act (play phase only; the caller checked legality). Returns W_EV_TRICK when it
 * completed a trick (won by w->leader), W_EV_SCORED when that was the last trick, else W_EV_NONE. */
static int whist_play(whist_t *w, int idx) {
    int seat = w->to_act;
    w->hands[seat] ^= 1ull << idx;
    whist_trick_add(&w->t, w->trick_len, seat, idx);
    w->trick[w->trick_len++] = idx;
    if (w->trick_len < W_SEATS) {
        w->to_act = (seat + 1) % W_SEATS;
        return W_EV_NONE;
    }
    int winner = w->t.winning;
    w->tricks_won[winner]++;
    w->tricks_done++;
    w->trick_len = 0;
    w->leader = w->to_act = winner;
    if (w->tricks_done < W_TRICKS) return W_EV_TRICK;
    w->phase = W_OVER;
    w->to_act = -1;
    return W_EV_SCORED;
}

/* The deal clubsuite.games.whist.deal.WhistDeal.random draws: a Fisher-Yates shuffle on random(), card k of the
 * shuffled deck to pile k % 4; piles 0..2 go to the seats from the dealer's left, pile 3 is the bid hand. */
static void whist_deal(mt_t *rng, int dealer, uint64_t hands[W_SEATS], uint64_t *bid) {
    int order[52];
    shuffled(rng, 52, order);
    uint64_t piles[4] = {0, 0, 0, 0};
    for (int k = 0; k < 52; k++) piles[k & 3] |= 1ull << order[k];
    for (int pos = 0; pos < 3; pos++) hands[(dealer + 1 + pos) % W_SEATS] = piles[pos];
    *bid = piles[3];
}

/* One hand played to its end by random bots drawing from `bots` as clubsuite.bots.RandomBot does: the k-th legal
 * action with k = floor(random() * number of legal actions), the decisions ordered keep, exchange. */
static void whist_play_random_hand(whist_t *w, mt_t *bots) {
    while (w->phase == W_EXCHANGE) whist_decide(w, mt_below(bots, 2));
    while (w->phase == W_PLAY) {
        uint64_t legal = whist_legal(w);
        whist_play(w, kth_bit(legal, mt_below(bots, __builtin_popcountll(legal))));
    }
}

typedef struct {
    int hands;              /* hands played */
    int totals[W_SEATS];    /* each seat's total score */
    int winners;            /* bit s set: seat s won */
    int draw;               /* all three reached a target at once */
} whist_outcome_t;

/* A match as clubsuite.runner.play_match plays it with random bots in every seat: hand i dealt by dealer i % 3
 * from derive_seed(match_seed, i), the bots drawing from one generator seeded derive_seed(match_seed, 0x5EED);
 * CW-5 ends it. */
static void whist_random_match(uint64_t match_seed, int target, int lead_rule, mt_t *deals, mt_t *bots,
                               whist_outcome_t *out) {
    memset(out, 0, sizeof *out);
    mt_seed(bots, derive_seed1(match_seed, 0x5EED));
    for (;;) {
        int dealer = out->hands % W_SEATS;
        uint64_t hands[W_SEATS], bid;
        mt_seed(deals, derive_seed1(match_seed, (uint64_t)out->hands));
        whist_deal(deals, dealer, hands, &bid);
        whist_t w;
        whist_start(&w, hands, bid, dealer, lead_rule);
        whist_play_random_hand(&w, bots);
        out->hands++;
        int hit = 0;
        for (int s = 0; s < W_SEATS; s++) {
            out->totals[s] += w.tricks_won[s] - 4;
            if (out->totals[s] >= target || out->totals[s] <= -target) hit |= 1 << s;
        }
        if (hit) {
            out->draw = hit == 7;
            out->winners = out->draw ? 0 : hit;
            return;
        }
    }
}

#endif
