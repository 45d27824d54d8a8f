/* The heuristic bot of Clubs (whist group) in C, for the play-outs of the search bots: bot.py's card play restated
 * (the exchange decision, which samples bid hands, stays in Python). Every figure is worked out with the same
 * double operations in the same order as bot.py, so the C bot picks the same card as the Python bot;
 * tests/whist/test_native_whist.py compares them at every decision of many hands.
 *
 * What a seat knows is what its WhistView shows: its own cards, the cards played, the hand sizes, the hand it left
 * in the middle if it exchanged (CW-4) and what the public play proves a hand does not hold (sampling.py's
 * absent_cards, from the must-beat rule CW-1 and clubs broken CW-2).
 */
#ifndef CLUBS_WHIST_HEURISTIC_H
#define CLUBS_WHIST_HEURISTIC_H

#include <math.h>

#include "core.h"

#define WH_BID 3

/* bot.py's tuning constants (see their docstrings there). */
#define PLAIN_TOP_HIGH 0.87
#define PLAIN_DECAY_HIGH 0.57
#define PLAIN_TOP_LOW 0.7
#define PLAIN_DECAY_LOW 0.6
#define CLUB_SLOPE_HIGH 0.11
#define CLUB_SLOPE_LOW 0.17
#define CLUB_FLOOR_HIGH 0.55
#define CLUB_FLOOR_LOW 0.35
#define VOID_RUFF_BONUS 0.1
#define KEEP_WEIGHT_HIGH 0.85
#define KEEP_WEIGHT_LOW 0.85
#define GOAL_DECAY 0.75
#define REACHED 0.9
#define BLOCK_NEED 2
#define FEED_SPARE 0
#define TIE 1e-3
#define WH_QUOTA 4
#define EXCHANGE_SAMPLES 24
#define REJECTED_HAND_MARGIN 0.1

/* A hand in play with what the table has shown so far. */
typedef struct {
    whist_t w;
    uint64_t absent[W_SEATS]; /* what the public play proves each seat does not hold */
    uint64_t played;          /* every card played this hand */
    int trick_seats[W_SEATS]; /* the seat of each card of the trick in progress */
    uint64_t given[W_SEATS];  /* the hand each seat left in the middle when it exchanged (0: it kept) */
    int known_at[W_SEATS];    /* where that hand is now: the next exchanger, WH_BID, or -1 */
    int totals[W_SEATS];      /* the match totals before this hand */
    int target;
} wh_table_t;

static inline uint64_t wh_above(int index) { return (W_CLUBS << (13 * (index / 13))) & ~((2ull << index) - 1); }

/* rules.revealed_absent: the tiers of CW-1 above the one the card came from. */
static uint64_t wh_revealed_absent(int idx, const whist_trick_t *t) {
    uint64_t tiers[4];
    int n;
    uint64_t above_club = t->top_club >= 0 ? ~((2ull << t->top_club) - 1) : ~0ull;
    if (t->led == 0) {
        tiers[0] = W_CLUBS & above_club;
        tiers[1] = W_CLUBS;
        tiers[2] = W_FULL;
        n = 3;
    } else {
        uint64_t suit = W_CLUBS << (13 * t->led);
        if (t->top_club < 0) {
            uint64_t above_led = t->top_led >= 0 ? ~((2ull << t->top_led) - 1) : ~0ull;
            tiers[0] = suit & above_led;
            tiers[1] = suit;
            tiers[2] = W_CLUBS;
            tiers[3] = W_FULL;
            n = 4;
        } else {
            tiers[0] = suit;
            tiers[1] = W_CLUBS & above_club;
            tiers[2] = W_FULL;
            n = 3;
        }
    }
    uint64_t absent = 0, bit = 1ull << idx;
    for (int i = 0; i < n; i++) {
        if (tiers[i] & bit) return absent;
        absent |= tiers[i];
    }
    return absent;
}

/* A card of the seat to act onto the table: the state, the proofs of absence (sampling.absent_cards). */
static int wh_play(wh_table_t *tb, int idx) {
    whist_t *w = &tb->w;
    int seat = w->to_act;
    if (w->trick_len == 0) {
        if (idx / 13 == 0 && !w->t.broken) tb->absent[seat] |= W_FULL & ~W_CLUBS; /* CW-2: only clubs held */
    } else {
        tb->absent[seat] |= wh_revealed_absent(idx, &w->t);
    }
    tb->trick_seats[w->trick_len] = seat;
    tb->played |= 1ull << idx;
    return whist_play(w, idx);
}

/* Start the table at the first card of a hand: `hands` as the play began, `leader` to lead. */
static void wh_start(wh_table_t *tb, const uint64_t hands[W_SEATS], int leader, const uint64_t given[W_SEATS],
                     const int known_at[W_SEATS], const int totals[W_SEATS], int target) {
    memset(tb, 0, sizeof *tb);
    whist_t *w = &tb->w;
    for (int s = 0; s < W_SEATS; s++) {
        w->hands[s] = hands[s];
        tb->given[s] = given[s];
        tb->known_at[s] = known_at[s];
        tb->totals[s] = totals[s];
    }
    tb->target = target;
    w->phase = W_PLAY;
    w->leader = w->to_act = leader;
    w->last_exchanger = -1;
    w->t.led = w->t.top_led = w->t.top_club = w->t.winning = -1;
}

/* bot.Knowledge: the chance of each unseen card being with each opponent. */
typedef struct {
    uint64_t hand;
    int opponents[2];
    double prob[2][52];
    uint64_t sure[2];
} wh_knowledge_t;

static void wh_knowledge(const wh_table_t *tb, int seat, wh_knowledge_t *k) {
    const whist_t *w = &tb->w;
    k->hand = w->hands[seat];
    k->opponents[0] = (seat + 1) % W_SEATS;
    k->opponents[1] = (seat + 2) % W_SEATS;
    uint64_t known = tb->known_at[seat] >= 0 ? tb->given[seat] & ~tb->played : 0;
    uint64_t unseen = W_FULL & ~k->hand & ~tb->played & ~known;
    uint64_t held[2];
    int free_[2];
    for (int j = 0; j < 2; j++) {
        held[j] = tb->known_at[seat] == k->opponents[j] ? known : 0;
        free_[j] = __builtin_popcountll(w->hands[k->opponents[j]]) - __builtin_popcountll(held[j]);
        k->sure[j] = held[j];
    }
    int free_bid = W_TRICKS - __builtin_popcountll(tb->known_at[seat] == WH_BID ? known : 0);
    memset(k->prob, 0, sizeof k->prob);
    for (int j = 0; j < 2; j++) {
        for (uint64_t m = held[j]; m; m &= m - 1) k->prob[j][__builtin_ctzll(m)] = 1.0;
    }
    uint64_t may0 = unseen & ~tb->absent[k->opponents[0]], may1 = unseen & ~tb->absent[k->opponents[1]];
    uint64_t cards[3] = {may0 & may1, may0 & ~may1, may1 & ~may0};
    for (int c = 0; c < 3; c++) {
        int both = c == 0, only = c - 1; /* the holders: both opponents, or opponent `only` */
        int slots = free_bid + (both ? free_[0] + free_[1] : free_[only]);
        if (slots <= 0 || !cards[c]) continue;
        for (int j = 0; j < 2; j++) {
            if (!both && j != only) continue;
            double chance = (double)free_[j] / (double)slots;
            for (uint64_t m = cards[c]; m; m &= m - 1) k->prob[j][__builtin_ctzll(m)] = chance;
        }
    }
}

static double wh_higher_out(const wh_knowledge_t *k, int index) {
    double out = 0.0;
    for (uint64_t m = wh_above(index) & ~k->hand; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        out += k->prob[0][i] + k->prob[1][i];
    }
    return out;
}

static double wh_holds_any(const wh_knowledge_t *k, int j, uint64_t mask) {
    if (k->sure[j] & mask) return 1.0;
    double none = 1.0;
    for (uint64_t m = mask & ~k->hand; m; m &= m - 1) none *= 1.0 - k->prob[j][__builtin_ctzll(m)];
    return 1.0 - none;
}

static inline double wh_void(const wh_knowledge_t *k, int j, int suit) {
    return 1.0 - wh_holds_any(k, j, W_CLUBS << (13 * suit));
}

static double wh_beats(const wh_knowledge_t *k, int j, int index, int led, int club_in_trick) {
    if (index / 13 == 0) {
        double higher = wh_holds_any(k, j, wh_above(index));
        return led == 0 ? higher : wh_void(k, j, led) * higher;
    }
    if (club_in_trick) return 0.0;
    double x = wh_holds_any(k, j, wh_above(index)) + wh_void(k, j, led) * wh_holds_any(k, j, W_CLUBS);
    return x < 1.0 ? x : 1.0;
}

enum { WH_HIGH = 0, WH_LOW = 1 };

static double wh_card_potential(const wh_knowledge_t *k, int index, int goal) {
    double h = wh_higher_out(k, index);
    if (index / 13 == 0) {
        double v = goal == WH_HIGH ? 1.0 - CLUB_SLOPE_HIGH * h : 1.0 - CLUB_SLOPE_LOW * h;
        double floor_ = goal == WH_HIGH ? CLUB_FLOOR_HIGH : CLUB_FLOOR_LOW;
        return v >= floor_ ? v : floor_;
    }
    if (goal == WH_LOW) return PLAIN_TOP_LOW * pow(PLAIN_DECAY_LOW, h);
    int suit = index / 13;
    double safe = 1.0;
    for (int j = 0; j < 2; j++) safe *= 1.0 - wh_void(k, j, suit) * wh_holds_any(k, j, W_CLUBS);
    return PLAIN_TOP_HIGH * pow(PLAIN_DECAY_HIGH, h) * safe;
}

static double wh_hand_estimate(const wh_knowledge_t *k, int goal) {
    double total = 0.0;
    int first = 1;
    for (uint64_t m = k->hand; m; m &= m - 1) {
        double p = wh_card_potential(k, __builtin_ctzll(m), goal);
        total = first ? p : total + p; /* Python's sum starts from the integer 0: 0 + p is p exactly */
        first = 0;
    }
    if (goal == WH_HIGH) {
        int voids = 0;
        for (int s = 1; s < 4; s++) voids += !(k->hand & (W_CLUBS << (13 * s)));
        total += VOID_RUFF_BONUS * voids * __builtin_popcountll(k->hand & W_CLUBS);
    }
    return total;
}

static double wh_goal_value(double total_after, int target, int goal, double spread) {
    static const int deltas[5] = {-2, -1, 0, 1, 2};
    static const double weights[5] = {0.1, 0.2, 0.4, 0.2, 0.1};
    double value = 0.0;
    for (int i = 0; i < 5; i++) {
        double x = total_after + deltas[i] * spread;
        double distance = goal == WH_HIGH ? target - x : target + x;
        value += weights[i] * (distance <= 0 ? 1.0 : pow(GOAL_DECAY, distance));
    }
    return value;
}

/* bot.best_goal: the goal, and its value in *value. */
static int wh_best_goal(int total, int tricks, double high, double low, int target, double spread, double *value) {
    double v_high = wh_goal_value((double)(total + tricks) + high - WH_QUOTA, target, WH_HIGH, spread);
    double v_low = wh_goal_value((double)(total + tricks) + low - WH_QUOTA, target, WH_LOW, spread);
    if (v_high >= v_low) {
        *value = v_high;
        return WH_HIGH;
    }
    *value = v_low;
    return WH_LOW;
}

/* bot.TrickState, read from the trick in progress. */
typedef struct {
    int led, top_led, top_club, winner;
    int followers[2], n_followers;
} wh_trick_view_t;

static void wh_trick_view(const wh_table_t *tb, const wh_knowledge_t *k, wh_trick_view_t *st) {
    const whist_t *w = &tb->w;
    st->led = st->top_led = st->top_club = st->winner = -1;
    int in_trick = 0;
    for (int n = 0; n < w->trick_len; n++) {
        int i = w->trick[n], seat = tb->trick_seats[n];
        in_trick |= 1 << seat;
        if (n == 0) st->led = i / 13;
        if (i / 13 == 0) {
            if (i > st->top_club) {
                st->top_club = i;
                st->winner = seat;
            }
        } else if (i / 13 == st->led && st->top_club < 0 && i > st->top_led) {
            st->top_led = i;
            st->winner = seat;
        }
    }
    st->n_followers = 0;
    for (int j = 0; j < 2; j++) {
        if (!(in_trick >> k->opponents[j] & 1)) st->followers[st->n_followers++] = j;
    }
}

static int wh_wins_now(const wh_trick_view_t *st, int index) {
    if (st->led < 0) return 1;
    if (index / 13 == 0) return index > st->top_club;
    return st->top_club < 0 && index / 13 == st->led && index > st->top_led;
}

static double wh_win_chance(const wh_knowledge_t *k, const wh_trick_view_t *st, int index) {
    if (!wh_wins_now(st, index)) return 0.0;
    int led = st->led >= 0 ? st->led : index / 13;
    double chance = 1.0;
    for (int n = 0; n < st->n_followers; n++) chance *= 1.0 - wh_beats(k, st->followers[n], index, led, st->top_club >= 0);
    return chance;
}

/* bot.race_threat: 1 take the trick, 0 leave it, -1 no need to interfere. */
static int wh_race_threat(const wh_table_t *tb, const wh_knowledge_t *k, const wh_trick_view_t *st) {
    int target = tb->target, left = __builtin_popcountll(k->hand);
    int involved = 0;
    for (int n = 0; n < st->n_followers; n++) involved |= 1 << k->opponents[st->followers[n]];
    if (st->winner >= 0) involved |= 1 << st->winner;
    for (int j = 0; j < 2; j++) {
        int opp = k->opponents[j];
        if (!(involved >> opp & 1)) continue;
        int now = tb->totals[opp] + tb->w.tricks_won[opp] - WH_QUOTA;
        int need = target - now;
        if (0 < need && need <= (BLOCK_NEED < left ? BLOCK_NEED : left)) return 1;
        int spare = -target - now;
        if (0 <= spare && spare <= FEED_SPARE) return 0;
    }
    return -1;
}

static int wh_wanted(const wh_table_t *tb, int seat, const wh_knowledge_t *k, const wh_trick_view_t *st) {
    int left = __builtin_popcountll(k->hand);
    double high = wh_hand_estimate(k, WH_HIGH), low = wh_hand_estimate(k, WH_LOW), value;
    int goal = wh_best_goal(tb->totals[seat], tb->w.tricks_won[seat], high, low, tb->target,
                            (double)left / (double)W_TRICKS, &value);
    if (value < REACHED) {
        int override = wh_race_threat(tb, k, st);
        if (override >= 0) return override;
    }
    return goal == WH_HIGH;
}

/* bot.card_choice for the seat to act (play phase, more than one legal card; one is returned as it is). */
static int wh_card_choice(const wh_table_t *tb) {
    int seat = tb->w.to_act;
    uint64_t legal = whist_legal(&tb->w);
    if (!legal) return -1;
    if (__builtin_popcountll(legal) == 1) return __builtin_ctzll(legal);
    wh_knowledge_t k;
    wh_knowledge(tb, seat, &k);
    wh_trick_view_t st;
    wh_trick_view(tb, &k, &st);
    int want = wh_wanted(tb, seat, &k, &st);
    int goal = want ? WH_HIGH : WH_LOW;
    int best = -1;
    double best_score = 0.0;
    for (uint64_t m = legal; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        double score =
            wh_win_chance(&k, &st, i) - (want ? KEEP_WEIGHT_HIGH : KEEP_WEIGHT_LOW) * wh_card_potential(&k, i, goal);
        double tie = TIE * (i % 13 + 2);
        score = want ? score - tie : -score + tie;
        if (best < 0 || score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

static inline uint64_t wh_legal(const wh_table_t *tb) { return whist_legal(&tb->w); }
static inline int wh_phase(const wh_table_t *tb) { return tb->w.phase; }

/* bot.Knowledge.fresh: before any play, every card of pool is with each opponent with chance share. */
static void wh_fresh(wh_knowledge_t *k, uint64_t hand, int seat, uint64_t pool, double share) {
    k->hand = hand;
    k->opponents[0] = (seat + 1) % W_SEATS;
    k->opponents[1] = (seat + 2) % W_SEATS;
    memset(k->prob, 0, sizeof k->prob);
    for (uint64_t m = pool; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        k->prob[0][i] = k->prob[1][i] = share;
    }
    k->sure[0] = k->sure[1] = 0;
}

/* bot.exchange_decision (CW-4): 1 to take the bid hand. `rng` is the decision's generator: the bid hands are
 * sampled as random.Random.sample samples them. */
static int wh_exchange_choice(uint64_t hand, int seat, int total, int target, int someone_exchanged, mt_t *rng) {
    uint64_t pool = W_FULL & ~hand;
    wh_knowledge_t k;
    double value;
    wh_fresh(&k, hand, seat, pool, 1.0 / 3.0);
    wh_best_goal(total, 0, wh_hand_estimate(&k, WH_HIGH), wh_hand_estimate(&k, WH_LOW), target, 1.0, &value);
    double keep_value = value;
    int others[52], n = 0;
    for (uint64_t m = pool; m; m &= m - 1) others[n++] = __builtin_ctzll(m);
    double gain = 0.0;
    for (int s = 0; s < EXCHANGE_SAMPLES; s++) {
        uint64_t bid = mt_sample_mask(rng, others, n, W_TRICKS);
        wh_fresh(&k, bid, seat, pool & ~bid, 0.5);
        wh_best_goal(total, 0, wh_hand_estimate(&k, WH_HIGH), wh_hand_estimate(&k, WH_LOW), target, 1.0, &value);
        gain += value;
    }
    double bid_value = gain / EXCHANGE_SAMPLES;
    double margin = 0.0;
    if (someone_exchanged) margin += REJECTED_HAND_MARGIN * keep_value;
    return bid_value > keep_value + margin;
}

enum { WH_RANDOM_BOT = 0, WH_HEURISTIC_BOT = 1 };

/* A match as clubsuite.runner.play_match plays it with bots[seat] (the random or the heuristic bot) in each seat:
 * the deals of whist_random_match, every bot drawing from the one generator of the match. */
static void whist_bots_match(uint64_t match_seed, int target, int lead_rule, const int bots[W_SEATS], mt_t *deals,
                             mt_t *rng, whist_outcome_t *out) {
    memset(out, 0, sizeof *out);
    mt_seed(rng, derive_seed1(match_seed, 0x5EED));
    for (;;) {
        int dealer = out->hands % W_SEATS;
        uint64_t hands[W_SEATS], bid;
        mt_seed(deals, derive_seed1(match_seed, (uint64_t)out->hands));
        whist_deal(deals, dealer, hands, &bid);
        wh_table_t tb;
        memset(&tb, 0, sizeof tb);
        whist_start(&tb.w, hands, bid, dealer, lead_rule);
        for (int s = 0; s < W_SEATS; s++) {
            tb.known_at[s] = -1;
            tb.totals[s] = out->totals[s];
        }
        tb.target = target;
        int order[W_SEATS], took[W_SEATS], n_decided = 0, someone = 0;
        while (tb.w.phase == W_EXCHANGE) {
            int seat = tb.w.to_act, take;
            if (bots[seat] == WH_RANDOM_BOT) {
                take = mt_below(rng, 2);
            } else {
                take = wh_exchange_choice(tb.w.hands[seat], seat, tb.totals[seat], target, someone, rng);
            }
            if (take) tb.given[seat] = tb.w.hands[seat];
            order[n_decided] = seat;
            took[n_decided++] = take;
            someone |= take;
            whist_decide(&tb.w, take);
        }
        for (int i = 0; i < n_decided; i++) { /* where each exchanger's old hand is now (CW-4) */
            if (!took[i]) continue;
            tb.known_at[order[i]] = WH_BID;
            for (int j = i + 1; j < n_decided; j++) {
                if (took[j]) {
                    tb.known_at[order[i]] = order[j];
                    break;
                }
            }
        }
        while (tb.w.phase == W_PLAY) {
            int card;
            if (bots[tb.w.to_act] == WH_RANDOM_BOT) {
                uint64_t legal = whist_legal(&tb.w);
                card = kth_bit(legal, mt_below(rng, __builtin_popcountll(legal)));
            } else {
                card = wh_card_choice(&tb);
            }
            wh_play(&tb, card);
        }
        out->hands++;
        int hit = 0;
        for (int s = 0; s < W_SEATS; s++) {
            out->totals[s] += tb.w.tricks_won[s] - WH_QUOTA;
            if (out->totals[s] >= target || out->totals[s] <= -target) hit |= 1 << s;
        }
        if (hit) {
            out->draw = hit == 7;
            out->winners = out->draw ? 0 : hit;
            return;
        }
    }
}

/* Play the hand to its end with the heuristic bot in every seat; the cards played go to out (up to 39). */
static int wh_finish(wh_table_t *tb, int *out) {
    int n = 0;
    while (tb->w.phase == W_PLAY) {
        int card = wh_card_choice(tb);
        if (card < 0) break; /* no legal card: a table built from inconsistent hands; nothing more is played */
        out[n++] = card;
        wh_play(tb, card);
    }
    return n;
}

#endif
