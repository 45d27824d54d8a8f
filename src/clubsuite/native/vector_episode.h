/* The episodes of a game's vector tables, the same for every game: who plays each seat, the learned seats' choices,
 * reset and the step with its next-step autoreset, over the few things a game's vector.h defines before it includes
 * this file:
 *   vector_table_t  its table, with `episode` (the episode number), `done` (the episode ended at the step before),
 *                   `state` (VT_PLAYING, VT_ENDED when the match or hand the episode covers is over, or VT_TRUNCATED
 *                   when it was cut at the table's hand limit), `learner` (the seat whose observation shows when no
 *                   seat played from outside is to act), `bots[s]` (who plays seat s: VT_RANDOM, VT_HEURISTIC,
 *                   VT_LEARNED or VT_OUTSIDE) and `gained[s]` (seat s's rewards since they were last taken: every
 *                   action adds to it, a hand's score or the match's result as the table's settings say);
 *   VT_SEATS        the most seats of a table, VT_IDS the action ids, VT_MAX_ACTIONS the longest legal list and
 *                   VT_MAX_SPELLING the most ids one action is spelled with;
 *   vt_begin        start episode v->episode (its match, seats, first deal), playing nothing;
 *   vt_seats        the table's seats;
 *   vt_to_act       the seat to act, or -1 once the episode is over;
 *   vt_bot          the random or heuristic bot of the seat to act plays a whole action;
 *   vt_id           one id of the seat to act (an action's spelling goes id by id: the action is taken at its last
 *                   id), or 0 where the seat may not pick it now, changing nothing;
 *   vt_spell        the seat to act's legal actions spelled as ids (rl.py's spelling), or -1 where they would not
 *                   fit in VT_MAX_ACTIONS;
 *   vt_picked_slot  where the observation's `picked` slot starts;
 *   vt_observe      a seat's observation and its mask (the ids it may pick now: none unless it is to act).
 * `scratch` is the batch's working memory (VT_SCRATCH bytes; NULL where the game needs none). A learned seat plays
 * what clubsuite.bots.policy.PolicyBot plays with the same weights (native/policy.h). The glue that checks the
 * arguments and steps a batch is native/vector_tables.pxi. */
#ifndef CLUBS_VECTOR_EPISODE_H
#define CLUBS_VECTOR_EPISODE_H

#include <stdint.h>

#include "policy.h"
#include "vector_kinds.h"

/* What the learned seats of a batch share: the policy's layers (NULL where no seat is learned) and the memory of one
 * decision (the legal actions spelled, the observation with nothing picked, the search's). */
typedef struct {
    const pn_net_t *net;
    int *start, *ids, *ints;
    float *base, *floats;
    int8_t *mask;
} vt_learned_t;

/* The learned seat to act plays the action its policy finds likeliest. A legal list too long to spell (never seen:
 * see VT_MAX_ACTIONS) stops the match as truncated rather than guess. */
static void vt_learned(vector_table_t *v, void *scratch, vt_learned_t *L) {
    int seat = vt_to_act(v), count = vt_spell(v, scratch, L->start, L->ids);
    if (count <= 0) {
        v->state = VT_TRUNCATED;
        return;
    }
    vt_observe(v, seat, L->base, L->mask, scratch);
    pn_search_t S = {.net = L->net, .base = L->base, .picked = vt_picked_slot(v), .actions = count,
                     .start = L->start, .ids = L->ids, .ints = L->ints, .floats = L->floats};
    int a = pn_search(&S);
    for (int p = L->start[a]; p < L->start[a + 1]; p++) {
        int took = vt_id(v, L->ids[p], scratch);
        (void)took; /* a spelled legal action: every id is taken */
    }
}

/* The seats not played from outside act until one that is is to act, or the episode's end. */
static void vt_run(vector_table_t *v, void *scratch, vt_learned_t *L) {
    int seat;
    while ((seat = vt_to_act(v)) >= 0 && v->bots[seat] != VT_OUTSIDE) {
        if (v->bots[seat] == VT_LEARNED) {
            vt_learned(v, scratch, L);
        } else {
            vt_bot(v, scratch);
        }
    }
}

/* The seat whose observation a step shows: the seat played from outside that is to act, else the learner's. */
static int vt_shown(const vector_table_t *v) {
    int seat = vt_to_act(v);
    return seat >= 0 ? seat : v->learner;
}

/* Start the table's episode v->episode and play to the first turn of a seat played from outside; the seat shown, its
 * observation and mask. Nothing gained before that turn counts (no hand ends before every seat has played). */
static int vt_reset(vector_table_t *v, float *obs, int8_t *mask, void *scratch, vt_learned_t *L) {
    vt_begin(v, scratch);
    vt_run(v, scratch, L);
    for (int s = 0; s < VT_SEATS; s++) v->gained[s] = 0.0;
    v->done = 0;
    int shown = vt_shown(v);
    vt_observe(v, shown, obs, mask, scratch);
    return shown;
}

/* One step of the table (the environment's step): a table whose episode ended at the step before starts its next
 * one, ignoring `id` (next-step autoreset); an id the seat to act may not pick ends the episode with -1 for that seat,
 * the state unchanged; otherwise the id, then the seats not played from outside to the next turn of one that is.
 * `rewards` (one per seat) gets what each seat gained; returns the seat shown. */
static int vt_step(vector_table_t *v, int64_t id, float *obs, int8_t *mask, double *rewards, uint8_t *terminated,
                   uint8_t *truncated, uint8_t *illegal, void *scratch, vt_learned_t *L) {
    int seats = vt_seats(v);
    for (int s = 0; s < seats; s++) rewards[s] = 0.0;
    *terminated = *truncated = *illegal = 0;
    if (v->done) {
        v->episode++;
        return vt_reset(v, obs, mask, scratch, L);
    }
    int seat = vt_to_act(v);
    if (id < 0 || id >= VT_IDS || !vt_id(v, (int)id, scratch)) {
        *illegal = *terminated = 1;
        rewards[seat] = -1.0;
    } else {
        vt_run(v, scratch, L);
        for (int s = 0; s < seats; s++) {
            rewards[s] = v->gained[s];
            v->gained[s] = 0.0;
        }
        *terminated = v->state == VT_ENDED;
        *truncated = v->state == VT_TRUNCATED;
    }
    v->done = *terminated || *truncated;
    int shown = vt_shown(v);
    vt_observe(v, shown, obs, mask, scratch);
    return shown;
}

#endif
