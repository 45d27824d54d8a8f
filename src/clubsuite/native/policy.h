/* A policy network's scores and its choice, in C: the arithmetic of clubsuite.bots.policy, operation for operation,
 * so that a learned seat played in a game's kernel (its vector tables) chooses what the engine's learned bot chooses.
 *
 * Scores (pn_row): a multilayer perceptron, ReLU between layers, computed one row at a time in a fixed order: each
 * output starts at its bias and adds input i's product in increasing i, in single precision, every product and sum
 * rounded on its own (setup.py builds with -ffp-contract=off). A row's scores are therefore the same bits whatever
 * batch it is computed in, which a BLAS product does not promise (its order changes with the batch's size). An input
 * of zero adds nothing and is skipped (a product of 0 added changes a sum only in the sign of a zero: a hidden unit's
 * ReLU makes every zero +0 and the last layer adds +0, so no sign of zero ever shows). bots/policy.py's NumPy
 * statement of the same sums is the fallback where this is not built.
 *
 * Choice (pn_choose): every legal action is spelled as ids; each id is scored on the row of the observation with
 * the ids before it picked. An id's log-probability on its row is its score less log-sum-exp over the ids allowed
 * after the same prefix (in double precision: the largest allowed score, plus the log of the sum of exp(score less
 * it) taken in increasing id order); an action's is the sum of its ids' in spelling order. The likeliest action is
 * chosen, the lowest id sequence first among equals: bots/policy.py's _joint and PolicyBot.choose, the same libm
 * calls on the same doubles in the same order.
 */
#ifndef CLUBS_POLICY_H
#define CLUBS_POLICY_H

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { PN_MAX_LAYERS = 16, PN_MAX_IDS = 128, PN_MAX_WIDTH = 4096 };

typedef struct {
    int layers;
    int width[PN_MAX_LAYERS + 1]; /* width[0] inputs, width[k + 1] the outputs of layer k */
    const float *w[PN_MAX_LAYERS]; /* layer k's weights, width[k] rows of width[k + 1] (inputs by outputs) */
    const float *b[PN_MAX_LAYERS]; /* layer k's biases */
    int most;                      /* the widest layer's outputs */
} pn_net_t;

/* acc[j] += x * w[j] for j < m, each product and sum rounded on its own. Compiled for AVX2 too where the processor
 * has it: the same operations on wider registers, so the same bits. */
__attribute__((target_clones("avx2", "default"))) static void pn_add_row(float *restrict acc, const float *restrict w,
                                                                          float x, int m) {
    for (int j = 0; j < m; j++) acc[j] += x * w[j];
}

/* Four rows at once, in their order: acc[j] += x[0] * w0[j], then x[1] * w1[j], and so on, each product and sum
 * rounded on its own (the same bits as four calls of pn_add_row, with a quarter of the trips through acc). */
__attribute__((target_clones("avx2", "default"))) static void pn_add_rows4(float *restrict acc,
                                                                            const float *restrict w0,
                                                                            const float *restrict w1,
                                                                            const float *restrict w2,
                                                                            const float *restrict w3, const float *x,
                                                                            int m) {
    float x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
    for (int j = 0; j < m; j++) acc[j] = (((acc[j] + x0 * w0[j]) + x1 * w1[j]) + x2 * w2[j]) + x3 * w3[j];
}

/* acc (m sums) += the products of the inputs in[0..n) not zero with their rows of w (n rows of m), in increasing
 * input order. The inputs not zero are listed first without a branch (a hidden layer's zeros fall anywhere). */
static void pn_add_inputs(float *acc, const float *in, int n, const float *w, int m) {
    int at[PN_MAX_WIDTH], held = 0;
    for (int i = 0; i < n; i++) {
        at[held] = i;
        held += in[i] != 0.0f;
    }
    int k = 0;
    for (; k + 4 <= held; k += 4) {
        const float xs[4] = {in[at[k]], in[at[k + 1]], in[at[k + 2]], in[at[k + 3]]};
        pn_add_rows4(acc, w + (size_t)at[k] * (size_t)m, w + (size_t)at[k + 1] * (size_t)m,
                     w + (size_t)at[k + 2] * (size_t)m, w + (size_t)at[k + 3] * (size_t)m, xs, m);
    }
    for (; k < held; k++) pn_add_row(acc, w + (size_t)at[k] * (size_t)m, in[at[k]], m);
}

/* The sums of the first layer (before its ReLU) for the observation `x`, into `acc`. */
static void pn_first(const pn_net_t *net, const float *x, float *acc) {
    int m = net->width[1];
    memcpy(acc, net->b[0], (size_t)m * sizeof *acc);
    pn_add_inputs(acc, x, net->width[0], net->w[0], m);
}

/* The scores from the first layer's sums `acc` (left as they are): its ReLU, then the other layers. `work` holds
 * 2 * net->most floats. */
static void pn_rest(const pn_net_t *net, const float *first, float *out, float *work) {
    const float *in = first;
    for (int k = 1; k <= net->layers; k++) {
        int last = k == net->layers, m = net->width[k];
        float *acc = last ? out : work + (k % 2) * net->most;
        if (k == 1) {
            if (last) {
                memcpy(acc, first, (size_t)m * sizeof *acc);
            } else {
                for (int j = 0; j < m; j++) acc[j] = first[j] > 0.0f ? first[j] : 0.0f;
            }
        } else {
            memcpy(acc, net->b[k - 1], (size_t)m * sizeof *acc);
            pn_add_inputs(acc, in, net->width[k - 1], net->w[k - 1], m);
            if (!last) {
                for (int j = 0; j < m; j++) acc[j] = acc[j] > 0.0f ? acc[j] : 0.0f;
            }
        }
        if (last) {
            for (int j = 0; j < m; j++) acc[j] += 0.0f; /* -0 to +0, as the NumPy statement does */
        }
        in = acc;
    }
}

/* One observation's scores (net->width[layers] of them) into `out`; `work` holds 3 * net->most floats. */
static inline void pn_row(const pn_net_t *net, const float *x, float *out,
                                                                      float *work) {
    pn_first(net, x, work + 2 * net->most);
    pn_rest(net, work + 2 * net->most, out, work);
}

enum { PN_MAX_DEPTH = 32 };

/* A decision to search: its legal actions spelled as ids (action a's ids[start[a]] .. ids[start[a + 1] - 1], the
 * spellings prefix-free, every id below PN_MAX_IDS and at most PN_MAX_DEPTH of them), the observation with nothing
 * picked (`base`) and where its `picked` slot starts. */
typedef struct {
    const pn_net_t *net;
    const float *base;
    int picked, actions;
    const int *start, *ids;
    /* the search's working memory (pn_search_floats and pn_search_ints say how much) */
    int *ints;
    float *floats;
    /* the best action found, and its log-probability */
    int best;
    double best_logp;
} pn_search_t;

static size_t pn_search_floats(const pn_net_t *net) {
    return (size_t)(PN_MAX_DEPTH + 1) * (size_t)(net->width[1] + net->width[net->layers]) + 3 * (size_t)net->most;
}

static size_t pn_search_ints(int actions) { return 2 * (size_t)actions + (size_t)PN_MAX_DEPTH * 3 * PN_MAX_IDS; }

/* -1, 0 or 1 as action a's ids sort before, with or after action b's (the lexicographic order of sequences). */
static int pn_compare(const pn_search_t *S, int a, int b) {
    int la = S->start[a + 1] - S->start[a], lb = S->start[b + 1] - S->start[b];
    for (int d = 0; d < la && d < lb; d++) {
        int x = S->ids[S->start[a] + d], y = S->ids[S->start[b] + d];
        if (x != y) return x < y ? -1 : 1;
    }
    return la < lb ? -1 : la > lb;
}

/* The actions S->ints[lo..hi) sorted by their ids (a merge sort through S->ints[actions + lo .. actions + hi)). */
static void pn_sort(pn_search_t *S, int lo, int hi) {
    int *order = S->ints, *spare = S->ints + S->actions;
    if (hi - lo < 2) return;
    int mid = lo + (hi - lo) / 2;
    pn_sort(S, lo, mid);
    pn_sort(S, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid || j < hi) {
        spare[k++] = j >= hi || (i < mid && pn_compare(S, order[i], order[j]) <= 0) ? order[i++] : order[j++];
    }
    memcpy(order + lo, spare + lo, (size_t)(hi - lo) * sizeof *order);
}

/* The prefix shared by the actions S->ints[lo..hi) at `depth` (its ids picked), `first` its first layer's sums and
 * `partial` its log-probability so far: score it, and visit each next id whose log-probability so far is not below
 * the best action found (a log-probability is a sum of terms never above 0: what is below the best now stays below),
 * likeliest first. */
static void pn_visit(pn_search_t *S, int depth, int lo, int hi, double partial, const float *first) {
    const pn_net_t *net = S->net;
    int w1 = net->width[1], outs = net->width[net->layers];
    float *scores = S->floats + (size_t)depth * (size_t)(w1 + outs), *child = scores + outs;
    pn_rest(net, first, scores, S->floats + (size_t)(PN_MAX_DEPTH + 1) * (size_t)(w1 + outs));
    int *order = S->ints, *next = S->ints + 2 * S->actions + depth * 3 * PN_MAX_IDS, *from = next + PN_MAX_IDS, *to = from + PN_MAX_IDS;
    int groups = 0;
    for (int a = lo; a < hi; a++) { /* the next ids, increasing (the actions are sorted), and their actions */
        int id = S->ids[S->start[order[a]] + depth];
        if (groups == 0 || next[groups - 1] != id) {
            next[groups] = id;
            from[groups++] = a;
        }
        to[groups - 1] = a + 1;
    }
    double top = -INFINITY, total = 0.0, logp[PN_MAX_IDS];
    for (int g = 0; g < groups; g++) {
        if ((double)scores[next[g]] > top) top = (double)scores[next[g]];
    }
    for (int g = 0; g < groups; g++) total += exp((double)scores[next[g]] - top);
    double logz = top + log(total);
    for (int g = 0; g < groups; g++) logp[g] = partial + ((double)scores[next[g]] - logz);
    char seen[PN_MAX_IDS] = {0};
    for (int visits = 0; visits < groups; visits++) {
        int g = -1;
        for (int h = 0; h < groups; h++) {
            if (!seen[h] && (g < 0 || logp[h] > logp[g])) g = h;
        }
        seen[g] = 1;
        if (S->best >= 0 && logp[g] < S->best_logp) break; /* this and every later one: below the best */
        int a = order[from[g]];
        if (S->start[a + 1] - S->start[a] == depth + 1) { /* the id ends the action (no other shares its prefix) */
            if (S->best < 0 || logp[g] > S->best_logp || (logp[g] == S->best_logp && pn_compare(S, a, S->best) < 0)) {
                S->best = a;
                S->best_logp = logp[g];
            }
            continue;
        }
        int id = next[g];
        memcpy(child, first, (size_t)w1 * sizeof *child);
        int above = 1, again = 0; /* the id above every id picked before it (its input then comes last), or one
                                      of them (its input is already 1: the observation has each id once) */
        for (int d = 0; d < depth; d++) {
            above &= S->ids[S->start[a] + d] < id;
            again |= S->ids[S->start[a] + d] == id;
        }
        if (above) {
            pn_add_row(child, net->w[0] + (size_t)(S->picked + id) * (size_t)w1, 1.0f, w1);
        } else if (!again) { /* the inputs again in increasing order: the observation, then the picked ids */
            pn_first(net, S->base, child);
            int ids[PN_MAX_DEPTH + 1], n = 0;
            for (int d = 0; d <= depth; d++) {
                int x = S->ids[S->start[a] + d], at = n++;
                for (; at > 0 && ids[at - 1] > x; at--) ids[at] = ids[at - 1];
                ids[at] = x;
            }
            for (int d = 0; d < n; d++) {
                if (d == 0 || ids[d] != ids[d - 1]) {
                    pn_add_row(child, net->w[0] + (size_t)(S->picked + ids[d]) * (size_t)w1, 1.0f, w1);
                }
            }
        }
        pn_visit(S, depth + 1, from[g], to[g], logp[g], child);
    }
}

/* The index of the action the policy finds likeliest (see the top of this file). */
static int pn_search(pn_search_t *S) {
    for (int a = 0; a < S->actions; a++) S->ints[a] = a;
    pn_sort(S, 0, S->actions);
    S->best = -1;
    S->best_logp = 0.0;
    float *first = S->floats + (size_t)PN_MAX_DEPTH * (size_t)(S->net->width[1] + S->net->width[S->net->layers]);
    pn_first(S->net, S->base, first);
    pn_visit(S, 0, 0, S->actions, 0.0, first);
    return S->best;
}

#endif
