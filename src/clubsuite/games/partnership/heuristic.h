/* The heuristic bot of Clubs (partnership) in C, for the play-outs of the search bots: bot.py's pass and card play
 * restated with the same double operations in the same order, so it picks what the Python bot picks;
 * tests/partnership/test_native_partnership.py compares them at every decision of many hands.
 *
 * What a seat knows is what its PartnershipView shows: its own cards, the cards played, the hand sizes, the suits
 * each seat has shown it lacks (CP-1), and the three cards it passed, with the receiver until played (CP-2).
 */
#ifndef CLUBS_PARTNERSHIP_HEURISTIC_H
#define CLUBS_PARTNERSHIP_HEURISTIC_H

#include <math.h>

#include "core.h"

/* bot.py's tuning constants (see their docstrings there). */
#define PH_TRICK_WORTH 2.4
#define PH_PLAIN_TOP 0.8
#define PH_PLAIN_DECAY 0.45
#define PH_CLUB_TOP 0.95
#define PH_CLUB_SLOPE 0.07
#define PH_CLUB_FLOOR 0.35
#define PH_RUBY_KEEP 1.5
#define PH_KEEP_WEIGHT 0.9
#define PH_VOID_BONUS 0.9
#define PH_PARTNER_CHANCE 0.7
#define PH_TIE 1e-3
#define PH_FULL ((1ull << 52) - 1)

/* A hand with what the table has shown so far. */
typedef struct {
    partnership_t p;
    uint64_t played;         /* every card played this hand */
    int voids[P_SEATS];      /* the suits (bits) each seat has shown it lacks */
    int passed;              /* whether the passed cards have moved (then p.chosen holds each seat's pass) */
} ph_table_t;

static inline uint64_t ph_above(int index) { return (P_SUIT << (13 * (index / 13))) & ~((2ull << index) - 1); }
static inline int ph_points(int index) { return index < 13 ? 1 : (index == P_RUBY_DAME ? 5 : 0); }

static void ph_start(ph_table_t *tb, const uint64_t hands[P_SEATS], int dealer, int direction) {
    memset(tb, 0, sizeof *tb);
    partnership_start(&tb->p, hands, dealer, direction);
}

static int ph_pass(ph_table_t *tb, uint64_t cards) {
    int ev = partnership_pass(&tb->p, cards);
    if (ev == P_EV_PLAY_STARTED) tb->passed = 1;
    return ev;
}

static int ph_play(ph_table_t *tb, int idx) {
    partnership_t *p = &tb->p;
    if (p->trick_len > 0 && idx / 13 != p->led) tb->voids[p->to_act] |= 1 << p->led; /* did not follow suit */
    tb->played |= 1ull << idx;
    return partnership_play(p, idx);
}

/* bot.Knowledge for one seat. */
typedef struct {
    int me;
    uint64_t hand, out, unseen;
    uint64_t sure[P_SEATS], voids[P_SEATS];
    int slots[P_SEATS], room[4];
} ph_knowledge_t;

static void ph_knowledge(const ph_table_t *tb, int me, ph_knowledge_t *k) {
    const partnership_t *p = &tb->p;
    k->me = me;
    k->hand = p->hands[me];
    k->out = PH_FULL & ~k->hand & ~tb->played;
    uint64_t known = 0;
    for (int s = 0; s < P_SEATS; s++) k->sure[s] = 0;
    if (tb->passed && p->direction != P_NONE) {
        uint64_t left = p->chosen[me] & ~tb->played;
        if (left) k->sure[p_receiver(me, p->direction)] = left;
        known = left;
    }
    k->unseen = k->out & ~known;
    for (int s = 0; s < P_SEATS; s++) {
        k->voids[s] = 0;
        for (int suit = 0; suit < 4; suit++) {
            if (tb->voids[s] >> suit & 1) k->voids[s] |= P_SUIT << (13 * suit);
        }
        k->slots[s] = s == me ? 0 : __builtin_popcountll(p->hands[s]) - __builtin_popcountll(k->sure[s]);
    }
    for (int suit = 0; suit < 4; suit++) {
        int room = 0;
        for (int s = 0; s < P_SEATS; s++) {
            if (s != me && !(k->voids[s] & (P_SUIT << (13 * suit)))) room += k->slots[s];
        }
        k->room[suit] = room;
    }
}

static double ph_holds_any(const ph_knowledge_t *k, int seat, uint64_t mask) {
    if (seat == k->me) return (k->hand & mask) ? 1.0 : 0.0;
    if (k->sure[seat] & mask) return 1.0;
    double none = 1.0;
    for (int suit = 0; suit < 4; suit++) {
        int n = __builtin_popcountll(mask & k->unseen & (P_SUIT << (13 * suit)) & ~k->voids[seat]);
        if (!n) continue;
        int room = k->room[suit];
        if (room <= 0) continue;
        none *= pow(1.0 - (double)k->slots[seat] / (double)room, (double)n);
    }
    return 1.0 - none;
}

static inline double ph_void(const ph_knowledge_t *k, int seat, int suit) {
    return 1.0 - ph_holds_any(k, seat, P_SUIT << (13 * suit));
}

static double ph_beats_p(const ph_knowledge_t *k, int seat, int top, int led) {
    if (top < 13) {
        uint64_t higher = P_SUIT & ph_above(top);
        if (led == 0) return ph_holds_any(k, seat, higher);
        return ph_void(k, seat, led) * ph_holds_any(k, seat, higher);
    }
    double v = ph_void(k, seat, led);
    return (1.0 - v) * ph_holds_any(k, seat, ph_above(top)) + v * ph_holds_any(k, seat, P_SUIT);
}

static double ph_potential(const ph_knowledge_t *k, int index) {
    int higher = __builtin_popcountll(k->out & ph_above(index));
    if (index < 13) {
        double v = PH_CLUB_TOP - PH_CLUB_SLOPE * higher;
        return v > PH_CLUB_FLOOR ? v : PH_CLUB_FLOOR;
    }
    return PH_PLAIN_TOP * pow(PH_PLAIN_DECAY, (double)higher);
}

static double ph_keep_value(const ph_knowledge_t *k, int index) {
    double value = ph_potential(k, index) * PH_TRICK_WORTH;
    if (index == P_RUBY_DAME) value += PH_RUBY_KEEP;
    return value;
}

static int ph_beats(int card, int top, int led) {
    if (card < 13) return top >= 13 || card > top;
    return card / 13 == led && top / 13 == led && card > top;
}

/* The chance that no opponent among `after` (n seats) takes the trick over `top`. */
static double ph_holds(const ph_knowledge_t *k, int top, int led, const int *after, int n, int partner) {
    double p = 1.0;
    for (int i = 0; i < n; i++) {
        if (after[i] != partner) p *= 1.0 - ph_beats_p(k, after[i], top, led);
    }
    return p;
}

static double ph_follow_score(const ph_table_t *tb, const ph_knowledge_t *k, int card) {
    const partnership_t *p = &tb->p;
    int me = k->me, led = p->led, winner = p->winning, top = p->top;
    int after[P_SEATS], n_after = 0;
    for (int j = 1; j < P_SEATS - p->trick_len; j++) after[n_after++] = (me + j) % P_SEATS;
    int partner = (me + 2) % P_SEATS;
    int points = 1;
    for (uint64_t m = p->trick_mask; m; m &= m - 1) points += ph_points(__builtin_ctzll(m));
    points += ph_points(card);
    double p_team;
    if (ph_beats(card, top, led)) {
        p_team = ph_holds(k, card, led, after, n_after, partner);
    } else if (winner == partner) {
        p_team = ph_holds(k, top, led, after, n_after, partner);
    } else {
        int partner_after = 0, rest[P_SEATS], n_rest = 0;
        for (int i = 0; i < n_after; i++) {
            if (after[i] == partner) {
                partner_after = 1;
            } else {
                rest[n_rest++] = after[i];
            }
        }
        p_team = partner_after
                     ? PH_PARTNER_CHANCE * ph_beats_p(k, partner, top, led) * ph_holds(k, top, led, rest, n_rest, partner)
                     : 0.0;
    }
    return (2 * p_team - 1) * points - PH_KEEP_WEIGHT * ph_keep_value(k, card) - PH_TIE * card;
}

static double ph_lead_score(const ph_knowledge_t *k, int card) {
    int me = k->me, led = card / 13;
    int lho = (me + 1) % P_SEATS, partner = (me + 2) % P_SEATS, rho = (me + 3) % P_SEATS;
    double p_me = (1.0 - ph_beats_p(k, lho, card, led)) * (1.0 - ph_beats_p(k, rho, card, led));
    double partner_void = ph_void(k, partner, led);
    double follow = (1.0 - partner_void) * ph_holds_any(k, partner, ph_above(card)) * (1.0 - ph_beats_p(k, rho, card, led));
    double ruff = 0.0;
    if (led) {
        double overruff = ph_void(k, rho, led) * ph_holds_any(k, rho, P_SUIT) * 0.5;
        ruff = partner_void * ph_holds_any(k, partner, P_SUIT) * (1.0 - overruff);
    }
    double x = PH_PARTNER_CHANCE * follow + ruff;
    double p_team = p_me + (1.0 - p_me) * (x < 1.0 ? x : 1.0);
    double points = 1.0 + ph_points(card);
    int seats[3] = {lho, partner, rho};
    for (int i = 0; i < 3; i++) {
        if (led == 0) {
            points += ph_holds_any(k, seats[i], P_SUIT);
        } else {
            points += ph_void(k, seats[i], led) * ph_holds_any(k, seats[i], P_SUIT);
        }
    }
    return (2 * p_team - 1) * points - PH_KEEP_WEIGHT * ph_keep_value(k, card) - PH_TIE * card;
}

/* The card the heuristic bot plays for the seat to act (play phase). */
static int ph_card_choice(const ph_table_t *tb) {
    uint64_t legal = partnership_legal(&tb->p);
    if (!legal) return -1;
    if (__builtin_popcountll(legal) == 1) return __builtin_ctzll(legal);
    ph_knowledge_t k;
    ph_knowledge(tb, tb->p.to_act, &k);
    int best = -1;
    double best_score = 0.0;
    for (uint64_t m = legal; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        double score = tb->p.trick_len ? ph_follow_score(tb, &k, c) : ph_lead_score(&k, c);
        if (best < 0 || score > best_score) {
            best = c;
            best_score = score;
        }
    }
    return best;
}

/* The three cards the heuristic bot passes for the seat to act (pass phase, CP-2): the first best of the choices in
 * the engine's order. */
static uint64_t ph_pass_choice(const ph_table_t *tb) {
    ph_knowledge_t k;
    ph_knowledge(tb, tb->p.to_act, &k);
    uint64_t hand = k.hand;
    double value[52];
    int cards[13], n = 0;
    for (uint64_t m = hand; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        value[c] = ph_keep_value(&k, c);
        cards[n++] = c;
    }
    int clubs = __builtin_popcountll(hand & P_SUIT);
    double ruff = PH_VOID_BONUS * (clubs < 3 ? clubs : 3);
    uint64_t best = 0;
    double best_score = 0.0;
    for (int a = 0; a < n; a++) {
        for (int b = a + 1; b < n; b++) {
            for (int c = b + 1; c < n; c++) {
                uint64_t given = 1ull << cards[a] | 1ull << cards[b] | 1ull << cards[c];
                uint64_t left = hand & ~given;
                int emptied = 0;
                for (int s = 1; s < 4; s++) {
                    uint64_t suit = P_SUIT << (13 * s);
                    emptied += (hand & suit) && !(left & suit);
                }
                double lost = value[cards[a]] + value[cards[b]] + value[cards[c]];
                double score = emptied * ruff - 2 * lost - PH_TIE * (cards[a] + cards[b] + cards[c]);
                if (!best || score > best_score) {
                    best = given;
                    best_score = score;
                }
            }
        }
    }
    return best;
}

/* Play the hand to its end with the heuristic bot in every seat: the passes still to choose go to passes_out (as
 * masks, *n_passes of them), the cards to out (as indices). Returns the number of cards. */
static int ph_finish(ph_table_t *tb, uint64_t *passes_out, int *n_passes, int *out) {
    int n = 0;
    *n_passes = 0;
    while (tb->p.phase == P_PASSING) {
        uint64_t given = ph_pass_choice(tb);
        if (!given) break; /* fewer than three cards to pass: an inconsistent table */
        passes_out[(*n_passes)++] = given;
        ph_pass(tb, given);
    }
    while (tb->p.phase == P_PLAY) {
        int card = ph_card_choice(tb);
        if (card < 0) break; /* no legal card: a table built from inconsistent hands; nothing more is played */
        out[n++] = card;
        ph_play(tb, card);
    }
    return n;
}

static inline uint64_t ph_legal(const ph_table_t *tb) { return partnership_legal(&tb->p); }
static inline int ph_phase(const ph_table_t *tb) { return tb->p.phase; }
static inline int ph_to_act(const ph_table_t *tb) { return tb->p.to_act; }
static inline uint64_t ph_hand_of(const ph_table_t *tb, int seat) { return tb->p.hands[seat]; }

/* A match as clubsuite.runner.play_match plays it with bot.py's heuristic bot in the seats of `heuristic` (bits) and
 * the random bot in the others, which draw from one generator seeded derive_seed(match_seed, 0x5EED) as
 * partnership_random_match's do (the heuristic bot draws nothing): the same deals and end (CP-4). */
static void ph_bot_match(uint64_t match_seed, int target, unsigned heuristic, mt_t *deals, mt_t *bots, ph_table_t *tb,
                         partnership_outcome_t *out) {
    memset(out, 0, sizeof *out);
    mt_seed(bots, derive_seed1(match_seed, 0x5EED));
    for (;;) {
        uint64_t hands[P_SEATS];
        p_match_deal(match_seed, out, deals, hands);
        ph_start(tb, hands, out->hands % P_SEATS, out->hands % 3);
        while (tb->p.phase == P_PASSING) {
            int seat = tb->p.to_act;
            uint64_t hand = tb->p.hands[seat];
            ph_pass(tb, heuristic >> seat & 1 ? ph_pass_choice(tb)
                                              : p_pass_at(hand, mt_below(bots, p_comb(__builtin_popcountll(hand), P_PASS))));
        }
        while (tb->p.phase == P_PLAY) {
            int seat = tb->p.to_act;
            uint64_t legal = partnership_legal(&tb->p);
            ph_play(tb, heuristic >> seat & 1 ? ph_card_choice(tb)
                                              : kth_bit(legal, mt_below(bots, __builtin_popcountll(legal))));
        }
        if (p_match_scored(out, &tb->p, target)) return;
    }
}

#endif
