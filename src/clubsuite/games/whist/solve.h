/* The exact solver for the card play of Clubs (whist group) in C: the search of clubsuite/solver/search.py (alpha-beta
 * with MTD(f) at the root, a transposition table over relative ranks, equivalent cards, the same move ordering),
 * restated for one scorer, the tricks of one seat (sign +1: as many as it can; -1: as few), with the must-beat
 * rule (CW-1) and clubs broken (CW-2) of core.h.
 *
 * It visits the same nodes in the same order as the Python search and keeps every table entry (the table grows,
 * never forgets), so its values, node counts and table sizes are the Python solver's: a node limit stops both at
 * the same place. tests/whist/test_native_whist.py compares them on thousands of positions.
 */
#ifndef CLUBS_WHIST_SOLVE_H
#define CLUBS_WHIST_SOLVE_H

#include <stdlib.h>

#include "core.h"

#define WS_INF (1 << 30)

typedef struct {
    uint64_t k[3]; /* each seat's cards as relative ranks: per suit, the bit of its place among the suit's live cards */
    uint32_t meta; /* leader | broken << 2 | 8 (so that an empty slot, meta 0, never matches) */
    int lo, hi;
} ws_entry_t;

typedef struct {
    ws_entry_t *slots;
    size_t cap, used; /* cap a power of two */
} ws_table_t;

typedef struct {
    uint64_t hands[W_SEATS];
    int trick[W_SEATS], trick_len;
    int players[W_SEATS], leader;
    int side[W_SEATS];
    whist_trick_t t; /* the trick in progress, and clubs broken */
    int tricks_done, max_tricks;
    int seat, sign; /* the scorer: a trick is worth sign when seat wins it */
    long long nodes, limit;
    int aborted; /* past the node limit, or out of memory: every frame unwinds at once */
    int oom;
    ws_table_t tt;
} ws_search_t;

static uint64_t ws_hash(const uint64_t k[3], uint32_t meta) {
    uint64_t h = k[0] * 0x9E3779B97F4A7C15ull;
    h ^= k[1] + 0xBF58476D1CE4E5B9ull + (h << 6) + (h >> 2);
    h ^= k[2] + 0x94D049BB133111EBull + (h << 6) + (h >> 2);
    h ^= meta;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return h;
}

static ws_entry_t *ws_find(ws_table_t *t, const uint64_t k[3], uint32_t meta) {
    size_t mask = t->cap - 1, i = (size_t)ws_hash(k, meta) & mask;
    for (;;) {
        ws_entry_t *e = &t->slots[i];
        if (e->meta == 0) return e;
        if (e->meta == meta && e->k[0] == k[0] && e->k[1] == k[1] && e->k[2] == k[2]) return e;
        i = (i + 1) & mask;
    }
}

static int ws_grow(ws_table_t *t) {
    size_t cap = t->cap ? t->cap * 2 : 4096;
    ws_entry_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return 0;
    ws_table_t bigger = {slots, cap, t->used};
    for (size_t i = 0; i < t->cap; i++) {
        if (t->slots[i].meta) *ws_find(&bigger, t->slots[i].k, t->slots[i].meta) = t->slots[i];
    }
    free(t->slots);
    *t = bigger;
    return 1;
}

/* The cards of every hand as relative ranks (see ws_entry_t). */
static void ws_layout(const ws_search_t *s, uint64_t k[3]) {
    k[0] = k[1] = k[2] = 0;
    for (int suit = 0; suit < 4; suit++) {
        int shift = 13 * suit;
        uint64_t held[3], live = 0;
        for (int p = 0; p < 3; p++) {
            held[p] = (s->hands[p] >> shift) & 0x1FFF;
            live |= held[p];
        }
        int place = shift;
        while (live) {
            uint64_t low = live & (0 - live);
            live ^= low;
            for (int p = 0; p < 3; p++) {
                if (held[p] & low) {
                    k[p] |= 1ull << place;
                    break;
                }
            }
            place++;
        }
    }
}

static uint64_t ws_legal(const ws_search_t *s, int seat) { return whist_legal_for(s->hands[seat], s->trick_len, &s->t); }

static whist_trick_t ws_play(ws_search_t *s, int seat, int c) {
    whist_trick_t saved = s->t;
    s->hands[seat] ^= 1ull << c;
    whist_trick_add(&s->t, s->trick_len, seat, c);
    s->trick[s->trick_len++] = c;
    return saved;
}

static void ws_unplay(ws_search_t *s, int seat, int c, whist_trick_t saved) {
    s->trick_len--;
    s->hands[seat] ^= 1ull << c;
    s->t = saved;
}

static uint64_t ws_live(const ws_search_t *s) {
    uint64_t live = s->hands[0] | s->hands[1] | s->hands[2];
    for (int i = 0; i < s->trick_len; i++) live |= 1ull << s->trick[i];
    return live;
}

static inline int ws_top_bit(uint64_t m) { return 63 - __builtin_clzll(m); }

/* One card per run of cards adjacent among the live ones, the lowest of each run, ascending. */
static int ws_representatives(uint64_t mask, uint64_t live, int out[13]) {
    int n = 0;
    uint64_t m = mask;
    while (m) {
        int c = __builtin_ctzll(m);
        m &= m - 1;
        int base = c - c % 13;
        uint64_t below = live & ((1ull << c) - 1) & ~((1ull << base) - 1);
        if (below && (mask >> ws_top_bit(below) & 1)) continue;
        out[n++] = c;
    }
    return n;
}

static int ws_equivalent_to(int card, uint64_t mask, uint64_t live) {
    int c = card;
    for (;;) {
        int base = c - c % 13;
        uint64_t below = live & ((1ull << c) - 1) & ~((1ull << base) - 1);
        if (!below) break;
        int prev = ws_top_bit(below);
        if (!(mask >> prev & 1)) break;
        c = prev;
    }
    return c;
}

static int ws_beats(const ws_search_t *s, int c) {
    int suit = c / 13;
    if (suit == 0) return c > s->t.top_club;
    return suit == s->t.led && s->t.top_club < 0 && c > s->t.top_led;
}

/* The cards in the order worth trying first: a leader high cards first (by rank, ties in index order); the side
 * winning the trick low cards first; the other side the cards that take the lead first. */
static void ws_ordered(const ws_search_t *s, int seat, int *cards, int n) {
    int out[13], k = 0;
    if (s->trick_len == 0) {
        for (int rank = 12; rank >= 0; rank--) {
            for (int i = 0; i < n; i++) {
                if (cards[i] % 13 == rank) out[k++] = cards[i];
            }
        }
    } else if (s->side[s->t.winning] == s->side[seat]) {
        return;
    } else {
        for (int i = 0; i < n; i++) {
            if (ws_beats(s, cards[i])) out[k++] = cards[i];
        }
        for (int i = 0; i < n; i++) {
            if (!ws_beats(s, cards[i])) out[k++] = cards[i];
        }
    }
    memcpy(cards, out, (size_t)n * sizeof(int));
}

static int ws_over(const ws_search_t *s) {
    if (s->tricks_done >= s->max_tricks) return 1;
    return !(s->hands[0] | s->hands[1] | s->hands[2]);
}

static int ws_node(ws_search_t *s, int alpha, int beta);

static int ws_after(ws_search_t *s, int seat, int c, int alpha, int beta) {
    whist_trick_t saved = ws_play(s, seat, c);
    if (s->trick_len < W_SEATS) {
        int v = ws_node(s, alpha, beta);
        ws_unplay(s, seat, c, saved);
        return v;
    }
    int winner = s->t.winning;
    int pts = winner == s->seat ? s->sign : 0;
    int trick[W_SEATS], players[W_SEATS], leader = s->leader;
    memcpy(trick, s->trick, sizeof trick);
    memcpy(players, s->players, sizeof players);
    s->tricks_done++;
    s->leader = winner;
    for (int k = 0; k < W_SEATS; k++) s->players[k] = (winner + k) % W_SEATS;
    s->trick_len = 0;
    int v = pts + ws_node(s, alpha - pts, beta - pts);
    memcpy(s->trick, trick, sizeof trick);
    memcpy(s->players, players, sizeof players);
    s->trick_len = W_SEATS;
    s->leader = leader;
    s->tricks_done--;
    ws_unplay(s, seat, c, saved);
    return v;
}

static int ws_node(ws_search_t *s, int alpha, int beta) {
    if (s->aborted) return 0;
    s->nodes++;
    if (s->nodes > s->limit) {
        s->aborted = 1;
        return 0;
    }
    ws_entry_t *entry = NULL;
    uint64_t key[3];
    uint32_t meta = 0;
    if (s->trick_len == 0) {
        if (ws_over(s)) return 0;
        int left = __builtin_popcountll(s->hands[0] | s->hands[1] | s->hands[2]) / W_SEATS;
        int lo = s->sign > 0 ? 0 : -left, hi = s->sign > 0 ? left : 0;
        if (hi <= alpha) return hi;
        if (lo >= beta) return lo;
        ws_layout(s, key);
        meta = (uint32_t)s->leader | (uint32_t)s->t.broken << 2 | 8u;
        entry = ws_find(&s->tt, key, meta);
        if (entry->meta) {
            if (entry->lo > lo) lo = entry->lo;
            if (entry->hi < hi) hi = entry->hi;
        }
        if (lo >= beta || lo == hi) return lo;
        if (hi <= alpha) return hi;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
    }
    int seat = s->players[s->trick_len];
    int cards[13];
    int n = ws_representatives(ws_legal(s, seat), ws_live(s), cards);
    ws_ordered(s, seat, cards, n);
    int a0 = alpha, b0 = beta, best;
    if (s->side[seat]) {
        best = -WS_INF;
        for (int i = 0; i < n; i++) {
            int v = ws_after(s, seat, cards[i], alpha, beta);
            if (s->aborted) return 0;
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        }
    } else {
        best = WS_INF;
        for (int i = 0; i < n; i++) {
            int v = ws_after(s, seat, cards[i], alpha, beta);
            if (s->aborted) return 0;
            if (v < best) {
                best = v;
                if (v < beta) {
                    beta = v;
                    if (alpha >= beta) break;
                }
            }
        }
    }
    if (meta) {
        /* The slot may have moved while the table grew below this node: look it up again. */
        if ((s->tt.used + 1) * 2 > s->tt.cap && !ws_grow(&s->tt)) {
            s->aborted = s->oom = 1;
            return 0;
        }
        entry = ws_find(&s->tt, key, meta);
        int lo = -WS_INF, hi = WS_INF;
        if (entry->meta) {
            lo = entry->lo;
            hi = entry->hi;
        } else {
            s->tt.used++;
            entry->k[0] = key[0];
            entry->k[1] = key[1];
            entry->k[2] = key[2];
            entry->meta = meta;
        }
        if (best <= a0) {
            if (best < hi) hi = best;
        } else if (best >= b0) {
            if (best > lo) lo = best;
        } else {
            lo = hi = best;
        }
        entry->lo = lo;
        entry->hi = hi;
    }
    return best;
}

static int ws_probe(ws_search_t *s, int seat, int c, int guess) {
    int lo = -WS_INF, hi = WS_INF, g = guess;
    while (lo < hi) {
        int beta = g == lo ? g + 1 : g;
        int v = ws_after(s, seat, c, beta - 1, beta);
        if (s->aborted) return 0;
        if (v < beta) {
            hi = v;
        } else {
            lo = v;
        }
        g = v;
    }
    return lo;
}

/* Set up a search: hands without the trick's cards, the trick in play order from `leader`. */
static int ws_init(ws_search_t *s, const uint64_t hands[3], int leader, const int *trick, int trick_len, int broken,
                   int tricks_done, int max_tricks, int seat, int sign, long long limit) {
    memset(s, 0, sizeof *s);
    for (int p = 0; p < 3; p++) s->hands[p] = hands[p];
    s->leader = leader;
    for (int k = 0; k < W_SEATS; k++) {
        s->players[k] = (leader + k) % W_SEATS;
        s->side[k] = k == seat;
    }
    s->t.broken = broken;
    s->tricks_done = tricks_done;
    s->max_tricks = max_tricks;
    s->seat = seat;
    s->sign = sign;
    s->limit = limit;
    s->t.led = s->t.top_led = s->t.top_club = s->t.winning = -1;
    if (!ws_grow(&s->tt)) return 0;
    for (int i = 0; i < trick_len; i++) {
        int p = s->players[s->trick_len];
        s->hands[p] |= 1ull << trick[i];
        ws_play(s, p, trick[i]);
    }
    return 1;
}

/* The value of every legal card of the seat to act into values[card] (52 slots; legal cards marked in *legal_out).
 * Returns 0 when done, 1 past the node limit, 2 out of memory, 3 when the hand is over. */
static int ws_root(ws_search_t *s, int values[52], uint64_t *legal_out) {
    *legal_out = 0;
    if (s->trick_len == 0 && ws_over(s)) return 3;
    int seat = s->players[s->trick_len];
    uint64_t legal = ws_legal(s, seat), live = ws_live(s);
    int cards[13];
    int n = ws_representatives(legal, live, cards);
    ws_ordered(s, seat, cards, n);
    int guess = 0;
    for (int i = 0; i < n; i++) {
        guess = values[cards[i]] = ws_probe(s, seat, cards[i], guess);
        if (s->aborted) return s->oom ? 2 : 1;
    }
    uint64_t m = legal;
    while (m) {
        int c = __builtin_ctzll(m);
        m &= m - 1;
        values[c] = values[ws_equivalent_to(c, legal, live)];
    }
    *legal_out = legal;
    return 0;
}

static void ws_free(ws_search_t *s) {
    free(s->tt.slots);
    s->tt.slots = NULL;
}

#endif
