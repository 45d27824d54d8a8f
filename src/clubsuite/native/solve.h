/* The exact solver in C: clubsuite/solver/search.py restated (alpha-beta with MTD(f) at the root, a transposition
 * table over relative ranks, equivalent cards, the same move ordering), for the trick games whose tricks and scorers
 * it knows: three or four seats in turn, the must-beat rule or plain follow-suit, clubs broken or no such rule, and
 * two scorers: tricks (`sign` for every trick the side takes) and a partnership's points (a point a trick and a
 * club, five for the queen of diamonds, five more for a sweep).
 *
 * It visits the same nodes in the same order as the Python search and keeps every table entry (the table grows,
 * never forgets), so its values, node counts and table sizes are the Python solver's, and a node limit stops both
 * at the same node. Each game's differential tests compare them on thousands of positions.
 */
#ifndef CLUBS_SOLVE_H
#define CLUBS_SOLVE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define S_INF (1 << 30)
#define S_SUIT 0x1FFFull
#define S_HAND_SIZE 13
#define S_DAME (1 * 13 + 12 - 2) /* the queen of diamonds */

typedef struct {
    uint64_t k[4]; /* each seat's cards as relative ranks: per suit, the bit of its place among the suit's live cards */
    uint32_t meta; /* leader, clubs broken, the scorer's key, where the special card sits; never 0 */
    int lo, hi;
} s_entry_t;

typedef struct {
    s_entry_t *slots;
    size_t cap, used; /* cap a power of two */
} s_table_t;

typedef struct {
    int n; /* seats */
    uint64_t hands[4];
    int trick[4], trick_len;
    int players[4], leader;
    int side[4];
    int must_beat;
    int broken; /* -1: the game has no such rule */
    int tricks_done, max_tricks;
    int led, top_led, top_club, winning;
    int points, sign; /* the scorer: points (1) or tricks worth sign each (0) */
    uint64_t special;  /* cards never equivalent to another (the queen of diamonds when counting points) */
    int side_tricks, other_tricks;
    long long nodes, limit;
    int aborted, oom;
    s_table_t tt;
} s_search_t;

static uint64_t s_hash(const uint64_t k[4], uint32_t meta) {
    uint64_t h = k[0] * 0x9E3779B97F4A7C15ull;
    for (int i = 1; i < 4; i++) h ^= k[i] + 0xBF58476D1CE4E5B9ull * (uint64_t)i + (h << 6) + (h >> 2);
    h ^= meta;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return h;
}

static s_entry_t *s_find(s_table_t *t, const uint64_t k[4], uint32_t meta) {
    size_t mask = t->cap - 1, i = (size_t)s_hash(k, meta) & mask;
    for (;;) {
        s_entry_t *e = &t->slots[i];
        if (e->meta == 0) return e;
        if (e->meta == meta && !memcmp(e->k, k, sizeof e->k)) return e;
        i = (i + 1) & mask;
    }
}

static int s_grow(s_table_t *t) {
    size_t cap = t->cap ? t->cap * 2 : 4096;
    s_entry_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return 0;
    s_table_t bigger = {slots, cap, t->used};
    for (size_t i = 0; i < t->cap; i++) {
        if (t->slots[i].meta) *s_find(&bigger, t->slots[i].k, t->slots[i].meta) = t->slots[i];
    }
    free(t->slots);
    *t = bigger;
    return 1;
}

/* The cards in hands as relative ranks (search._layout), and where the special cards sit in that order. */
static uint32_t s_layout(const s_search_t *s, uint64_t k[4]) {
    uint32_t marks = 0;
    for (int p = 0; p < 4; p++) k[p] = 0;
    for (int suit = 0; suit < 4; suit++) {
        int shift = 13 * suit;
        uint64_t held[4], live = 0;
        for (int p = 0; p < s->n; p++) {
            held[p] = (s->hands[p] >> shift) & S_SUIT;
            live |= held[p];
        }
        uint64_t special = (s->special >> shift) & S_SUIT;
        int place = 0;
        while (live) {
            uint64_t low = live & (0 - live);
            live ^= low;
            for (int p = 0; p < s->n; p++) {
                if (held[p] & low) {
                    k[p] |= 1ull << (shift + place);
                    break;
                }
            }
            if (special & low) marks = marks * 64 + (uint32_t)(suit * 13 + place + 1); /* up to 4 special cards */
            place++;
        }
    }
    return marks;
}

static uint64_t s_legal(const s_search_t *s, int seat) {
    uint64_t hand = s->hands[seat];
    if (s->trick_len == 0) {
        if (s->broken == 0) {
            uint64_t plain = hand & ~S_SUIT;
            return plain ? plain : hand; /* no club lead before clubs are broken */
        }
        return hand;
    }
    int led = s->led;
    uint64_t follow = hand & (S_SUIT << (13 * led));
    if (!s->must_beat) return follow ? follow : hand;
    uint64_t clubs = hand & S_SUIT;
    if (led == 0) {
        uint64_t higher = clubs & ~((2ull << s->top_club) - 1);
        if (higher) return higher;
        return clubs ? clubs : hand;
    }
    if (s->top_club < 0) {
        if (follow) {
            uint64_t higher = follow & ~((2ull << s->top_led) - 1);
            return higher ? higher : follow;
        }
        return clubs ? clubs : hand;
    }
    if (follow) return follow;
    uint64_t over = clubs & ~((2ull << s->top_club) - 1);
    return over ? over : hand;
}

typedef struct {
    int led, top_led, top_club, winning, broken;
} s_saved_t;

static s_saved_t s_play(s_search_t *s, int seat, int c) {
    s_saved_t saved = {s->led, s->top_led, s->top_club, s->winning, s->broken};
    s->hands[seat] ^= 1ull << c;
    int suit = c / 13;
    if (s->trick_len == 0) {
        s->led = suit;
        s->winning = seat;
        if (suit == 0) {
            s->top_club = c;
            s->top_led = -1;
            if (s->broken >= 0) s->broken = 1;
        } else {
            s->top_club = -1;
            s->top_led = c;
        }
    } else if (suit == 0) {
        if (s->led && s->broken >= 0) s->broken = 1;
        if (c > s->top_club) {
            s->top_club = c;
            s->winning = seat;
        }
    } else if (suit == s->led && s->top_club < 0 && c > s->top_led) {
        s->top_led = c;
        s->winning = seat;
    }
    s->trick[s->trick_len++] = c;
    return saved;
}

static void s_unplay(s_search_t *s, int seat, int c, s_saved_t saved) {
    s->trick_len--;
    s->hands[seat] ^= 1ull << c;
    s->led = saved.led;
    s->top_led = saved.top_led;
    s->top_club = saved.top_club;
    s->winning = saved.winning;
    s->broken = saved.broken;
}

static uint64_t s_live(const s_search_t *s) {
    uint64_t live = 0;
    for (int p = 0; p < s->n; p++) live |= s->hands[p];
    for (int i = 0; i < s->trick_len; i++) live |= 1ull << s->trick[i];
    return live;
}

static inline int s_top_bit(uint64_t m) { return 63 - __builtin_clzll(m); }

/* One card per run of cards adjacent among the live ones, the lowest of each run; a special card always. */
static int s_representatives(uint64_t mask, uint64_t live, uint64_t special, int out[13]) {
    int n = 0;
    for (uint64_t m = mask; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        if (!(special >> c & 1)) {
            int base = c - c % 13;
            uint64_t below = live & ((1ull << c) - 1) & ~((1ull << base) - 1);
            if (below) {
                int prev = s_top_bit(below);
                if ((mask >> prev & 1) && !(special >> prev & 1)) continue;
            }
        }
        out[n++] = c;
    }
    return n;
}

static int s_equivalent_to(int card, uint64_t mask, uint64_t live, uint64_t special) {
    int c = card;
    while (!(special >> c & 1)) {
        int base = c - c % 13;
        uint64_t below = live & ((1ull << c) - 1) & ~((1ull << base) - 1);
        if (!below) break;
        int prev = s_top_bit(below);
        if (!(mask >> prev & 1) || (special >> prev & 1)) break;
        c = prev;
    }
    return c;
}

static int s_beats(const s_search_t *s, int c) {
    int suit = c / 13;
    if (suit == 0) return c > s->top_club;
    return suit == s->led && s->top_club < 0 && c > s->top_led;
}

static void s_ordered(const s_search_t *s, int seat, int *cards, int n) {
    int out[13], k = 0;
    if (s->trick_len == 0) {
        for (int rank = 12; rank >= 0; rank--) {
            for (int i = 0; i < n; i++) {
                if (cards[i] % 13 == rank) out[k++] = cards[i];
            }
        }
    } else if (s->side[s->winning] == s->side[seat]) {
        return;
    } else {
        for (int i = 0; i < n; i++) {
            if (s_beats(s, cards[i])) out[k++] = cards[i];
        }
        for (int i = 0; i < n; i++) {
            if (!s_beats(s, cards[i])) out[k++] = cards[i];
        }
    }
    memcpy(cards, out, (size_t)n * sizeof(int));
}

static int s_over(const s_search_t *s) {
    if (s->tricks_done >= s->max_tricks) return 1;
    for (int p = 0; p < s->n; p++) {
        if (s->hands[p]) return 0;
    }
    return 1;
}

static int s_node(s_search_t *s, int alpha, int beta);

static int s_after(s_search_t *s, int seat, int c, int alpha, int beta) {
    s_saved_t saved = s_play(s, seat, c);
    if (s->trick_len < s->n) {
        int v = s_node(s, alpha, beta);
        s_unplay(s, seat, c, saved);
        return v;
    }
    int winner = s->winning;
    uint64_t cards = 0;
    for (int i = 0; i < s->trick_len; i++) cards |= 1ull << s->trick[i];
    int won = s->side[winner], pts = 0;
    if (won) {
        s->side_tricks++;
        pts = s->points ? 1 + __builtin_popcountll(cards & S_SUIT) + ((cards >> S_DAME & 1) ? 5 : 0) : s->sign;
    } else {
        s->other_tricks++;
    }
    int trick[4], players[4], leader = s->leader, len = s->trick_len;
    memcpy(trick, s->trick, sizeof trick);
    memcpy(players, s->players, sizeof players);
    s->tricks_done++;
    s->leader = winner;
    for (int k = 0; k < s->n; k++) s->players[k] = (winner + k) % s->n;
    s->trick_len = 0;
    int v = pts + s_node(s, alpha - pts, beta - pts);
    memcpy(s->trick, trick, sizeof trick);
    memcpy(s->players, players, sizeof players);
    s->trick_len = len;
    s->leader = leader;
    s->tricks_done--;
    if (won) {
        s->side_tricks--;
    } else {
        s->other_tricks--;
    }
    s_unplay(s, seat, c, saved);
    return v;
}

static int s_node(s_search_t *s, int alpha, int beta) {
    if (s->aborted) return 0;
    s->nodes++;
    if (s->nodes > s->limit) {
        s->aborted = 1;
        return 0;
    }
    uint64_t key[4];
    uint32_t meta = 0;
    if (s->trick_len == 0) {
        if (s_over(s)) return s->points && s->side_tricks == S_HAND_SIZE ? 5 : 0; /* the sweep bonus */
        uint64_t live = 0;
        for (int p = 0; p < s->n; p++) live |= s->hands[p];
        int tricks = __builtin_popcountll(live) / s->n, lo, hi;
        if (s->points) {
            lo = 0;
            hi = tricks + __builtin_popcountll(live & S_SUIT) + ((live >> S_DAME & 1) ? 5 : 0) +
                 (s->other_tricks == 0 ? 5 : 0);
        } else {
            lo = s->sign > 0 ? 0 : -tricks;
            hi = s->sign > 0 ? tricks : 0;
        }
        if (hi <= alpha) return hi;
        if (lo >= beta) return lo;
        uint32_t marks = s_layout(s, key);
        int scorer_key = s->points && s->other_tricks == 0;
        meta = (uint32_t)s->leader | (uint32_t)(s->broken + 1) << 2 | (uint32_t)scorer_key << 4 | marks << 5 | 1u << 31;
        s_entry_t *entry = s_find(&s->tt, key, meta);
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
    int n = s_representatives(s_legal(s, seat), s_live(s), s->special, cards);
    s_ordered(s, seat, cards, n);
    int a0 = alpha, b0 = beta, best;
    if (s->side[seat]) {
        best = -S_INF;
        for (int i = 0; i < n; i++) {
            int v = s_after(s, seat, cards[i], alpha, beta);
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
        best = S_INF;
        for (int i = 0; i < n; i++) {
            int v = s_after(s, seat, cards[i], alpha, beta);
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
        if ((s->tt.used + 1) * 2 > s->tt.cap && !s_grow(&s->tt)) {
            s->aborted = s->oom = 1;
            return 0;
        }
        s_entry_t *entry = s_find(&s->tt, key, meta); /* looked up again: the table may have grown below */
        int lo = -S_INF, hi = S_INF;
        if (entry->meta) {
            lo = entry->lo;
            hi = entry->hi;
        } else {
            s->tt.used++;
            memcpy(entry->k, key, sizeof key);
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

static int s_probe(s_search_t *s, int seat, int c, int guess) {
    int lo = -S_INF, hi = S_INF, g = guess;
    while (lo < hi) {
        int beta = g == lo ? g + 1 : g;
        int v = s_after(s, seat, c, beta - 1, beta);
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

/* Set up a search of n seats: hands without the trick's cards, the trick in play order from `leader`. */
static int s_init(s_search_t *s, int n, const uint64_t *hands, int leader, const int *trick, int trick_len,
                  const int *side, int must_beat, int broken, int tricks_done, int max_tricks, int points, int sign,
                  uint64_t special, int side_tricks, int other_tricks, long long limit) {
    memset(s, 0, sizeof *s);
    s->n = n;
    for (int p = 0; p < n; p++) {
        s->hands[p] = hands[p];
        s->players[p] = (leader + p) % n;
        s->side[p] = side[p];
    }
    s->leader = leader;
    s->must_beat = must_beat;
    s->broken = broken;
    s->tricks_done = tricks_done;
    s->max_tricks = max_tricks;
    s->points = points;
    s->sign = sign;
    s->special = special;
    s->side_tricks = side_tricks;
    s->other_tricks = other_tricks;
    s->limit = limit;
    s->led = s->top_led = s->top_club = s->winning = -1;
    if (!s_grow(&s->tt)) return 0;
    for (int i = 0; i < trick_len; i++) {
        int p = s->players[s->trick_len];
        s->hands[p] |= 1ull << trick[i];
        s_play(s, p, trick[i]);
    }
    return 1;
}

/* The value of every legal card of the seat to act into values[card]; its legal cards in *legal_out. Returns 0 when
 * done, 1 past the node limit, 2 out of memory, 3 when the hand is over. */
static int s_root(s_search_t *s, int values[52], uint64_t *legal_out) {
    *legal_out = 0;
    if (s->trick_len == 0 && s_over(s)) return 3;
    int seat = s->players[s->trick_len];
    uint64_t legal = s_legal(s, seat), live = s_live(s);
    int cards[13];
    int n = s_representatives(legal, live, s->special, cards);
    s_ordered(s, seat, cards, n);
    int guess = 0;
    for (int i = 0; i < n; i++) {
        guess = values[cards[i]] = s_probe(s, seat, cards[i], guess);
        if (s->aborted) return s->oom ? 2 : 1;
    }
    for (uint64_t m = legal; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        values[c] = values[s_equivalent_to(c, legal, live, s->special)];
    }
    *legal_out = legal;
    return 0;
}

static void s_free(s_search_t *s) {
    free(s->tt.slots);
    s->tt.slots = NULL;
}

#endif
