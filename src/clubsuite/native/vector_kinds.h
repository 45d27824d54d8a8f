/* What every game's vector.h and native/vector_episode.h share: where an episode stands, who plays a seat (the kinds
 * vector.py gives, in native/vector_tables.pxi's SEAT_KINDS), and the spelling of actions of one id each. */
#ifndef CLUBS_VECTOR_KINDS_H
#define CLUBS_VECTOR_KINDS_H

#include <stdint.h>

enum { VT_PLAYING = 0, VT_ENDED = 1, VT_TRUNCATED = 2 };
enum { VT_RANDOM = 0, VT_HEURISTIC = 1, VT_LEARNED = 2, VT_OUTSIDE = 3 };

/* The ids of `legal` (a mask over ids below 64) as actions of one id each, in increasing order: a game's vt_spell
 * where every action is one id. Returns how many. */
static inline int vt_spell_ids(uint64_t legal, int *start, int *ids) {
    int count = 0;
    start[0] = 0;
    for (; legal; legal &= legal - 1) {
        ids[count] = __builtin_ctzll(legal);
        count++;
        start[count] = count;
    }
    return count;
}

#endif
