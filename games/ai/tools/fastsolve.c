/* The exact endgame solver of games/ai/endgame.py, in C, for the training
 * command only (games/ai/fastsolve.py compiles and loads it; the site never
 * does).  Same rules, same scores: the final disc difference for the side to
 * move, empties to the winner; in Anti the opponent's stones minus the
 * mover's, empties not added (RULES.md section 4).  Nearly the same search:
 * negamax alpha-beta driven by null-window probes (MTD(f)), a transposition
 * table, fastest-first ordering above SHALLOW empties, parity-ordered empties
 * below; here also enhanced transposition cutoffs and the opponent's potential
 * mobility in the ordering.  Those three took FFO 25, 30 and 33-35 (20-21
 * empties) from 82 to 40 million nodes; ordering by a shallow search on a
 * mobility judgement was tried and cost nodes.
 *
 * Any board of the rules library fits: its bit layout (row by row, a row
 * stride of width + 1 whose last column is a never-playable sentinel, so a
 * shift never wraps onto a playable square) takes at most 110 bits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define INF 1000
#define SHALLOW 6
#define TT_BITS 22
#define ETC_MIN 10
#define PM_WEIGHT 8
#define PM_MIN 10

static u128 PLAY, CORNERS, XSQ;
static int DIRS[8], RUN, TOP, ANTI;
static int REGION[128], PRIO[128];
static long long NODES;

typedef struct { u128 p, o; short lo, hi; unsigned char move, used; } Entry;
static Entry *TT;

static inline u128 bit(int sq) { return (u128)1 << sq; }
static inline int count(u128 x) { return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64)); }
static inline int lowest(u128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
static inline u128 shift(u128 x, int d) { return (d > 0 ? x << d : x >> -d) & PLAY; }

static u128 moves(u128 P, u128 O) {
    u128 empty = PLAY & ~(P | O), m = 0;
    for (int k = 0; k < 8; k++) {
        int d = DIRS[k];
        u128 x = shift(P, d) & O;
        for (int i = 0; i < RUN; i++) x |= shift(x, d) & O;
        m |= shift(x, d) & empty;
    }
    return m;
}

static u128 around(u128 x) {
    u128 r = 0;
    for (int k = 0; k < 8; k++) r |= shift(x, DIRS[k]);
    return r;
}

static u128 flips(int sq, u128 P, u128 O) {
    u128 f = 0, b = bit(sq);
    for (int k = 0; k < 8; k++) {
        int d = DIRS[k];
        u128 run = 0, x = shift(b, d);
        while (x & O) { run |= x; x = shift(x, d); }
        if (x & P) f |= run;
    }
    return f;
}

static int final_score(u128 P, u128 O) {
    int d = count(P) - count(O);
    if (ANTI) return -d;
    int e = TOP - count(P | O);
    return d > 0 ? d + e : d < 0 ? d - e : 0;
}

static Entry *slot(u128 P, u128 O) {
    uint64_t h = (uint64_t)P * 0x9E3779B97F4A7C15ull ^ (uint64_t)(P >> 64) * 0xC2B2AE3D27D4EB4Full
               ^ (uint64_t)O * 0x165667B19E3779F9ull ^ (uint64_t)(O >> 64) * 0xD6E8FEB86659FD93ull;
    return &TT[(h ^ (h >> 29)) & ((1u << TT_BITS) - 1)];
}

/* Few empties: no move generation, the empty squares (parity-ordered) tried directly. */
static int shallow(u128 P, u128 O, int alpha, int beta, const int *sq, int n, int passed) {
    NODES++;
    int best = -INF, rest[SHALLOW];
    for (int i = 0; i < n; i++) {
        u128 f = flips(sq[i], P, O);
        if (!f) continue;
        u128 b = bit(sq[i]);
        int v;
        if (n == 1) {
            v = final_score(P | f | b, O ^ f);
        } else {
            for (int j = 0, k = 0; j < n; j++) if (j != i) rest[k++] = sq[j];
            v = -shallow(O ^ f, P | f | b, -beta, -alpha, rest, n - 1, 0);
        }
        if (v > best) {
            best = v;
            if (v > alpha) { alpha = v; if (v >= beta) return v; }
        }
    }
    if (best == -INF) {
        if (passed) return final_score(P, O);
        return -shallow(O, P, -beta, -alpha, sq, n, 1);
    }
    return best;
}

static int ordered_empties(u128 empty, int *sq) {
    int n = 0, odd = 0;
    for (u128 e = empty; e; e &= e - 1) { sq[n] = lowest(e); odd ^= 1 << REGION[sq[n]]; n++; }
    int key[SHALLOW];
    for (int i = 0; i < n; i++) key[i] = ((odd >> REGION[sq[i]] & 1) ? 0 : 4) + PRIO[sq[i]];
    for (int i = 1; i < n; i++)  /* stable insertion sort, like Python's sort */
        for (int j = i; j > 0 && key[j - 1] > key[j]; j--) {
            int t = key[j]; key[j] = key[j - 1]; key[j - 1] = t;
            t = sq[j]; sq[j] = sq[j - 1]; sq[j - 1] = t;
        }
    return n;
}

typedef struct { int key, sq; u128 p, o; } Child;

static int search(u128 P, u128 O, int alpha, int beta, int n, int passed) {
    if (n <= SHALLOW) {
        int sq[SHALLOW];
        int k = ordered_empties(PLAY & ~(P | O), sq);
        return shallow(P, O, alpha, beta, sq, k, passed);
    }
    NODES++;
    Entry *e = slot(P, O);
    int tt_move = -1;
    if (e->used && e->p == P && e->o == O) {
        tt_move = e->move;
        if (e->lo >= beta) return e->lo;
        if (e->hi <= alpha) return e->hi;
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
        if (alpha >= beta) return alpha;
    }
    if (!ANTI) {  /* a corner is never flipped: each one held bounds the score */
        int ub = TOP - 2 * count(O & CORNERS);
        if (ub <= alpha) return ub;
        int lb = 2 * count(P & CORNERS) - TOP;
        if (lb >= beta) return lb;
    }
    u128 mv = moves(P, O);
    if (!mv) {
        if (passed || !moves(O, P)) return final_score(P, O);
        return -search(O, P, -beta, -alpha, n, 1);
    }
    Child c[100];  /* more than any board's legal moves */
    int k = 0;
    for (; mv; mv &= mv - 1) {
        int sq = lowest(mv);
        u128 f = flips(sq, P, O), b = bit(sq);
        c[k].sq = sq; c[k].p = P | f | b; c[k].o = O ^ f;
        if (n > ETC_MIN) {  /* a child the table already proves good enough: cut at once */
            Entry *ce = slot(c[k].o, c[k].p);
            if (ce->used && ce->p == c[k].o && ce->o == c[k].p && -ce->hi >= beta) return -ce->hi;
        }
        if (sq == tt_move) {
            c[k].key = -1000 * INF;
        } else {
            u128 om = moves(c[k].o, c[k].p);
            c[k].key = count(om) * 16 + count(om & CORNERS) * 32 - ((b & CORNERS) ? 24 : 0) + ((XSQ >> sq) & 1) * 8
                     + (n > PM_MIN ? count(around(c[k].p) & PLAY & ~(c[k].p | c[k].o)) * PM_WEIGHT : 0);
        }
        k++;
    }
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && c[j - 1].key > c[j].key; j--) { Child t = c[j]; c[j] = c[j - 1]; c[j - 1] = t; }
    int alpha0 = alpha, best = -INF, best_sq = -1;
    for (int i = 0; i < k; i++) {
        int v;
        if (i == 0) {
            v = -search(c[i].o, c[i].p, -beta, -alpha, n - 1, 0);
        } else {
            v = -search(c[i].o, c[i].p, -alpha - 1, -alpha, n - 1, 0);
            if (alpha < v && v < beta) v = -search(c[i].o, c[i].p, -beta, -v, n - 1, 0);
        }
        if (v > best) {
            best = v; best_sq = c[i].sq;
            if (v > alpha) { alpha = v; if (v >= beta) break; }
        }
    }
    int same = e->used && e->p == P && e->o == O;
    short lo = same ? e->lo : -INF, hi = same ? e->hi : INF;
    if (best <= alpha0) hi = best;
    else if (best >= beta) lo = best;
    else lo = hi = best;
    e->p = P; e->o = O; e->lo = lo; e->hi = hi; e->move = best_sq; e->used = 1;
    return best;
}

/* The board: playable, corner and X-square masks as 64-bit halves, the row
 * stride, the longest line, each square's parity region and static priority. */
int setup(uint64_t play_lo, uint64_t play_hi, uint64_t corners_lo, uint64_t corners_hi,
          uint64_t x_lo, uint64_t x_hi, int stride, int longest, const int *region, const int *prio, int anti) {
    PLAY = (u128)play_hi << 64 | play_lo;
    CORNERS = (u128)corners_hi << 64 | corners_lo;
    XSQ = (u128)x_hi << 64 | x_lo;
    int d[8] = {1, -1, stride, -stride, stride + 1, -stride - 1, stride - 1, -stride + 1};
    memcpy(DIRS, d, sizeof d);
    RUN = longest > 3 ? longest - 3 : 0;
    TOP = count(PLAY);
    ANTI = anti;
    memcpy(REGION, region, sizeof REGION);
    memcpy(PRIO, prio, sizeof PRIO);
    if (!TT) TT = calloc((size_t)1 << TT_BITS, sizeof(Entry));
    else memset(TT, 0, ((size_t)1 << TT_BITS) * sizeof(Entry));
    return TT != NULL;
}

/* Exact value of the position for the side to move (P); *nodes gets the nodes searched. */
int solve(uint64_t p_lo, uint64_t p_hi, uint64_t o_lo, uint64_t o_hi, long long *nodes) {
    u128 P = (u128)p_hi << 64 | p_lo, O = (u128)o_hi << 64 | o_lo;
    int n = TOP - count(P | O);
    NODES = 0;
    /* Null windows only (MTD(f)), win/draw/loss first, as EndgameSolver.solve_exact:
     * each probe asks whether the value is at least t; after repeated fail-highs
     * the next t jumps twice as far, after a fail-low it asks half-way back.  The
     * table carries the work from one probe to the next. */
    int lo = -TOP, hi = TOP, guess = 0, step = 1;
    while (lo < hi) {
        int t = guess <= lo ? lo + 1 : guess > hi ? hi : guess;
        int r = search(P, O, t - 1, t, n, 0);
        if (r >= t) { lo = r; guess = r + step; step *= 2; }
        else { hi = r; guess = step == 1 ? r : (lo + r + 1) / 2; step = 1; }
    }
    int v = lo;
    *nodes = NODES;
    return v;
}
