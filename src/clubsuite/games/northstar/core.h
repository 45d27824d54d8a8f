/* North Star's CLUBS in C: the plays (NS-3, NS-9, NS-11) listed in the engine's order, a round (NS-4, NS-5, NS-8,
 * NS-10), its score (NS-2, NS-5, NS-8, NS-10), the kept pack between rounds (NS-6) and the match's end (NS-7).
 *
 * This restates combos.py, hand.py, deal.py and match.py beside it for speed. Cards are the engine's card indices less
 * NUMBERED_BASE (64): card c = suit * 15 + value - 1 (clubs first, in bits 0..14), so a hand is one 64-bit mask and
 * the engine's mask is this one shifted left by 64. The random bot picks legal[floor(random() * len(legal))], so the
 * legal actions are listed exactly in the engine's order (NorthstarLegal: the calls, then combos.generate's plays);
 * tests/northstar/test_native_northstar.py plays thousands of random matches through both and compares every legal
 * list, event and score.
 */
#ifndef CLUBS_NORTHSTAR_H
#define CLUBS_NORTHSTAR_H

#include "kernel.h" /* src/clubsuite/native/kernel.h */

#define NS_MAX_SEATS 6
#define NS_HAND 10
#define NS_CARDS 60
#define NS_DECK ((1ull << NS_CARDS) - 1)
#define NS_TOP 15
#define NS_VALUE_BITS 0x7FFFull
#define NS_ONE_OF_EACH_SUIT (1ull | 1ull << 15 | 1ull << 30 | 1ull << 45)
#define NS_FIFTEENS (NS_ONE_OF_EACH_SUIT << 14)
#define NS_CLUBS NS_VALUE_BITS
#define NS_MAX_ACTIONS 8192 /* room for the longest legal list (longest found: 2,403 plays, four wild 15s leading) */

enum { NS_SINGLE = 0, NS_SET = 1, NS_RUN = 2, NS_PASS = 3, NS_DOUBLE = 4 }; /* an action's kind */
enum { NS_NEXT_ROUND = 0, NS_RESHUFFLE = 1 };                             /* the `leftover` option (NS-6) */
/* What an action did besides itself, as bits (a step may do several, always in the engine's order of events:
 * going out, a trick taken, then the last turn or the round's end). */
enum { NS_EV_OUT = 1, NS_EV_TRICK = 2, NS_EV_LAST_TURN = 4, NS_EV_ENDED = 8 };

/* A play (kinds NS_SINGLE..NS_RUN: its cards and the value its top card counts as) or a call (NS_PASS, NS_DOUBLE). */
typedef struct {
    uint64_t cards;
    int8_t kind, high;
} ns_action_t;

typedef struct {
    int players, n_teams; /* a seat's team is seat % n_teams (NS-10); without team play n_teams is players */
    int teams;            /* team play (NS-10): the round ends once one team alone holds cards */
    int double_or_nothing, wild, crazy, leftover;
    int goal;              /* the total that ends the match (NS-7, NS-10) */
    int club_points[NS_TOP]; /* the points of the clubs 1..15 (NS-2) */
} ns_options_t;

/* One round. `top.cards == 0` when the next play leads a trick. Seats are -1 where the engine has None. */
typedef struct {
    uint64_t hands[NS_MAX_SEATS];
    uint64_t won[NS_MAX_SEATS];
    uint64_t trick_cards;
    uint64_t dealt;
    ns_action_t top;
    int8_t n, dealer, to_act, top_seat, last_turn, first_out;
    int8_t n_out, holding, passes; /* players gone out, players holding cards, passes since the last play */
    int8_t bonus[NS_MAX_SEATS]; /* -1: none taken */
    uint8_t doubled, started;   /* by seat, as bits */
    int scores[NS_MAX_SEATS];
} ns_round_t;

/* The details of what the last action did (the NS_EV_* bits tell which are set). */
typedef struct {
    uint64_t trick_cards;
    int trick_seat, at_once, out_seat, bonus, last_turn, end_last, end_team;
} ns_events_t;

typedef struct {
    ns_round_t round;
    uint64_t seed;
    uint64_t stock;    /* the cards not dealt since they were last shuffled (NS-6) */
    uint64_t discards; /* the cards of the rounds played since the discards were last shuffled in (NS-6) */
    int pack_stock, pack_discards; /* the counts of both before the last deal (the engine's match.packs) */
    int rounds, scored, over, winners; /* rounds dealt and scored; winners: the winning seats as bits */
    int totals[NS_MAX_SEATS];
} ns_match_t;

/* The bonus cards, highest first, by player count (NS-1); the 0 card is given at the round's end (NS-5). */
static const int NS_BONUS[NS_MAX_SEATS + 1][5] = {
    {0}, {0}, {5}, {5, 2}, {8, 5, 2}, {10, 8, 5, 2}, {12, 10, 8, 5, 2},
};

static inline uint64_t ns_value_mask(int v) { return NS_ONE_OF_EACH_SUIT << (v - 1); }
static inline int ns_value_of(int card) { return card % 15 + 1; }

/* The values among `mask`'s cards as a 15-bit mask (bit v - 1 for value v): combos.values_held. */
static inline int ns_values_held(uint64_t mask) {
    return (int)((mask | mask >> 15 | mask >> 30 | mask >> 45) & NS_VALUE_BITS);
}

/* The cards of a value above v (combos._ABOVE). */
static inline uint64_t ns_above(int v) {
    uint64_t values = NS_VALUE_BITS & ~((1ull << v) - 1); /* bits v..14: values v + 1..15 */
    return values * NS_ONE_OF_EACH_SUIT;
}

/* -- listing the plays (combos.generate) --------------------------------------------------------------------- */

typedef struct {
    ns_action_t *out;
    int n, overflow;
} ns_list_t;

static inline void ns_emit(ns_list_t *l, uint64_t cards, int kind, int high) {
    if (l->n >= NS_MAX_ACTIONS) {
        l->overflow = 1;
        return;
    }
    l->out[l->n].cards = cards;
    l->out[l->n].kind = (int8_t)kind;
    l->out[l->n].high = (int8_t)high;
    l->n++;
}

/* The cards that may make a single or set of value v (combos._group): the value's own cards in suit order, then the
 * wild 15s standing for it in suit order (NS-3, NS-9); returns how many. */
static inline int ns_group_bits(int v, uint64_t items, uint64_t bits[8]) {
    uint64_t own = items & ns_value_mask(v), rest = items & ~own;
    int n = 0;
    for (uint64_t m = own; m; m &= m - 1) bits[n++] = m & -m;
    for (uint64_t m = rest; m; m &= m - 1) bits[n++] = m & -m;
    return n;
}

static inline void ns_emit_singles(ns_list_t *l, int v, uint64_t items) {
    uint64_t bits[8];
    int n = ns_group_bits(v, items, bits);
    for (int i = 0; i < n; i++) ns_emit(l, bits[i], NS_SINGLE, v);
}

/* The sets of value v from `items` in the engine's subset order (every pick of the group's cards, counted up as a
 * binary number, of two cards or more), keeping those of `size` cards (0: any), or under Crazy CLUBS (crazy_size > 0)
 * those that beat a set of crazy_size cards of value crazy_high: more cards, or as many of a higher value (NS-11). */
static void ns_emit_sets(ns_list_t *l, int v, uint64_t items, int size, int crazy_size, int crazy_high) {
    uint64_t bits[8];
    int n = ns_group_bits(v, items, bits);
    for (int pick = 1; pick < 1 << n; pick++) {
        int k = __builtin_popcount((unsigned)pick);
        if (k < 2 || (size && k != size)) continue;
        if (crazy_size && !(k > crazy_size || (k == crazy_size && v > crazy_high))) continue;
        uint64_t mask = 0;
        for (int i = 0; i < n; i++)
            if (pick >> i & 1) mask |= bits[i];
        ns_emit(l, mask, NS_SET, v);
    }
}

/* Which runs may be played (combos' `floors`): size0 cards with a top of floor0 or more, and, when `longer`, any
 * longer run whatever its top (a lead: size0 2, floor0 1; Crazy CLUBS, NS-11). */
typedef struct {
    int size0, floor0, longer;
} ns_floors_t;

static inline int ns_run_allowed(const ns_floors_t *f, int size, int high) {
    if (size == f->size0) return high >= f->floor0;
    return size > f->size0 && f->longer;
}

/* Every run from `low` to `high` of the natural cards `naturals` and the wild 15s `wild_bits`, in the order the
 * engine's partial runs grow (combos._run_plays, combos._wild_runs): value by value from the lowest, each value's own
 * cards in suit order then a wild 15 in its place; for each such choice, the sets of wild 15s of the number used in
 * the order of their picks (`wild_sets[used]`). */
typedef struct {
    uint64_t by_value[NS_TOP + 2];
    uint64_t wild_sets[5][6];
    int n_wild_sets[5];
    int n_wild;
} ns_runs_t;

static void ns_runs_dfs(ns_list_t *l, const ns_runs_t *r, int v, int high, uint64_t mask, int used) {
    if (v > high) {
        for (int i = 0; i < r->n_wild_sets[used]; i++) ns_emit(l, mask | r->wild_sets[used][i], NS_RUN, high);
        return;
    }
    for (uint64_t m = r->by_value[v]; m; m &= m - 1) ns_runs_dfs(l, r, v + 1, high, mask | (m & -m), used);
    if (used < r->n_wild) ns_runs_dfs(l, r, v + 1, high, mask, used + 1);
}

/* The runs that `floors` allows, by lowest value, then length (NS-3); wild 15s fill places (NS-9). */
static void ns_emit_runs(ns_list_t *l, uint64_t naturals, uint64_t wilds, const ns_floors_t *floors) {
    ns_runs_t r;
    uint64_t wild_bits[4];
    r.n_wild = 0;
    for (uint64_t m = wilds; m; m &= m - 1) wild_bits[r.n_wild++] = m & -m;
    for (int k = 0; k <= 4; k++) r.n_wild_sets[k] = 0;
    for (int pick = 0; pick < 1 << r.n_wild; pick++) {
        uint64_t mask = 0;
        for (int i = 0; i < r.n_wild; i++)
            if (pick >> i & 1) mask |= wild_bits[i];
        int k = __builtin_popcount((unsigned)pick);
        r.wild_sets[k][r.n_wild_sets[k]++] = mask;
    }
    r.by_value[0] = r.by_value[NS_TOP + 1] = 0;
    for (int v = 1; v <= NS_TOP; v++) r.by_value[v] = naturals & ns_value_mask(v);
    int held = ns_values_held(naturals);
    for (int low = 1; low < NS_TOP; low++) {
        if (!wilds && !(held >> (low - 1) & 1)) continue;
        for (int high = low + 1; high <= NS_TOP; high++) {
            if (!wilds && !(held >> (high - 1) & 1)) break; /* without wild 15s a run needs every value */
            if (ns_run_allowed(floors, high - low + 1, high)) ns_runs_dfs(l, &r, low, high, 0, 0);
        }
    }
}

/* Every play of `hand` that may be played on `prev` (NULL: a lead), in combos.generate's order: singles, then sets,
 * by value (a value's own cards before the wild 15s standing for it), then runs by lowest value and length. */
static void ns_generate(ns_list_t *l, uint64_t hand, const ns_action_t *prev, int wild, int crazy) {
    uint64_t wilds = wild ? hand & NS_FIFTEENS : 0;
    if (prev == NULL) {
        /* NS-3: any single, set or run; NS-9: with a wild 15 every value has a single at least */
        if (wilds) {
            for (int v = 1; v <= NS_TOP; v++) ns_emit_singles(l, v, (hand & ns_value_mask(v)) | wilds);
            for (int v = 1; v <= NS_TOP; v++) ns_emit_sets(l, v, (hand & ns_value_mask(v)) | wilds, 0, 0, 0);
        } else {
            int held = ns_values_held(hand);
            for (int v = 1; v <= NS_TOP; v++)
                if (held >> (v - 1) & 1) ns_emit_singles(l, v, hand & ns_value_mask(v));
            for (int v = 1; v <= NS_TOP; v++)
                if (held >> (v - 1) & 1) ns_emit_sets(l, v, hand & ns_value_mask(v), 0, 0, 0);
        }
        ns_floors_t lead = {2, 1, 1};
        ns_emit_runs(l, hand & ~wilds, wilds, &lead);
        return;
    }
    int size = __builtin_popcountll(prev->cards), high = prev->high;
    if (prev->kind == NS_RUN) {
        /* NS-3: a run of as many cards with a higher top; NS-11: or a longer run, any top */
        ns_floors_t floors = {size, high + 1, crazy};
        ns_emit_runs(l, hand & ~wilds, wilds, &floors);
    } else if (crazy) {
        /* NS-11: a single counts as a set of one; more cards beat fewer, as many need a higher value */
        for (int v = 1; v <= NS_TOP; v++) {
            uint64_t items = (hand & ns_value_mask(v)) | wilds;
            if (items && size == 1 && v > high) ns_emit_singles(l, v, items);
        }
        for (int v = 1; v <= NS_TOP; v++) {
            uint64_t items = (hand & ns_value_mask(v)) | wilds;
            if (items) ns_emit_sets(l, v, items, 0, size, high);
        }
    } else {
        /* NS-3, NS-9: as many cards of a higher value, the wild 15s standing for any of them */
        for (int v = high + 1; v <= NS_TOP; v++) {
            uint64_t items = (hand & ns_value_mask(v)) | wilds;
            if (prev->kind == NS_SINGLE) {
                ns_emit_singles(l, v, items);
            } else {
                ns_emit_sets(l, v, items, size, 0, 0);
            }
        }
    }
}

/* The legal actions of the seat to act (NorthstarLegal): pass when following (NS-4), double while it may be called
 * (NS-8), then the plays. Returns how many, or -1 where they would not fit in NS_MAX_ACTIONS. */
static int ns_legal(const ns_round_t *r, const ns_options_t *o, ns_action_t *out) {
    ns_list_t l = {out, 0, 0};
    int seat = r->to_act;
    if (seat < 0) return 0;
    int following = r->top.cards != 0;
    if (following) ns_emit(&l, 0, NS_PASS, 0);
    if (o->double_or_nothing && !(r->doubled >> seat & 1) && !(r->started >> seat & 1)) ns_emit(&l, 0, NS_DOUBLE, 0);
    ns_generate(&l, r->hands[seat], following ? &r->top : NULL, o->wild, o->crazy);
    return l.overflow ? -1 : l.n;
}

/* -- a round (hand.py) ---------------------------------------------------------------------------------------- */

static void ns_round_start(ns_round_t *r, const uint64_t *hands, int n, int dealer) {
    memset(r, 0, sizeof *r);
    r->n = (int8_t)n;
    r->dealer = (int8_t)dealer;
    for (int s = 0; s < n; s++) {
        r->hands[s] = hands[s];
        r->dealt |= hands[s];
        r->bonus[s] = -1;
        if (hands[s]) r->holding++;
    }
    r->to_act = (int8_t)((dealer + 1) % n); /* NS-4: the dealer's left leads */
    r->top_seat = r->last_turn = r->first_out = -1;
}

/* The next seat clockwise after `seat` that holds cards (empty hands are skipped; `seat` itself last). */
static inline int ns_next_holder(const ns_round_t *r, int seat) {
    int s = seat;
    for (int i = 0; i < r->n; i++) {
        s = s + 1 < r->n ? s + 1 : 0;
        if (r->hands[s]) return s;
    }
    return -1;
}

static void ns_take_trick(ns_round_t *r, int winner, int at_once, ns_events_t *ev) {
    r->won[winner] |= r->trick_cards;
    ev->trick_seat = winner;
    ev->trick_cards = r->trick_cards;
    ev->at_once = at_once;
    r->trick_cards = 0;
    r->top.cards = 0;
    r->top_seat = -1;
    r->passes = 0;
}

static int ns_club_points(uint64_t won, const ns_options_t *o) { /* NS-2 */
    int total = 0;
    for (uint64_t m = won & NS_CLUBS; m; m &= m - 1) total += o->club_points[__builtin_ctzll(m)];
    return total;
}

/* The round ends and is scored: `last` left holding cards (-1: none), `team` alone holding cards (-1: none). */
static void ns_end(ns_round_t *r, const ns_options_t *o, int last, int team, ns_events_t *ev) {
    r->to_act = -1;
    r->last_turn = -1;
    int zero = last >= 0 && r->n > 2; /* NS-5: the 0 card; with two players the last player keeps their clubs */
    if (zero) r->bonus[last] = 0;
    for (int s = 0; s < r->n; s++) {
        int points = ns_club_points(r->won[s], o) + (r->bonus[s] > 0 ? r->bonus[s] : 0);
        if (zero && s == last) points = 0;                           /* NS-5: the 0 card scores nothing */
        if (r->doubled >> s & 1) points = s == r->first_out ? 2 * points : 0; /* NS-8 */
        if (team >= 0 && s % o->n_teams == team) points = 0;          /* NS-10: bonus cards included */
        r->scores[s] = points;
    }
    ev->end_last = last;
    ev->end_team = team;
}

/* The seat to act plays `a` (a legal play). */
static int ns_play(ns_round_t *r, const ns_options_t *o, const ns_action_t *a, ns_events_t *ev) {
    int seat = r->to_act;
    uint64_t left = r->hands[seat] &= ~a->cards;
    r->started |= (uint8_t)(1u << seat);
    r->trick_cards |= a->cards;
    r->top = *a;
    r->top_seat = (int8_t)seat;
    r->passes = 0;
    int at_once = a->high == NS_TOP && !o->crazy; /* NS-4, NS-9 (a 15 standing for 15), NS-11 */
    if (r->last_turn >= 0) {
        /* NS-5: the last player's final turn: the trick is theirs, and they score nothing even if now empty */
        ns_take_trick(r, seat, at_once, ev);
        ns_end(r, o, seat, -1, ev);
        return NS_EV_TRICK | NS_EV_ENDED;
    }
    if (left) {
        if (at_once) { /* NS-4: the 15 takes the trick and its player leads */
            r->to_act = (int8_t)seat;
            ns_take_trick(r, seat, 1, ev);
            return NS_EV_TRICK;
        }
        r->to_act = (int8_t)ns_next_holder(r, seat);
        return 0;
    }
    /* NS-5: going out takes the highest bonus card left (NS-1: one for each player who can go out) */
    int flags = NS_EV_OUT;
    r->holding--;
    r->bonus[seat] = (int8_t)NS_BONUS[r->n][r->n_out];
    if (r->n_out++ == 0) r->first_out = (int8_t)seat;
    ev->out_seat = seat;
    ev->bonus = r->bonus[seat];
    if (at_once) {
        ns_take_trick(r, seat, 1, ev);
        flags |= NS_EV_TRICK;
    }
    if (o->teams) {
        /* NS-10, checked before NS-5: one team alone holds cards; an unfinished trick goes to the last player */
        int team = -1, several = 0;
        for (int s = 0; s < r->n; s++) {
            if (!r->hands[s]) continue;
            if (team < 0) {
                team = s % o->n_teams;
            } else if (s % o->n_teams != team) {
                several = 1;
            }
        }
        if (team >= 0 && !several) {
            if (r->trick_cards) {
                ns_take_trick(r, seat, 0, ev);
                flags |= NS_EV_TRICK;
            }
            ns_end(r, o, -1, team, ev);
            return flags | NS_EV_ENDED;
        }
    }
    if (r->holding == 1) {
        int last = ns_next_holder(r, seat);
        if (!r->trick_cards) { /* NS-5: no trick in progress, the round simply ends */
            ns_end(r, o, last, -1, ev);
            return flags | NS_EV_ENDED;
        }
        r->last_turn = r->to_act = (int8_t)last; /* NS-5: one last turn on the trick */
        ev->last_turn = last;
        return flags | NS_EV_LAST_TURN;
    }
    r->to_act = (int8_t)ns_next_holder(r, seat); /* NS-4: a player who went out neither leads nor follows */
    return flags;
}

/* The seat to act passes (NS-4: it stays in the trick). */
static int ns_pass(ns_round_t *r, const ns_options_t *o, ns_events_t *ev) {
    int seat = r->to_act, top_seat = r->top_seat;
    if (r->last_turn >= 0) { /* NS-5: the last player lets the trick go, and the round ends */
        ns_take_trick(r, top_seat, 0, ev);
        ns_end(r, o, seat, -1, ev);
        return NS_EV_TRICK | NS_EV_ENDED;
    }
    r->passes++;
    if (r->passes >= r->holding - (r->hands[top_seat] ? 1 : 0)) {
        /* NS-4: everyone else holding cards passed since the last play; its player leads, or the next holder */
        r->to_act = (int8_t)(r->hands[top_seat] ? top_seat : ns_next_holder(r, top_seat));
        ns_take_trick(r, top_seat, 0, ev);
        return NS_EV_TRICK;
    }
    r->to_act = (int8_t)ns_next_holder(r, seat);
    return 0;
}

/* The seat to act takes the legal action `a`; returns the NS_EV_* bits, the details in `ev`. */
static int ns_apply(ns_round_t *r, const ns_options_t *o, const ns_action_t *a, ns_events_t *ev) {
    if (a->kind == NS_DOUBLE) { /* NS-8: the call does not use up the turn */
        r->doubled |= (uint8_t)(1u << r->to_act);
        return 0;
    }
    if (a->kind == NS_PASS) return ns_pass(r, o, ev);
    return ns_play(r, o, a, ev);
}

/* -- a match (deal.py, match.py) ------------------------------------------------------------------------------ */

static void ns_match_start(ns_match_t *m, uint64_t seed) {
    memset(m, 0, sizeof *m);
    m->seed = seed;
    m->stock = NS_DECK; /* all 60 cards are undealt before the first round */
    m->round.to_act = -1;
}

/* The hands the shuffle ``order`` (every card once) gives n players from the dealer's left when ``stock`` is undealt
 * and ``discards`` lie on the pile (deal.py's deal_from_shuffle, NS-6): the undealt cards first in the shuffle's
 * order, then the discards when they run short; card k to seat (dealer + 1 + k % n) % n. Returns how many cards
 * there were to deal: fewer than NS_HAND * n and ``hands`` is left unwritten. */
static int ns_deal_order(const int *order, int n, int dealer, uint64_t stock, uint64_t discards, uint64_t *hands) {
    int need = NS_HAND * n, dealt[NS_CARDS], count = 0;
    for (int k = 0; k < NS_CARDS; k++)
        if (stock >> order[k] & 1) dealt[count++] = order[k];
    if (count < need)
        for (int k = 0; k < NS_CARDS; k++)
            if (discards >> order[k] & 1) dealt[count++] = order[k];
    if (count < need) return count;
    for (int s = 0; s < n; s++) hands[s] = 0;
    for (int k = 0; k < need; k++) hands[(dealer + 1 + k % n) % n] |= 1ull << dealt[k];
    return count;
}

/* Deal the next round as runner.deal_next does: the shuffle of derive_seed(match seed, round index) (deal.py's
 * NorthstarShuffle.from_seed), made into hands from the kept pack (ns_deal_order). */
static void ns_deal(ns_match_t *m, const ns_options_t *o, mt_t *deals) {
    int n = o->players, dealer = m->rounds % n, need = NS_HAND * n;
    int order[NS_CARDS];
    mt_seed(deals, derive_seed1(m->seed, (uint64_t)m->rounds));
    shuffled(deals, NS_CARDS, order);
    uint64_t stock = o->leftover == NS_RESHUFFLE ? NS_DECK : m->stock;
    uint64_t discards = o->leftover == NS_RESHUFFLE ? 0 : m->discards;
    uint64_t hands[NS_MAX_SEATS] = {0}, cards = 0;
    ns_deal_order(order, n, dealer, stock, discards, hands); /* the whole pack holds 60 >= 10 * n cards */
    for (int s = 0; s < n; s++) cards |= hands[s];
    m->pack_stock = __builtin_popcountll(stock);
    m->pack_discards = __builtin_popcountll(discards);
    if (o->leftover == NS_NEXT_ROUND) {
        if (m->pack_stock >= need) {
            m->stock = stock & ~cards;
        } else { /* the discards were shuffled in: what is left of both is the new stock */
            m->stock = (stock | discards) & ~cards;
            m->discards = 0;
        }
    }
    m->rounds++;
    ns_round_start(&m->round, hands, n, dealer);
}

/* The round just ended is added to the totals and every card of it goes to the discards (NS-6); then the end
 * (NS-7, NS-10): once a team's total (each player's alone without teams) reaches the goal, the highest wins; a
 * tie at the top plays another round. */
static void ns_score(ns_match_t *m, const ns_options_t *o) {
    int team_totals[NS_MAX_SEATS] = {0}, top = 0, leaders = 0, leader = 0;
    for (int s = 0; s < o->players; s++) m->totals[s] += m->round.scores[s];
    m->discards |= m->round.dealt;
    m->scored++;
    for (int s = 0; s < o->players; s++) team_totals[s % o->n_teams] += m->totals[s];
    for (int t = 0; t < o->n_teams; t++) {
        if (t == 0 || team_totals[t] > top) {
            top = team_totals[t];
            leader = t;
            leaders = 1;
        } else if (team_totals[t] == top) {
            leaders++;
        }
    }
    if (top < o->goal || leaders != 1) return;
    m->over = 1;
    m->winners = 0;
    for (int s = 0; s < o->players; s++)
        if (s % o->n_teams == leader) m->winners |= 1 << s;
}

/* A match as clubsuite.runner.play_match plays it with the random bot in every seat (first dealer seat 0), the
 * bots drawing floor(random() * len(legal)) from one generator seeded derive_seed(match seed, 0x5EED). `actions`
 * has room for NS_MAX_ACTIONS. Returns the decisions the bots made (the benchmarks' count of actions), or -1
 * where a legal list would not fit (never seen; checked). */
static long long ns_random_match(ns_match_t *m, const ns_options_t *o, uint64_t seed, mt_t *deals, mt_t *bots,
                           ns_action_t *actions) {
    ns_events_t ev;
    long long decisions = 0;
    ns_match_start(m, seed);
    mt_seed(bots, derive_seed1(seed, 0x5EED));
    while (!m->over) {
        ns_deal(m, o, deals);
        while (m->round.to_act >= 0) {
            int n = ns_legal(&m->round, o, actions);
            if (n <= 0) return -1;
            ns_apply(&m->round, o, &actions[mt_below(bots, n)], &ev);
            decisions++;
        }
        ns_score(m, o);
    }
    return decisions;
}

#endif
