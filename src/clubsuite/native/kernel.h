/* Shared pieces of the compiled core: the random numbers and seeds of the Python engine, reproduced bit for bit.
 *
 * The engine deals from `random.Random(seed)` and its bots draw with `random()`; seeds come from
 * `clubsuite.seeding.derive_seed` (SHA-256 of "clubsuite:base:path..."). A kernel that draws exactly the same
 * numbers plays exactly the same matches, so its results can be compared with the engine's one for one.
 *
 *  - mt_seed/mt_random: the Mersenne Twister MT19937 as CPython's `random` module seeds it from a non-negative
 *    integer (init_by_array over the integer's 32-bit words, least significant first) and its `random()`
 *    (53 bits from two outputs);
 *  - derive_seed: SHA-256 (FIPS 180-4) of the seed text, first 8 bytes big-endian, shifted right by one.
 */
#ifndef CLUBS_KERNEL_H
#define CLUBS_KERNEL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t state[MT_N];
    int index;
} mt_t;

static void mt_init_genrand(mt_t *mt, uint32_t s) {
    uint32_t *m = mt->state;
    m[0] = s;
    for (int i = 1; i < MT_N; i++) {
        m[i] = 1812433253u * (m[i - 1] ^ (m[i - 1] >> 30)) + (uint32_t)i;
    }
    mt->index = MT_N;
}

/* Seed as random.Random(seed) does for a non-negative int below 2**64. */
static void mt_seed(mt_t *mt, uint64_t seed) {
    uint32_t key[2];
    int len = 1;
    key[0] = (uint32_t)seed;
    key[1] = (uint32_t)(seed >> 32);
    if (key[1] != 0) len = 2;
    uint32_t *m = mt->state;
    mt_init_genrand(mt, 19650218u);
    int i = 1, j = 0;
    for (int k = (MT_N > len ? MT_N : len); k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            m[0] = m[MT_N - 1];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            m[0] = m[MT_N - 1];
            i = 1;
        }
    }
    m[0] = 0x80000000u;
}

static void mt_twist(mt_t *mt) {
    uint32_t *m = mt->state;
    int k;
    uint32_t y;
    for (k = 0; k < MT_N - MT_M; k++) {
        y = (m[k] & 0x80000000u) | (m[k + 1] & 0x7fffffffu);
        m[k] = m[k + MT_M] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    for (; k < MT_N - 1; k++) {
        y = (m[k] & 0x80000000u) | (m[k + 1] & 0x7fffffffu);
        m[k] = m[k + (MT_M - MT_N)] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    y = (m[MT_N - 1] & 0x80000000u) | (m[0] & 0x7fffffffu);
    m[MT_N - 1] = m[MT_M - 1] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    mt->index = 0;
}

static inline uint32_t mt_next(mt_t *mt) {
    if (mt->index >= MT_N) mt_twist(mt);
    uint32_t y = mt->state[mt->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* random.Random.random(): a double in [0, 1) with 53 random bits. */
static inline double mt_random(mt_t *mt) {
    uint32_t a = mt_next(mt) >> 5, b = mt_next(mt) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.Random.getrandbits(k) for 0 < k <= 32. */
static inline uint32_t mt_getrandbits(mt_t *mt, int k) { return mt_next(mt) >> (32 - k); }

/* random.Random._randbelow(n) for 0 < n < 2**32: k = n.bit_length() bits drawn until below n. */
static inline int mt_randbelow(mt_t *mt, uint32_t n) {
    int k = 32 - __builtin_clz(n);
    uint32_t r = mt_getrandbits(mt, k);
    while (r >= n) r = mt_getrandbits(mt, k);
    return (int)r;
}

/* random.Random.sample(population, k) as a mask of the chosen numbers, where Python takes its pool method (a
 * population no larger than its set size: 21, plus 4 ** ceil(log(3k, 4)) when k > 5; 13 of 39 cards is such a
 * case). */
static inline uint64_t mt_sample_mask(mt_t *mt, const int *population, int n, int k) {
    int pool[64];
    uint64_t mask = 0;
    for (int i = 0; i < n; i++) pool[i] = population[i];
    for (int i = 0; i < k; i++) {
        int j = mt_randbelow(mt, (uint32_t)(n - i));
        mask |= 1ull << pool[j];
        pool[j] = pool[n - i - 1];
    }
    return mask;
}

/* floor(random() * n), the draw the random bot and the shuffle make. */
static inline int mt_below(mt_t *mt, int n) { return (int)(mt_random(mt) * (double)n); }

/* clubsuite.seeding.shuffled(n, rng): 0..n-1 in the order of a Fisher-Yates pass on random(). */
static void shuffled(mt_t *mt, int n, int *order) {
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = mt_below(mt, i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

/* -- SHA-256 of one short message (under 56 bytes: one block) ------------------------------------------ */

static const uint32_t SHA_K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

static inline uint32_t rotr32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

/* The first 8 bytes of SHA-256(msg) as a big-endian integer; returns 0 for a message too long for one block. */
static uint64_t sha256_head64(const unsigned char *msg, size_t len) {
    if (len > 55) return 0;
    unsigned char block[64];
    memset(block, 0, sizeof block);
    memcpy(block, msg, len);
    block[len] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) block[63 - i] = (unsigned char)(bits >> (8 * i));
    uint32_t w[64];
    for (int i = 0; i < 16; i++) {
        w[i] = ((uint32_t)block[4 * i] << 24) | ((uint32_t)block[4 * i + 1] << 16) |
               ((uint32_t)block[4 * i + 2] << 8) | (uint32_t)block[4 * i + 3];
    }
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr32(w[i - 15], 7) ^ rotr32(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr32(w[i - 2], 17) ^ rotr32(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t h[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                     0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t S1 = rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = hh + S1 + ch + SHA_K[i] + w[i];
        uint32_t S0 = rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = S0 + maj;
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    return ((uint64_t)(h[0] + a) << 32) | (uint64_t)(h[1] + b);
}

/* clubsuite.seeding.derive_seed(base, path) for a non-negative base below 2**64 and one path number. */
static uint64_t derive_seed1(uint64_t base, uint64_t path) {
    char text[64];
    int n = snprintf(text, sizeof text, "clubsuite:%llu:%llu", (unsigned long long)base, (unsigned long long)path);
    return sha256_head64((const unsigned char *)text, (size_t)n) >> 1;
}

/* The position of the k-th (0-based) set bit of mask, counting from the lowest. */
static inline int kth_bit(uint64_t mask, int k) {
    while (k-- > 0) mask &= mask - 1;
    return __builtin_ctzll(mask);
}

#endif
