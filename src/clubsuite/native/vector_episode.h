/* The episodes of a game's vector tables, the same for every game: reset and the step with its next-step autoreset,
 * over the few things a game's vector.h defines before it includes this file:
 *   vector_table_t  its table, with `episode` (the episode number), `done` (the episode ended at the step before)
 *                   and `state` (VT_PLAYING, VT_ENDED when the match or hand the episode covers is over, or
 *                   VT_TRUNCATED when it was cut at the table's hand limit);
 *   vt_start        start episode v->episode and play the bots to the learner's turn;
 *   vt_learner      play the learner's id and the bots to its next turn, giving the learner's reward; or give -1
 *                   and set *illegal, changing nothing, where the learner may not pick the id now;
 *   vt_observe      the learner's observation and mask.
 * `scratch` is the batch's working memory (VT_SCRATCH bytes; NULL where the game needs none). The glue that checks
 * the arguments and steps a batch is native/vector_tables.pxi. */
#ifndef CLUBS_VECTOR_EPISODE_H
#define CLUBS_VECTOR_EPISODE_H

#include <stdint.h>

enum { VT_PLAYING = 0, VT_ENDED = 1, VT_TRUNCATED = 2 };

/* Start the table's episode v->episode and play the bots to the learner's turn; its observation and mask. */
static void vt_reset(vector_table_t *v, float *obs, int8_t *mask, void *scratch) {
    vt_start(v, scratch);
    v->done = 0;
    vt_observe(v, obs, mask, scratch);
}

/* One step of the table (the environment's step): a table whose episode ended at the step before starts its next
 * one, ignoring `id` (next-step autoreset); an id the learner may not pick ends the episode with -1, the state
 * unchanged; otherwise the id, then the bots to the learner's next turn. */
static void vt_step(vector_table_t *v, int64_t id, float *obs, int8_t *mask, double *reward, uint8_t *terminated,
                    uint8_t *truncated, uint8_t *illegal, void *scratch) {
    *reward = 0.0;
    *terminated = *truncated = *illegal = 0;
    if (v->done) {
        v->episode++;
        vt_reset(v, obs, mask, scratch);
        return;
    }
    *reward = vt_learner(v, id, scratch, illegal);
    if (*illegal) {
        *terminated = 1;
    } else {
        *terminated = v->state == VT_ENDED;
        *truncated = v->state == VT_TRUNCATED;
    }
    v->done = *terminated || *truncated;
    vt_observe(v, obs, mask, scratch);
}

#endif
