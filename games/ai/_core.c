/* The compiled core of the two-player computer players (CPython extension
 * ``games.ai._core``, built by ``pip install -e .``): bitboard move
 * generation and flips, perft, the exact endgame solver of endgame.py, the
 * static evaluations (evaluation.py's hand-made one, learned.py's) and the
 * fixed-depth midgame search of search.py on them.
 * games.ai.core wraps it; the pure-Python modules stay the reference it is
 * tested against (tests/ai/test_core.py) and the fallback without a compiler.
 *
 * Same rules and scores as endgame.py: the final disc difference for the side
 * to move, empties to the winner; in Anti the opponent's stones minus the
 * mover's (docs of RULES section 4).  The search: null-window probes (MTD(f))
 * at the root, negamax alpha-beta below with a transposition table, enhanced
 * transposition cut-offs, fastest-first ordering above SHALLOW empties and
 * parity-ordered empties below.
 *
 * Any board of the rules library fits: its bit layout (row by row, a row
 * stride of width + 1 whose last column is never playable, so a shift never
 * wraps onto a playable square) takes at most 110 bits, held in an
 * unsigned __int128.  Blocked and cut squares are simply not in PLAY, so a
 * shift across them ends the line. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && defined(__GNUC__)
/* the popcnt instruction (every x86-64 since about 2008; checked at import)
 * instead of a library call per count */
#pragma GCC target("popcnt")
#define NEEDS_POPCNT 1
#endif

typedef unsigned __int128 u128;

#define INF 1000
#define SHALLOW 6
#define TT_BITS 20 /* 2**20 entries of 48 bytes: 48 MiB per process, allocated at the first solve */
#define ETC_MIN 10
#define PM_WEIGHT 8
#define PM_MIN 10
#define CHECK_EVERY 4095 /* nodes between two looks at the clock */
#define MAX_MOVES 128 /* a move per bit of the board: more than any position's legal moves */
#define MAX_REGIONS 31 /* a bit each in the solver's parity mask, an int */
#define MAX_PRIORITY 255 /* a square's rank in the static move order */

typedef struct {
    u128 play, corners, xsq;
    u128 edge[8]; /* per direction (dirs' order): the playable squares with no playable neighbour that way */
    int dirs[8], doubling, top, anti;
    signed char stab_min[129]; /* per number of empties: the lowest alpha at which the stability cut-off is tried */
    int region[128], prio[128];
    u128 ray[128][8]; /* per square and direction (dirs' order): the playable squares up to the edge or a gap */
    u128 near[128];   /* per square: its playable neighbours */
    u128 adj[128][8]; /* per square and direction: the neighbour that way (0 if none) */
    unsigned char dist[4][128]; /* per line direction and bit distance: the squares between, plus one */
} Geo;

typedef struct { u128 p, o; short lo, hi; unsigned char move, gen, empties; } Entry;

static Entry *TT;
static unsigned char GEN;
static long long NODES, MAX_NODES;
static double DEADLINE;
static int USE_CPU, ABORTED;
static int ROOT_MOVE = -1; /* the last probe's proof move, tried first by the next probe of the same solve */

static inline u128 bit(int sq) { return (u128)1 << sq; }
static inline int count(u128 x) { return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64)); }
static inline int lowest(u128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* Unmasked shifts: a bit that leaves its row lands on a never-playable
 * sentinel column (or off the 128 bits), so the '& O', '& P' and '& empty'
 * that follow every shift below drop it. */
static inline u128 sh(u128 x, int d) { return d > 0 ? x << d : x >> -d; }

/* Legal moves: per direction, the runs of O next to P (Kogge-Stone: two
 * single steps, then g->doubling steps of two squares, covering the
 * longest run a line holds), then one step onto an empty square. */
#define RUNS(SH, d)                                                     \
    do {                                                                \
        u128 x = O & SH(P, d);                                          \
        x |= O & SH(x, d);                                              \
        u128 pre = O & SH(O, d);                                        \
        for (int i = 0; i < g->doubling; i++) x |= pre & SH(x, 2 * (d)); \
        m |= SH(x, d);                                                  \
    } while (0)
#define UP(x, n) ((x) << (n))
#define DOWN(x, n) ((x) >> (n))

static u128 moves(const Geo *g, u128 P, u128 O) {
    u128 m = 0;
    int s = g->dirs[2];
    RUNS(UP, 1); RUNS(DOWN, 1);
    RUNS(UP, s); RUNS(DOWN, s);
    RUNS(UP, s + 1); RUNS(DOWN, s + 1);
    RUNS(UP, s - 1); RUNS(DOWN, s - 1);
    return m & g->play & ~(P | O);
}

static u128 around(const Geo *g, u128 x) {
    u128 r = 0;
    for (int k = 0; k < 8; k++) r |= sh(x, g->dirs[k]);
    return r & g->play;
}

static inline int highest(u128 x) {
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

/* The stones a move at sq turns: along each ray, the first square that is
 * not O (the lowest bit on an upward ray, the highest on a downward one)
 * must be P; the O squares before it turn. */
static u128 flips(const Geo *g, int sq, u128 P, u128 O) {
    u128 f = 0;
    const u128 *r = g->ray[sq];
    const u128 *a = g->adj[sq];
    for (int k = 0; k < 8; k += 2) { /* dirs[k] > 0: upward */
        if (!(a[k] & O)) continue;
        u128 stop = r[k] & ~O;
        stop &= -stop;
        if (stop & P) f |= r[k] & (stop - 1);
    }
    for (int k = 1; k < 8; k += 2) { /* downward */
        if (!(a[k] & O)) continue;
        u128 stop = r[k] & ~O;
        if (stop) {
            u128 b = bit(highest(stop));
            if (b & P) f |= r[k] & ~(b | (b - 1));
        }
    }
    return f;
}

static long long perft(const Geo *g, u128 P, u128 O, int depth) {
    u128 m = moves(g, P, O);
    if (depth == 1) return m ? count(m) : 1; /* a pass or a finished game is one leaf */
    if (!m) return moves(g, O, P) ? perft(g, O, P, depth - 1) : 1;
    long long total = 0;
    for (; m; m &= m - 1) {
        int sq = lowest(m);
        u128 f = flips(g, sq, P, O);
        total += perft(g, O & ~f, P | f | bit(sq), depth - 1);
    }
    return total;
}

static int final_score(const Geo *g, u128 P, u128 O) {
    int d = count(P) - count(O);
    if (g->anti) return -d;
    int e = g->top - count(P | O);
    return d > 0 ? d + e : d < 0 ? d - e : 0;
}

/* A lower bound on O's stable stones (never to be flipped again): a stone
 * that in each of the four line directions sits on a full line (no empty
 * square on it up to the edges or gaps, so no move is ever played on it),
 * or next to the edge or a gap, or next to a stone of its own already
 * found stable, can never be flanked along that line.  Found from the
 * empty set: each one added rests on those found before it. */
static int stable_count_of(const Geo *g, u128 O, u128 P) {
    u128 open[4] = {0, 0, 0, 0}, fixed[4], s = O; /* open: the squares on a line through an empty one */
    for (u128 E = g->play & ~(P | O); E; E &= E - 1) {
        const u128 *r = g->ray[lowest(E)];
        for (int a = 0; a < 4; a++) open[a] |= r[2 * a] | r[2 * a + 1];
    }
    for (int a = 0; a < 4; a++) {
        fixed[a] = ~open[a] | g->edge[2 * a] | g->edge[2 * a + 1];
        s &= fixed[a];
    }
    if (!s) return 0;
    for (;;) {
        u128 t = O;
        for (int a = 0; a < 4; a++) {
            int d = g->dirs[2 * a];
            t &= fixed[a] | sh(s, d) | sh(s, -d);
        }
        if (t == s) break;
        s = t;
    }
    return count(s);
}

/* Stability cut-off (not in Anti): the mover ends with at most the squares
 * the opponent cannot lose, so the score is at most top - 2 * stable. */
static inline int stability_cut(const Geo *g, u128 P, u128 O, int alpha, int n, int *v) {
    if (g->anti || alpha < g->stab_min[n]) return 0;
    if (g->top - 2 * count(O) > alpha) return 0; /* not even all of O's stones would do */
    int ub = g->top - 2 * stable_count_of(g, O, P);
    if (ub > alpha) return 0;
    *v = ub;
    return 1;
}

static double clock_now(void) {
    struct timespec ts;
    clock_gettime(USE_CPU ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Out of time or nodes: every search below unwinds at once, the root keeps
 * only what finished probes proved. */
static inline int out_of_budget(void) {
    if (ABORTED) return 1;
    if (MAX_NODES >= 0 && NODES > MAX_NODES) return ABORTED = 1;
    if (DEADLINE > 0 && !(NODES & CHECK_EVERY) && clock_now() > DEADLINE) return ABORTED = 1;
    return 0;
}

/* A table index of `bits` bits: the top bits of a product, which depend on
 * every bit of the position (search.py's table_slot computes the same). */
static inline uint32_t position_index(u128 P, u128 O, int bits) {
    uint64_t h = (uint64_t)P * 0x9E3779B97F4A7C15ull ^ (uint64_t)(P >> 64) * 0xC2B2AE3D27D4EB4Full
               ^ (uint64_t)O * 0x165667B19E3779F9ull ^ (uint64_t)(O >> 64) * 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    h *= 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> (64 - bits));
}

static inline int hit(const Entry *e, u128 P, u128 O) { return e->gen == GEN && e->p == P && e->o == O; }

/* Two entries a bucket: a position is in either; a new one replaces the
 * entry of an older generation, else the one nearer the end (fewer empties:
 * cheaper to search again), so the costly deep results stay. */
static Entry *slot(u128 P, u128 O) {
    Entry *b = &TT[position_index(P, O, TT_BITS) & ~1u];
    if (hit(b + 1, P, O)) return b + 1;
    return b;
}

static Entry *victim(Entry *e, u128 P, u128 O) {
    Entry *b = (Entry *)((uintptr_t)e - (size_t)((e - TT) & 1) * sizeof(Entry));
    if (hit(b, P, O)) return b;
    if (hit(b + 1, P, O)) return b + 1;
    if (b[0].gen != GEN) return b;
    if (b[1].gen != GEN) return b + 1;
    return b[0].empties <= b[1].empties ? b : b + 1;
}

/* At the last empty square every other square holds a stone, so on each
 * ray the first of the mover's stones ends the run: the number turned is
 * the distance to it, with no flips and no board built. */
static inline int last_flip_count(const Geo *g, int sq, u128 P) {
    const u128 *r = g->ray[sq];
    int n = 0;
    for (int k = 0; k < 8; k += 2) {
        u128 s = r[k] & P;
        if (s) n += g->dist[k >> 1][lowest(s) - sq] - 1;
    }
    for (int k = 1; k < 8; k += 2) {
        u128 s = r[k] & P;
        if (s) n += g->dist[k >> 1][sq - highest(s)] - 1;
    }
    return n;
}

/* One empty square: the score from the mover's count and the flips'
 * (a pass counts as a node, as in shallow()). */
static int solve_1(const Geo *g, u128 P, int sq, int passed) {
    NODES++;
    int d = 2 * count(P) + 1 - g->top, n; /* the mover's stones less the opponent's */
    if ((g->near[sq] & ~P) && (n = last_flip_count(g, sq, P))) {
        d += 2 * n + 1;
    } else {
        if (passed) return g->anti ? -d : d > 0 ? d + 1 : d < 0 ? d - 1 : 0;
        NODES++;
        if (!(g->near[sq] & P) || !(n = last_flip_count(g, sq, ~P)))
            return g->anti ? -d : d > 0 ? d + 1 : d < 0 ? d - 1 : 0;
        d -= 2 * n + 1;
    }
    return g->anti ? -d : d;
}

/* Two and three empty squares: the same search as shallow(), unrolled. */
static int solve_2(const Geo *g, u128 P, u128 O, int alpha, int beta, int x1, int x2, int passed) {
    NODES++;
    int best = -INF;
    u128 f;
    if ((g->near[x1] & O) && (f = flips(g, x1, P, O))) {
        best = -solve_1(g, O ^ f, x2, 0);
        if (best >= beta) return best;
    }
    if ((g->near[x2] & O) && (f = flips(g, x2, P, O))) {
        int v = -solve_1(g, O ^ f, x1, 0);
        if (v > best) best = v;
    }
    if (best == -INF) {
        if (passed) return final_score(g, P, O);
        return -solve_2(g, O, P, -beta, -alpha, x1, x2, 1);
    }
    return best;
}

static int solve_3(const Geo *g, u128 P, u128 O, int alpha, int beta, int x1, int x2, int x3, int passed) {
    NODES++;
    int best = -INF, v;
    u128 f;
    if ((g->near[x1] & O) && (f = flips(g, x1, P, O))) {
        best = -solve_2(g, O ^ f, P | f | bit(x1), -beta, -alpha, x2, x3, 0);
        if (best > alpha) { alpha = best; if (best >= beta) return best; }
    }
    if ((g->near[x2] & O) && (f = flips(g, x2, P, O))) {
        v = -solve_2(g, O ^ f, P | f | bit(x2), -beta, -alpha, x1, x3, 0);
        if (v > best) { best = v; if (v > alpha) { alpha = v; if (v >= beta) return v; } }
    }
    if ((g->near[x3] & O) && (f = flips(g, x3, P, O))) {
        v = -solve_2(g, O ^ f, P | f | bit(x3), -beta, -alpha, x1, x2, 0);
        if (v > best) best = v;
    }
    if (best == -INF) {
        if (passed) return final_score(g, P, O);
        return -solve_3(g, O, P, -beta, -alpha, x1, x2, x3, 1);
    }
    return best;
}

/* Few empties: no move generation, the empty squares (parity-ordered) tried directly. */
static int shallow(const Geo *g, u128 P, u128 O, int alpha, int beta, const int *sq, int n, int passed) {
    NODES++;
    int best = -INF, rest[SHALLOW];
    for (int i = 0; i < n; i++) {
        if (!(g->near[sq[i]] & O)) continue;
        u128 f = flips(g, sq[i], P, O);
        if (!f) continue;
        u128 b = bit(sq[i]);
        int v;
        for (int j = 0, k = 0; j < n; j++) if (j != i) rest[k++] = sq[j];
        if (n == 4) v = -solve_3(g, O ^ f, P | f | b, -beta, -alpha, rest[0], rest[1], rest[2], 0);
        else v = -shallow(g, O ^ f, P | f | b, -beta, -alpha, rest, n - 1, 0);
        if (v > best) {
            best = v;
            if (v > alpha) { alpha = v; if (v >= beta) return v; }
        }
    }
    if (best == -INF) {
        if (passed) return final_score(g, P, O);
        return -shallow(g, O, P, -beta, -alpha, sq, n, 1);
    }
    return best;
}

static int ordered_empties(const Geo *g, u128 empty, int *sq) {
    int n = 0, odd = 0;
    for (u128 e = empty; e; e &= e - 1) { sq[n] = lowest(e); odd ^= 1 << g->region[sq[n]]; n++; }
    int key[SHALLOW];
    for (int i = 0; i < n; i++) key[i] = ((odd >> g->region[sq[i]] & 1) ? 0 : 4) + g->prio[sq[i]];
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && key[j - 1] > key[j]; j--) {
            int t = key[j]; key[j] = key[j - 1]; key[j - 1] = t;
            t = sq[j]; sq[j] = sq[j - 1]; sq[j - 1] = t;
        }
    return n;
}

typedef struct { int key, sq; u128 p, o; } Child;

/* The solver's evaluation (Core.probe's evaluator, or NULL), for ordering the
 * moves from EVAL_SORT_MIN empties up: there nodes are few enough to pay for an
 * evaluation each, and it finds the best move first more often than mobility
 * alone (a third fewer nodes at 20 empties: benchmarks/README.md, "The solver's
 * move order"). */
struct EvalObject;
static const struct EvalObject *SORT_EV;
static void sort_eval_from(u128 P, u128 O);
static int sort_eval(int sq, u128 flipped, u128 P, u128 O, u128 mv);
#define EVAL_SORT_MIN 12
#define EVAL_SORT_SCALE 8 /* centi-discs of evaluation per unit of the key (16 a move of mobility) */

static int children(const Geo *g, u128 P, u128 O, u128 mv, int n, int tt_move, Child *c) {
    int k = 0, by_eval = SORT_EV && n >= EVAL_SORT_MIN;
    if (by_eval) sort_eval_from(P, O);
    for (; mv; mv &= mv - 1) {
        int sq = lowest(mv);
        u128 f = flips(g, sq, P, O), b = bit(sq);
        c[k].sq = sq; c[k].p = P | f | b; c[k].o = O ^ f;
        if (sq == tt_move) {
            c[k].key = -1000 * INF;
        } else {
            u128 om = moves(g, c[k].o, c[k].p);
            if (by_eval)
                c[k].key = sort_eval(sq, f, c[k].o, c[k].p, om) / EVAL_SORT_SCALE + count(om) * 16;
            else if (g->anti) /* stones are what Anti loses by: few turned, a small frontier, no corner
                                 of one's own (never turned back), the opponent's way to one open */
                c[k].key = count(om) * 16 + count(f) * 8 + ((b & g->corners) ? 24 : 0)
                         - count(om & g->corners) * 16
                         + count(around(g, c[k].p) & g->play & ~(c[k].p | c[k].o)) * PM_WEIGHT;
            else
                c[k].key = count(om) * 16 + count(om & g->corners) * 32 - ((b & g->corners) ? 24 : 0)
                         + ((g->xsq >> sq) & 1) * 8
                         + (n > PM_MIN ? count(around(g, c[k].p) & g->play & ~(c[k].p | c[k].o)) * PM_WEIGHT : 0);
        }
        k++;
    }
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && c[j - 1].key > c[j].key; j--) { Child t = c[j]; c[j] = c[j - 1]; c[j - 1] = t; }
    return k;
}

static int search(const Geo *g, u128 P, u128 O, int alpha, int beta, int n, int passed) {
    if (out_of_budget()) return 0;
    if (n <= SHALLOW) {
        int sq[SHALLOW];
        int k = ordered_empties(g, g->play & ~(P | O), sq);
        if (k == 1) return solve_1(g, P, sq[0], passed);
        if (k == 2) return solve_2(g, P, O, alpha, beta, sq[0], sq[1], passed);
        if (k == 3) return solve_3(g, P, O, alpha, beta, sq[0], sq[1], sq[2], passed);
        return shallow(g, P, O, alpha, beta, sq, k, passed);
    }
    NODES++;
    Entry *e = slot(P, O);
    int tt_move = -1;
    if (hit(e, P, O)) {
        tt_move = e->move;
        if (e->lo >= beta) return e->lo;
        if (e->hi <= alpha) return e->hi;
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
        if (alpha >= beta) return alpha;
    }
    if (!g->anti) { /* a corner is never flipped: each one held bounds the score */
        int ub = g->top - 2 * count(O & g->corners);
        if (ub <= alpha) return ub;
        int lb = 2 * count(P & g->corners) - g->top;
        if (lb >= beta) return lb;
        int v;
        if (stability_cut(g, P, O, alpha, n, &v)) return v;
    }
    u128 mv = moves(g, P, O);
    if (!mv) {
        if (passed || !moves(g, O, P)) return final_score(g, P, O);
        return -search(g, O, P, -beta, -alpha, n, 1);
    }
    Child c[MAX_MOVES];
    if (n > ETC_MIN) { /* a child the table already proves good enough: cut at once */
        for (u128 m = mv; m; m &= m - 1) {
            int sq = lowest(m);
            u128 f = flips(g, sq, P, O), cp = P | f | bit(sq), co = O ^ f;
            Entry *ce = slot(co, cp);
            if (hit(ce, co, cp) && -ce->hi >= beta) return -ce->hi;
        }
    }
    int k = children(g, P, O, mv, n, tt_move, c);
    int alpha0 = alpha, best = -INF, best_sq = -1;
    for (int i = 0; i < k; i++) {
        int v;
        if (i == 0) {
            v = -search(g, c[i].o, c[i].p, -beta, -alpha, n - 1, 0);
        } else {
            v = -search(g, c[i].o, c[i].p, -alpha - 1, -alpha, n - 1, 0);
            if (alpha < v && v < beta) v = -search(g, c[i].o, c[i].p, -beta, -v, n - 1, 0);
        }
        if (ABORTED) return 0;
        if (v > best) {
            best = v; best_sq = c[i].sq;
            if (v > alpha) { alpha = v; if (v >= beta) break; }
        }
    }
    e = victim(e, P, O);
    int same = hit(e, P, O);
    short lo = same ? e->lo : -INF, hi = same ? e->hi : INF;
    if (best <= alpha0) hi = best;
    else if (best >= beta) lo = best;
    else lo = hi = best;
    e->p = P; e->o = O; e->lo = lo; e->hi = hi; e->move = best_sq; e->gen = GEN; e->empties = n;
    return best;
}

/* Null-window probe at the root: is the value at least t?  The root's moves
 * are searched here (not through the table), so a fail-high names the move
 * that proves it. */
static int probe(const Geo *g, u128 P, u128 O, int t, int n, int first, int *proof_sq) {
    NODES++;
    Child c[MAX_MOVES];
    int k = children(g, P, O, moves(g, P, O), n, first, c), best = -INF;
    for (int i = 0; i < k; i++) {
        int v = -search(g, c[i].o, c[i].p, -t, -t + 1, n - 1, 0);
        if (ABORTED) return 0;
        if (v > best) best = v;
        if (v >= t) { *proof_sq = c[i].sq; return v; }
    }
    return best;
}

/* ------------------------------------------------ the static evaluations */

/* The same values as the Python evaluations (evaluation.py's hand-made one,
 * patterns.py/learned.py's learned one), from the tables Python builds
 * (core.native_evaluator): the hand-made one in the same double operations
 * in the same order, truncated like int(); the learned one in integers. */
#define NHAND 9
#define MAX_INST 160

typedef struct EvalObject {
    PyObject_HEAD
    Geo g;
    u128 edges;
    int total;                /* playable squares */
    double *hand;             /* per number of empties: NHAND interpolated weights */
    int ncorners;
    u128 *cbit, *cx, *cc;     /* per corner: its bit, its X squares, its C squares */
    int *rays;                /* per corner: square, number of rays, each ray: length, squares */
    int prio[128];            /* the search's static move order (smaller first) */
    int patterns, uses_hand, features, ninst;
    int offset[MAX_INST];     /* per instance: its class's first index */
    int first[129];           /* square s: its (instance, power) pairs first[s] .. first[s + 1] - 1 */
    int *inst, *pow3;
    Py_buffer *bufs;          /* the weight arrays, per number of empties (held, not copied) */
    int nbufs;
} EvalObject;

static int stable_count(const EvalObject *ev, u128 B) {
    if (!(B & ev->g.corners)) return 0;
    int n = 0;
    const int *r = ev->rays;
    for (int k = 0; k < ev->ncorners; k++) {
        int own = (int)(B >> r[0] & 1), nr = r[1];
        r += 2;
        n += own;
        for (int j = 0; j < nr; j++) {
            int len = *r++;
            if (own)
                for (int i = 0; i < len && (B >> r[i] & 1); i++) n++;
            r += len;
        }
    }
    return n;
}

/* mv: the mover's moves (the search has them already) */
static int hand_eval(const EvalObject *ev, u128 P, u128 O, u128 mv) {
    const Geo *g = &ev->g;
    u128 E = g->play & ~(P | O);
    int e = count(E);
    const double *w = ev->hand + e * NHAND;
    int mp = count(mv), mo = count(moves(g, O, P));
    double v = w[0] * (double)(mp - mo) / (double)(mp + mo + 2);
    int fp = count(around(g, O) & E), fo = count(around(g, P) & E);
    v += w[1] * (double)(fp - fo) / (double)(fp + fo + 2);
    v += w[2] * (double)(count(P & g->corners) - count(O & g->corners));
    u128 dx = 0, dc = 0;
    for (int k = 0; k < ev->ncorners; k++)
        if (E & ev->cbit[k]) { dx |= ev->cx[k]; dc |= ev->cc[k]; }
    v += w[3] * (double)(count(P & dx) - count(O & dx));
    v += w[4] * (double)(count(P & dc) - count(O & dc));
    if ((P | O) & g->corners) v += w[5] * (double)(stable_count(ev, P) - stable_count(ev, O));
    v += w[6] * (double)(count(P & ev->edges) - count(O & ev->edges));
    v += w[7] * (double)(count(P) - count(O));
    if (w[8] != 0.0) v += (e & 1) ? w[8] : -w[8];
    return (int)v; /* int() truncates toward zero, so does C */
}

static inline int floor_div1000(int a) { return a >= 0 ? a / 1000 : -((-a + 999) / 1000); }

/* The pattern indices of a position from both sides' view (f[side]: digit 1
 * for that side's stones, 2 for the other's): the search keeps them up to
 * date move by move (feat_play) instead of reading every square at a leaf. */
typedef struct { int f[2][MAX_INST]; } Feat;

static void feat_init(const EvalObject *ev, Feat *ft, u128 P, u128 O) {
    memcpy(ft->f[0], ev->offset, ev->ninst * sizeof(int));
    memcpy(ft->f[1], ev->offset, ev->ninst * sizeof(int));
    for (u128 b = P; b; b &= b - 1) {
        int s = lowest(b);
        for (int k = ev->first[s]; k < ev->first[s + 1]; k++) {
            ft->f[0][ev->inst[k]] += ev->pow3[k];
            ft->f[1][ev->inst[k]] += 2 * ev->pow3[k];
        }
    }
    for (u128 b = O; b; b &= b - 1) {
        int s = lowest(b);
        for (int k = ev->first[s]; k < ev->first[s + 1]; k++) {
            ft->f[0][ev->inst[k]] += 2 * ev->pow3[k];
            ft->f[1][ev->inst[k]] += ev->pow3[k];
        }
    }
}

/* to: from after the mover (view `side`) plays sq, turning `flipped` */
static inline void feat_play(const EvalObject *ev, const Feat *from, Feat *to, int side, int sq, u128 flipped) {
    if (!ev->patterns) return;
    int *me = to->f[side], *other = to->f[side ^ 1];
    memcpy(me, from->f[side], ev->ninst * sizeof(int));
    memcpy(other, from->f[side ^ 1], ev->ninst * sizeof(int));
    for (int k = ev->first[sq]; k < ev->first[sq + 1]; k++) {
        me[ev->inst[k]] += ev->pow3[k];
        other[ev->inst[k]] += 2 * ev->pow3[k];
    }
    for (; flipped; flipped &= flipped - 1) {
        int s = lowest(flipped);
        for (int k = ev->first[s]; k < ev->first[s + 1]; k++) {
            me[ev->inst[k]] -= ev->pow3[k];
            other[ev->inst[k]] += ev->pow3[k];
        }
    }
}

/* mv: the mover's moves, idx: the pattern indices from the mover's view */
static int feat_eval(const EvalObject *ev, u128 P, u128 O, u128 mv, const int *idx) {
    if (!ev->patterns) return hand_eval(ev, P, O, mv);
    const int16_t *w = ev->bufs[ev->total - count(P | O)].buf;
    int v = w[ev->features];
    for (int i = 0; i < ev->ninst; i++) v += w[idx[i]];
    if (ev->uses_hand && w[ev->features + 1]) v += floor_div1000(w[ev->features + 1] * hand_eval(ev, P, O, mv));
    return v;
}

static int evaluate(const EvalObject *ev, u128 P, u128 O, u128 mv) {
    Feat ft;
    feat_init(ev, &ft, P, O);
    return feat_eval(ev, P, O, mv, ft.f[0]);
}

/* The solver's move order by SORT_EV: the mover's features once
 * (sort_eval_from), then each child's from them (under the GIL: one solve at a
 * time, and children() evaluates all its moves before it searches any). */
static Feat SORT_FROM;

static void sort_eval_from(u128 P, u128 O) { feat_init((const EvalObject *)SORT_EV, &SORT_FROM, P, O); }

/* The opponent's evaluation (P, O: its stones, its view) after the move at sq turning `flipped`. */
static int sort_eval(int sq, u128 flipped, u128 P, u128 O, u128 mv) {
    const EvalObject *ev = (const EvalObject *)SORT_EV;
    Feat child;
    feat_play(ev, &SORT_FROM, &child, 0, sq, flipped);
    return feat_eval(ev, P, O, mv, ev->patterns ? child.f[1] : NULL);
}

/* ---------------------------------------------- the midgame search (search.py) */

/* Principal-variation search to a fixed depth, as Searcher.root/_pvs: the
 * same values (centi-discs; a finished game 100 * discs +- WIN), the same
 * ordering (table move, then the opponent's mobility * 10 + the static
 * priority from 3 plies up, the static priority below; ties by square), the
 * same pass handling (a pass keeps the depth).  At a fixed depth the value is
 * the minimax value whatever the table holds, and the root's order is
 * Python's, so the best move (the first in that order reaching the value)
 * is Python's too.  Its table: MID_TT_BITS entries, one per process, always
 * replaced; a generation per Searcher. */
#define MID_TT_BITS 20 /* 2**20 entries of 48 bytes: 48 MiB per process, allocated at the first search */
#define MID_CHECK 1023
#define MID_TT_MIN 2
#define WIN 100000
#define VINF 1000000000

typedef struct { u128 p, o; int lo, hi; uint16_t gen; unsigned char depth, move; } MidEntry;

static MidEntry *MTT;
static uint16_t MGEN, MCUR;
/* the probability cut-offs of the search under way (probcut.Cuts.table, NULL: none):
 * per number of empties and depth (CUT_DEPTHS of them, the last for any deeper),
 * the shallow depth (-1: no cut), the offset added to beta and the one taken from alpha */
static const int *CUTS;
static int CUT_DEPTHS;

static inline MidEntry *mid_slot(u128 P, u128 O) { return &MTT[position_index(P, O, MID_TT_BITS)]; }

static int terminal_value(const Geo *g, u128 P, u128 O) {
    int d = final_score(g, P, O);
    return d > 0 ? 100 * d + WIN : d < 0 ? 100 * d - WIN : 0;
}

/* Below 3 plies the order needs no child position: its flips wait until
 * the child is searched (c.p = 0 until then; a cut-off saves them). */
static int mid_children(const EvalObject *ev, u128 P, u128 O, u128 mv, int tt_move, int depth, Child *c) {
    const Geo *g = &ev->g;
    int k = 0;
    for (; mv; mv &= mv - 1) {
        int sq = lowest(mv);
        c[k].sq = sq;
        c[k].p = 0;
        if (depth >= 3) {
            u128 f = flips(g, sq, P, O);
            c[k].p = P | f | bit(sq); c[k].o = O ^ f;
        }
        c[k].key = sq == tt_move ? -10000
                 : depth >= 3 ? count(moves(g, c[k].o, c[k].p)) * 10 + ev->prio[sq] : ev->prio[sq];
        k++;
    }
    for (int i = 1; i < k; i++) /* stable: ties stay in square order, as Python's (key, square) sort */
        for (int j = i; j > 0 && c[j - 1].key > c[j].key; j--) { Child t = c[j]; c[j] = c[j - 1]; c[j - 1] = t; }
    return k;
}

/* ft->f[side]: the pattern indices from the mover's view */
static int pvs(const EvalObject *ev, u128 P, u128 O, int depth, int alpha, int beta, int passed,
               const Feat *ft, int side) {
    const Geo *g = &ev->g;
    NODES++;
    if (DEADLINE > 0 && !(NODES & MID_CHECK) && clock_now() > DEADLINE) ABORTED = 1;
    if (ABORTED) return 0;
    if (depth <= 0) {
        u128 mv = moves(g, P, O);
        if (mv || moves(g, O, P)) return feat_eval(ev, P, O, mv, ft->f[side]);
        return terminal_value(g, P, O);
    }
    /* the table from 2 plies up: below, a probe costs more than it saves */
    MidEntry *e = depth >= MID_TT_MIN ? mid_slot(P, O) : NULL;
    int tt_move = -1;
    if (e && e->gen == MCUR && e->p == P && e->o == O) {
        tt_move = e->move;
        if (e->depth >= depth) {
            if (e->lo >= beta) return e->lo;
            if (e->hi <= alpha) return e->hi;
            if (e->lo == e->hi) return e->lo;
        }
    }
    if (CUTS) {
        const int *c = CUTS + 3 * ((g->top - count(P | O)) * CUT_DEPTHS + (depth < CUT_DEPTHS ? depth : CUT_DEPTHS - 1));
        if (c[0] >= 0) {
            /* a shallow search sure enough that this node fails high (or low) */
            if (-WIN / 2 < beta && beta + c[1] < WIN / 2) {
                int bound = beta + c[1];
                int v = pvs(ev, P, O, c[0], bound - 1, bound, passed, ft, side);
                if (ABORTED) return 0;
                if (v >= bound) return beta;
            }
            if (alpha < WIN / 2 && alpha - c[2] > -WIN / 2) {
                int bound = alpha - c[2];
                int v = pvs(ev, P, O, c[0], bound, bound + 1, passed, ft, side);
                if (ABORTED) return 0;
                if (v <= bound) return alpha;
            }
        }
    }
    u128 mv = moves(g, P, O);
    if (!mv) {
        if (passed || !moves(g, O, P)) return terminal_value(g, P, O);
        return -pvs(ev, O, P, depth, -beta, -alpha, 1, ft, side ^ 1);
    }
    Child c[MAX_MOVES];
    int k = mid_children(ev, P, O, mv, tt_move, depth, c);
    int alpha0 = alpha, best = -VINF, best_sq = -1;
    Feat cf;
    for (int i = 0; i < k; i++) {
        int v;
        if (!c[i].p) {
            u128 f = flips(g, c[i].sq, P, O);
            c[i].p = P | f | bit(c[i].sq); c[i].o = O ^ f;
        }
        feat_play(ev, ft, &cf, side, c[i].sq, c[i].p ^ P ^ bit(c[i].sq));
        if (i == 0) {
            v = -pvs(ev, c[i].o, c[i].p, depth - 1, -beta, -alpha, 0, &cf, side ^ 1);
        } else {
            v = -pvs(ev, c[i].o, c[i].p, depth - 1, -alpha - 1, -alpha, 0, &cf, side ^ 1);
            if (alpha < v && v < beta) v = -pvs(ev, c[i].o, c[i].p, depth - 1, -beta, -v, 0, &cf, side ^ 1);
        }
        if (ABORTED) return 0;
        if (v > best) {
            best = v; best_sq = c[i].sq;
            if (v > alpha) { alpha = v; if (v >= beta) break; }
        }
    }
    if (e) {
        e->p = P; e->o = O; e->gen = MCUR; e->depth = depth > 255 ? 255 : depth; e->move = best_sq;
        e->lo = best <= alpha0 ? -VINF : best;
        e->hi = best >= beta ? VINF : best;
    }
    return best;
}

/* ------------------------------------------------------------ Python side */

/* Python ints to and from 128-bit boards through the public C API: native bytes
 * from Python 3.13 on (the private _PyLong_AsByteArray changed its signature
 * there), before it two 64-bit halves.  A bitboard is an int from 0 to 2**128 - 1. */
static int too_wide(void) {
    PyErr_SetString(PyExc_OverflowError, "a bitboard is an int from 0 to 2**128 - 1");
    return 0;
}

#if PY_VERSION_HEX >= 0x030D0000
static int to_u128(PyObject *x, u128 *out) {
    if (!PyLong_Check(x)) { PyErr_SetString(PyExc_TypeError, "a bitboard must be an int"); return 0; }
    u128 v;
    Py_ssize_t n = PyLong_AsNativeBytes(x, &v, sizeof v, Py_ASNATIVEBYTES_NATIVE_ENDIAN
                                        | Py_ASNATIVEBYTES_UNSIGNED_BUFFER | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (n < 0) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError)) return 0; /* ValueError: a negative int */
        PyErr_Clear();
        return too_wide();
    }
    if ((size_t)n > sizeof v) return too_wide();
    *out = v;
    return 1;
}

static PyObject *from_u128(u128 v) {
    return PyLong_FromUnsignedNativeBytes(&v, sizeof v, Py_ASNATIVEBYTES_NATIVE_ENDIAN);
}
#else
static PyObject *SIXTY_FOUR; /* the int 64: the shift to the upper half */

static int to_u128(PyObject *x, u128 *out) {
    if (!PyLong_Check(x)) { PyErr_SetString(PyExc_TypeError, "a bitboard must be an int"); return 0; }
    int overflow;
    long long small = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (small == -1 && PyErr_Occurred()) return 0;
    if (!overflow) { /* most boards' ints in the low half: no shift */
        if (small < 0) return too_wide();
        *out = (u128)small;
        return 1;
    }
    if (overflow < 0) return too_wide();
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(x);
    if (lo == (unsigned long long)-1 && PyErr_Occurred()) return 0;
    PyObject *upper = PyNumber_Rshift(x, SIXTY_FOUR);
    if (!upper) return 0;
    unsigned long long hi = PyLong_AsUnsignedLongLong(upper);
    Py_DECREF(upper);
    if (hi == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return 0;
        PyErr_Clear();
        return too_wide();
    }
    *out = (u128)hi << 64 | lo;
    return 1;
}

static PyObject *from_u128(u128 v) {
    uint64_t hi = (uint64_t)(v >> 64);
    PyObject *lo = PyLong_FromUnsignedLongLong((uint64_t)v);
    if (!hi || !lo) return lo;
    PyObject *upper = PyLong_FromUnsignedLongLong(hi), *shifted = upper ? PyNumber_Lshift(upper, SIXTY_FOUR) : NULL;
    PyObject *whole = shifted ? PyNumber_Or(shifted, lo) : NULL;
    Py_XDECREF(upper); Py_XDECREF(shifted); Py_DECREF(lo);
    return whole;
}
#endif

typedef struct { PyObject_HEAD Geo g; } CoreObject;

/* What Core() is given must fit the layout the search assumes (a ValueError
 * otherwise, never a crash or an endless loop): rows of `stride` bits whose last
 * column is never playable, so that no shift wraps onto a playable square; a
 * stride whose shifts, doubled by the move generation, stay inside 128 bits;
 * corners and X squares among the playable squares. */
static int valid_geometry(const Geo *g, int stride, int longest) {
    if (stride < 2 || 2 * (stride + 1) >= 128) {
        PyErr_Format(PyExc_ValueError, "stride must be from 2 to 62, not %d", stride);
        return 0;
    }
    if (longest < 1 || longest > 128) {
        PyErr_Format(PyExc_ValueError, "longest must be from 1 to 128, not %d", longest);
        return 0;
    }
    for (int sq = stride - 1; sq < 128; sq += stride)
        if (g->play >> sq & 1) {
            PyErr_Format(PyExc_ValueError, "square %d is on the never-playable column of stride %d", sq, stride);
            return 0;
        }
    if (g->corners & ~g->play || g->xsq & ~g->play) {
        PyErr_SetString(PyExc_ValueError, g->corners & ~g->play ? "corners must be playable squares"
                                                                 : "x_squares must be playable squares");
        return 0;
    }
    return 1;
}

/* One value per square (region, priority) into out[128]: at least one per
 * playable square, at most 128, each from 0 to `most`. */
static int square_values(PyObject *seq, const char *name, long most, u128 play, int *out) {
    PyObject *fast = PySequence_Fast(seq, "region and priority must be sequences");
    if (!fast) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int needed = play ? highest(play) + 1 : 0;
    if (n < needed || n > 128) {
        PyErr_Format(PyExc_ValueError, "%s must have from %d to 128 entries, not %zd", name, needed, n);
        Py_DECREF(fast);
        return 0;
    }
    memset(out, 0, 128 * sizeof(int));
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return 0; }
        if (v < 0 || v > most) {
            PyErr_Format(PyExc_ValueError, "%s values must be from 0 to %ld, not %ld", name, most, v);
            Py_DECREF(fast);
            return 0;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 1;
}

static int Core_init(CoreObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"playable", "corners", "x_squares", "stride", "longest", "region", "priority", "anti", NULL};
    PyObject *play, *corners, *xsq, *region, *prio;
    int stride, longest, anti;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOiiOOp", names, &play, &corners, &xsq, &stride, &longest,
                                     &region, &prio, &anti))
        return -1;
    Geo *g = &self->g;
    if (!to_u128(play, &g->play) || !to_u128(corners, &g->corners) || !to_u128(xsq, &g->xsq)) return -1;
    if (!valid_geometry(g, stride, longest)) return -1;
    int d[8] = {1, -1, stride, -stride, stride + 1, -stride - 1, stride - 1, -stride + 1};
    memcpy(g->dirs, d, sizeof d);
    memset(g->ray, 0, sizeof g->ray);
    memset(g->near, 0, sizeof g->near);
    memset(g->adj, 0, sizeof g->adj);
    for (int sq = 0; sq < 128; sq++) {
        if (!(g->play >> sq & 1)) continue;
        for (int k = 0; k < 8; k++) {
            for (int x = sq + d[k]; x >= 0 && x < 128 && (g->play >> x & 1); x += d[k]) g->ray[sq][k] |= bit(x);
            if (g->ray[sq][k]) g->near[sq] |= bit(sq + d[k]);
            g->adj[sq][k] = g->ray[sq][k] ? bit(sq + d[k]) : 0;
        }
    }
    for (int a = 0; a < 4; a++)
        for (int x = 0; x < 128; x++) g->dist[a][x] = (unsigned char)(x / d[2 * a]);
    g->doubling = longest > 4 ? (longest - 3) / 2 : 0; /* runs of O up to longest - 2 */
    g->top = count(g->play);
    g->anti = anti;
    for (int k = 0; k < 8; k++) {
        g->edge[k] = 0;
        for (int sq = 0; sq < 128; sq++)
            if ((g->play >> sq & 1) && !g->ray[sq][k]) g->edge[k] |= bit(sq);
    }
    /* Edax's thresholds on 8x8 (the cut-off pays only when alpha is high); on other
     * boards the same share of the discs asked to be stable */
    static const signed char edax[64] = {99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30,
                                         32, 34, 36, 38, 40, 42, 44, 46, 48, 48, 50, 50, 52, 52, 54, 54,
                                         56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
                                         99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99};
    for (int n = 0; n <= 128; n++) {
        int t = 99;
        if (n < 64 && n < g->top && edax[n] < 99) {
            int need = (64 - edax[n]) / 2; /* stable stones the cut-off asks for, of 64 - n discs */
            need = need * (g->top - n) / (64 - n);
            t = g->top - 2 * need;
        }
        g->stab_min[n] = (signed char)(t > 99 ? 99 : t < -99 ? -99 : t);
    }
    return square_values(region, "region", MAX_REGIONS - 1, g->play, g->region)
           && square_values(prio, "priority", MAX_PRIORITY, g->play, g->prio) ? 0 : -1;
}

static PyObject *Core_moves(CoreObject *self, PyObject *args) {
    PyObject *p, *o;
    u128 P, O;
    if (!PyArg_ParseTuple(args, "OO", &p, &o) || !to_u128(p, &P) || !to_u128(o, &O)) return NULL;
    return from_u128(moves(&self->g, P, O));
}

static PyObject *Core_flips(CoreObject *self, PyObject *args) {
    PyObject *p, *o;
    int sq;
    u128 P, O;
    if (!PyArg_ParseTuple(args, "iOO", &sq, &p, &o) || !to_u128(p, &P) || !to_u128(o, &O)) return NULL;
    if (sq < 0 || sq > 127) { PyErr_SetString(PyExc_ValueError, "square out of range"); return NULL; }
    return from_u128(flips(&self->g, sq, P, O));
}

static PyObject *Core_flips_bit(CoreObject *self, PyObject *args) {
    PyObject *b, *p, *o;
    u128 B, P, O;
    if (!PyArg_ParseTuple(args, "OOO", &b, &p, &o) || !to_u128(b, &B) || !to_u128(p, &P) || !to_u128(o, &O))
        return NULL;
    if (!B) { PyErr_SetString(PyExc_ValueError, "no square"); return NULL; }
    return from_u128(flips(&self->g, lowest(B), P, O));
}

static PyObject *Core_perft(CoreObject *self, PyObject *args) {
    PyObject *p, *o;
    int depth;
    u128 P, O;
    if (!PyArg_ParseTuple(args, "OOi", &p, &o, &depth) || !to_u128(p, &P) || !to_u128(o, &O)) return NULL;
    if (depth < 1) return PyLong_FromLong(1);
    long long n;
    Py_BEGIN_ALLOW_THREADS
    n = perft(&self->g, P, O, depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(n);
}

static PyTypeObject EvalType;

/* probe(P, O, t, seconds, cpu_clock, max_nodes, fresh, evaluator=None) ->
 * (r, proof_move, nodes, finished): is the value at least t?  r >= t: the
 * value is at least r, and proof_move reaches it; r < t: the value is at most
 * r.  Not finished: out of time (seconds > 0) or nodes (max_nodes >= 0), r
 * means nothing.  fresh starts a new table generation (a new position);
 * probes of one solve share the table, this process's one (module state, used
 * under the GIL).  evaluator (an Evaluator of the same board and rule) orders
 * the moves far from the end (SORT_EV); the value is the same without it.  The
 * mover must have a move, or the game be over. */
static PyObject *Core_probe(CoreObject *self, PyObject *args) {
    PyObject *p, *o;
    int t, cpu, fresh;
    double seconds;
    long long max_nodes;
    u128 P, O;
    PyObject *ev = Py_None;
    if (!PyArg_ParseTuple(args, "OOidpLp|O", &p, &o, &t, &seconds, &cpu, &max_nodes, &fresh, &ev)
        || !to_u128(p, &P) || !to_u128(o, &O))
        return NULL;
    const Geo *g = &self->g;
    if (ev != Py_None) {
        if (!PyObject_TypeCheck(ev, &EvalType) || ((EvalObject *)ev)->g.play != g->play
            || ((EvalObject *)ev)->g.anti != g->anti) {
            PyErr_SetString(PyExc_TypeError, "evaluator: an Evaluator of the same board and rule, or None");
            return NULL;
        }
    }
    if (!TT) {
        TT = PyMem_RawCalloc((size_t)1 << TT_BITS, sizeof(Entry));
        if (!TT) return PyErr_NoMemory();
        GEN = 0;
    }
    if (fresh && ++GEN == 0) { memset(TT, 0, ((size_t)1 << TT_BITS) * sizeof(Entry)); GEN = 1; }
    if (!moves(g, P, O)) {
        if (moves(g, O, P)) { PyErr_SetString(PyExc_ValueError, "the mover must pass"); return NULL; }
        return Py_BuildValue("iiLO", final_score(g, P, O), -1, 0LL, Py_True);
    }
    USE_CPU = cpu;
    NODES = 0;
    MAX_NODES = max_nodes;
    ABORTED = 0;
    DEADLINE = seconds > 0 ? clock_now() + seconds : 0;
    if (fresh) ROOT_MOVE = -1;
    int sq = -1, n = g->top - count(P | O);
    SORT_EV = ev == Py_None ? NULL : (const struct EvalObject *)ev;
    int r = probe(g, P, O, t, n, ROOT_MOVE, &sq);
    if (sq >= 0 && !ABORTED) ROOT_MOVE = sq;
    SORT_EV = NULL;
    return Py_BuildValue("iiLO", r, sq, NODES, ABORTED ? Py_False : Py_True);
}

static PyMethodDef Core_methods[] = {
    {"moves", (PyCFunction)Core_moves, METH_VARARGS, "moves(P, O): the mover's legal squares as a bitboard"},
    {"flips", (PyCFunction)Core_flips, METH_VARARGS, "flips(square, P, O): the stones a move at square turns"},
    {"flips_bit", (PyCFunction)Core_flips_bit, METH_VARARGS,
     "flips_bit(bit, P, O): flips(), the square given as its bit (Geometry.flips' signature)"},
    {"perft", (PyCFunction)Core_perft, METH_VARARGS, "perft(P, O, depth): leaves of the game tree (a pass is a ply)"},
    {"probe", (PyCFunction)Core_probe, METH_VARARGS,
     "probe(P, O, t, seconds, cpu_clock, max_nodes, fresh) -> (r, proof_move, nodes, finished)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games.ai._core.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One board's geometry: Core(playable, corners, x_squares, stride, longest, region, priority, anti)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_methods = Core_methods,
};

/* ------------------------------------------------------- the Evaluator type */


static void Eval_dealloc(EvalObject *self) {
    for (int i = 0; i < self->nbufs; i++) PyBuffer_Release(&self->bufs[i]);
    PyMem_Free(self->bufs);
    PyMem_Free(self->hand);
    PyMem_Free(self->cbit);
    PyMem_Free(self->rays);
    PyMem_Free(self->inst);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* a Python sequence as ints, into a new array (NULL and an exception on error) */
static long *long_items(PyObject *seq, Py_ssize_t *n) {
    PyObject *fast = PySequence_Fast(seq, "a sequence of ints was expected");
    if (!fast) return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    long *out = PyMem_Calloc(*n + 1, sizeof(long));
    if (!out) { Py_DECREF(fast); PyErr_NoMemory(); return NULL; }
    for (Py_ssize_t i = 0; i < *n; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) { Py_DECREF(fast); PyMem_Free(out); return NULL; }
    }
    Py_DECREF(fast);
    return out;
}

static int Eval_init(EvalObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"core", "edges", "hand", "corner_adj", "corner_rays", "priority", "patterns", NULL};
    PyObject *core, *edges, *hand, *adj, *rays, *prio, *patterns;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!OOOOOO", names, &CoreType, &core, &edges, &hand, &adj, &rays,
                                     &prio, &patterns))
        return -1;
    if (self->hand) { PyErr_SetString(PyExc_RuntimeError, "an Evaluator is set up once"); return -1; }
    self->g = ((CoreObject *)core)->g;
    self->total = self->g.top;
    if (!to_u128(edges, &self->edges)) return -1;
    /* hand: (total + 1) rows of NHAND floats */
    if (PySequence_Size(hand) != self->total + 1) { PyErr_SetString(PyExc_ValueError, "one weight row per number of empties"); return -1; }
    self->hand = PyMem_Calloc((size_t)(self->total + 1) * NHAND, sizeof(double));
    if (!self->hand) { PyErr_NoMemory(); return -1; }
    for (int e = 0; e <= self->total; e++) {
        PyObject *row = PySequence_GetItem(hand, e);
        if (!row) return -1;
        for (int k = 0; k < NHAND; k++) {
            PyObject *x = PySequence_GetItem(row, k);
            if (!x) { Py_DECREF(row); return -1; }
            self->hand[e * NHAND + k] = PyFloat_AsDouble(x);
            Py_DECREF(x);
        }
        Py_DECREF(row);
        if (PyErr_Occurred()) return -1;
    }
    /* corners: (bit, X squares, C squares) and (square, [ray, ...]) in the same order */
    Py_ssize_t nc = PySequence_Size(adj);
    if (nc < 0 || nc != PySequence_Size(rays)) { PyErr_SetString(PyExc_ValueError, "corner tables differ"); return -1; }
    self->ncorners = (int)nc;
    self->cbit = PyMem_Calloc(3 * nc + 1, sizeof(u128));
    self->rays = PyMem_Calloc(2 * nc + 4 * 128 + 1, sizeof(int));
    if (!self->cbit || !self->rays) { PyErr_NoMemory(); return -1; }
    self->cx = self->cbit + nc;
    self->cc = self->cbit + 2 * nc;
    int *r = self->rays;
    for (Py_ssize_t k = 0; k < nc; k++) {
        PyObject *a = PySequence_GetItem(adj, k), *cr = PySequence_GetItem(rays, k);
        PyObject *cb = a ? PySequence_GetItem(a, 0) : NULL, *cx = a ? PySequence_GetItem(a, 1) : NULL;
        PyObject *cc = a ? PySequence_GetItem(a, 2) : NULL, *sq = cr ? PySequence_GetItem(cr, 0) : NULL;
        PyObject *lines = cr ? PySequence_GetItem(cr, 1) : NULL;
        int ok = cb && cx && cc && sq && lines && to_u128(cb, &self->cbit[k]) && to_u128(cx, &self->cx[k])
                 && to_u128(cc, &self->cc[k]);
        if (ok) {
            *r++ = (int)PyLong_AsLong(sq);
            Py_ssize_t nr = PySequence_Size(lines);
            *r++ = (int)nr;
            for (Py_ssize_t j = 0; ok && j < nr; j++) {
                Py_ssize_t len;
                PyObject *line = PySequence_GetItem(lines, j);
                long *v = line ? long_items(line, &len) : NULL;
                Py_XDECREF(line);
                if (!v || r + len + 1 > self->rays + 2 * nc + 4 * 128) { ok = 0; PyMem_Free(v); break; }
                *r++ = (int)len;
                for (Py_ssize_t i = 0; i < len; i++) *r++ = (int)v[i];
                PyMem_Free(v);
            }
        }
        Py_XDECREF(a); Py_XDECREF(cr); Py_XDECREF(cb); Py_XDECREF(cx); Py_XDECREF(cc); Py_XDECREF(sq); Py_XDECREF(lines);
        if (!ok || PyErr_Occurred()) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad corner tables");
            return -1;
        }
    }
    Py_ssize_t n;
    long *pr = long_items(prio, &n);
    if (!pr) return -1;
    for (Py_ssize_t i = 0; i < n && i < 128; i++) self->prio[i] = (int)pr[i];
    PyMem_Free(pr);
    /* patterns: None (the hand-made evaluation alone) or (instances, features, per-empties weights, uses_hand),
     * instances: [(class offset, [squares in digit order]), ...] */
    if (patterns == Py_None) return 0;
    PyObject *instances, *stages;
    if (!PyArg_ParseTuple(patterns, "OiOp", &instances, &self->features, &stages, &self->uses_hand)) return -1;
    Py_ssize_t ni = PySequence_Size(instances);
    if (ni < 0 || ni > MAX_INST) { PyErr_SetString(PyExc_ValueError, "too many pattern instances"); return -1; }
    self->ninst = (int)ni;
    int counts[129] = {0}, total = 0;
    long *sqs[MAX_INST];
    Py_ssize_t lens[MAX_INST];
    for (Py_ssize_t i = 0; i < ni; i++) {
        PyObject *it = PySequence_GetItem(instances, i);
        PyObject *off = it ? PySequence_GetItem(it, 0) : NULL, *cells = it ? PySequence_GetItem(it, 1) : NULL;
        sqs[i] = cells ? long_items(cells, &lens[i]) : NULL;
        if (off) self->offset[i] = (int)PyLong_AsLong(off);
        Py_XDECREF(it); Py_XDECREF(off); Py_XDECREF(cells);
        if (!sqs[i] || PyErr_Occurred()) { for (Py_ssize_t j = 0; j <= i; j++) PyMem_Free(sqs[j]); return -1; }
        for (Py_ssize_t j = 0; j < lens[i]; j++) {
            if (sqs[i][j] < 0 || sqs[i][j] > 127 || lens[i] > 13) {
                for (Py_ssize_t q = 0; q <= i; q++) PyMem_Free(sqs[q]);
                PyErr_SetString(PyExc_ValueError, "bad pattern square");
                return -1;
            }
            counts[sqs[i][j]]++;
            total++;
        }
    }
    self->inst = PyMem_Calloc(2 * total + 2, sizeof(int));
    if (!self->inst) { for (Py_ssize_t i = 0; i < ni; i++) PyMem_Free(sqs[i]); PyErr_NoMemory(); return -1; }
    self->pow3 = self->inst + total + 1;
    self->first[0] = 0;
    for (int s = 0; s < 128; s++) self->first[s + 1] = self->first[s] + counts[s];
    int fill[128];
    memcpy(fill, self->first, sizeof fill);
    for (Py_ssize_t i = 0; i < ni; i++) {
        int p = 1;
        for (Py_ssize_t j = 0; j < lens[i]; j++, p *= 3) {
            int k = fill[sqs[i][j]]++;
            self->inst[k] = (int)i;
            self->pow3[k] = p;
        }
        PyMem_Free(sqs[i]);
    }
    Py_ssize_t ns = PySequence_Size(stages);
    if (ns != self->total + 1) { PyErr_SetString(PyExc_ValueError, "one weight array per number of empties"); return -1; }
    self->bufs = PyMem_Calloc(ns, sizeof(Py_buffer));
    if (!self->bufs) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t e = 0; e < ns; e++) {
        PyObject *w = PySequence_GetItem(stages, e);
        if (!w) return -1;
        int bad = PyObject_GetBuffer(w, &self->bufs[e], PyBUF_FORMAT) < 0;
        Py_DECREF(w);
        if (bad) return -1;
        self->nbufs++;
        if (self->bufs[e].itemsize != 2 || strcmp(self->bufs[e].format, "h")
            || self->bufs[e].len != (Py_ssize_t)(self->features + 2) * 2) {
            PyErr_SetString(PyExc_ValueError, "the weights must be array('h') of features + 2 entries");
            return -1;
        }
    }
    self->patterns = 1;
    return 0;
}

static PyObject *Eval_evaluate(EvalObject *self, PyObject *args) {
    PyObject *p, *o;
    u128 P, O;
    if (!PyArg_ParseTuple(args, "OO", &p, &o) || !to_u128(p, &P) || !to_u128(o, &O)) return NULL;
    return PyLong_FromLong(evaluate(self, P, O, moves(&self->g, P, O)));
}

static PyObject *Eval_new_table(EvalObject *self, PyObject *unused) {
    (void)self; (void)unused;
    if (!MTT) {
        MTT = PyMem_RawCalloc((size_t)1 << MID_TT_BITS, sizeof(MidEntry));
        if (!MTT) return PyErr_NoMemory();
    }
    if (++MGEN == 0) { memset(MTT, 0, ((size_t)1 << MID_TT_BITS) * sizeof(MidEntry)); MGEN = 1; }
    return PyLong_FromLong(MGEN);
}

/* root(P, O, depth, first_move, table, seconds, cpu_clock, cuts) -> (value, best, nodes, finished, partial):
 * Searcher.root with the full window: the table move (first_move, else the
 * table's) first, every move then by the mobility key.  partial: (value, move)
 * of the best move when the time ran out, or None.  cuts: probcut.Cuts.table
 * or None. */
static PyObject *Eval_root(EvalObject *self, PyObject *args) {
    PyObject *p, *o, *cuts;
    int depth, first, table, cpu;
    double seconds;
    u128 P, O;
    if (!PyArg_ParseTuple(args, "OOiiidpO", &p, &o, &depth, &first, &table, &seconds, &cpu, &cuts)
        || !to_u128(p, &P) || !to_u128(o, &O))
        return NULL;
    if (!MTT || table < 1 || table > MGEN) { PyErr_SetString(PyExc_ValueError, "no such table (new_table())"); return NULL; }
    const Geo *g = &self->g;
    u128 mv = moves(g, P, O);
    if (!mv) { PyErr_SetString(PyExc_ValueError, "root() needs a position with a legal move"); return NULL; }
    Py_buffer view = {0};
    CUTS = NULL;
    if (cuts != Py_None) {
        if (PyObject_GetBuffer(cuts, &view, PyBUF_FORMAT) < 0) return NULL;
        Py_ssize_t rows = (Py_ssize_t)(self->total + 1) * 3;
        if (view.itemsize != 4 || strcmp(view.format, "i") || view.len % (rows * 4) || !view.len) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "cuts must be array('i') of 3 entries per number of empties and depth");
            return NULL;
        }
        CUTS = view.buf;
        CUT_DEPTHS = (int)(view.len / (rows * 4));
    }
    MCUR = (uint16_t)table;
    USE_CPU = cpu;
    NODES = 0;
    MAX_NODES = -1;
    ABORTED = 0;
    DEADLINE = seconds > 0 ? clock_now() + seconds : 0;
    MidEntry *e = mid_slot(P, O);
    if (first < 0 && e->gen == MCUR && e->p == P && e->o == O) first = e->move;
    Child c[MAX_MOVES];
    int k = mid_children(self, P, O, mv, first, depth > 3 ? depth : 3, c);
    int alpha = -VINF, beta = VINF, best = -VINF, best_sq = c[0].sq, seen = 0;
    Feat ft, cf;
    feat_init(self, &ft, P, O);
    for (int i = 0; i < k; i++) {
        int v;
        feat_play(self, &ft, &cf, 0, c[i].sq, c[i].p ^ P ^ bit(c[i].sq));
        if (i == 0) {
            v = -pvs(self, c[i].o, c[i].p, depth - 1, -beta, -alpha, 0, &cf, 1);
        } else {
            v = -pvs(self, c[i].o, c[i].p, depth - 1, -alpha - 1, -alpha, 0, &cf, 1);
            if (alpha < v && v < beta) v = -pvs(self, c[i].o, c[i].p, depth - 1, -beta, -v, 0, &cf, 1);
        }
        if (ABORTED) break;
        if (v > best) {
            best = v; best_sq = c[i].sq; seen = 1;
            if (v > alpha) alpha = v;
        }
    }
    if (CUTS) { CUTS = NULL; PyBuffer_Release(&view); }
    if (ABORTED) {
        if (!seen) return Py_BuildValue("iiLOO", 0, -1, NODES, Py_False, Py_None);
        return Py_BuildValue("iiLO(ii)", 0, -1, NODES, Py_False, best, best_sq);
    }
    e = mid_slot(P, O);
    e->p = P; e->o = O; e->gen = MCUR; e->depth = depth > 255 ? 255 : depth; e->move = best_sq;
    e->lo = e->hi = best;
    return Py_BuildValue("iiLOO", best, best_sq, NODES, Py_True, Py_None);
}

static PyMethodDef Eval_methods[] = {
    {"evaluate", (PyCFunction)Eval_evaluate, METH_VARARGS, "evaluate(P, O): the static value for the mover (centi-discs)"},
    {"new_table", (PyCFunction)Eval_new_table, METH_NOARGS,
     "new_table(): a fresh generation of the search's transposition table (one per Searcher)"},
    {"root", (PyCFunction)Eval_root, METH_VARARGS,
     "root(P, O, depth, first_move, table, seconds, cpu_clock) -> (value, best, nodes, finished, partial)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EvalType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games.ai._core.Evaluator",
    .tp_basicsize = sizeof(EvalObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A static evaluation and the midgame search on it: "
              "Evaluator(core, edges, hand, corner_adj, corner_rays, priority, patterns)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Eval_init,
    .tp_dealloc = (destructor)Eval_dealloc,
    .tp_methods = Eval_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "games.ai._core", "The compiled search core.", -1, NULL};

PyMODINIT_FUNC PyInit__core(void) {
#ifdef NEEDS_POPCNT
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "games.ai._core was built for CPUs with popcnt");
        return NULL;
    }
#endif
#if PY_VERSION_HEX < 0x030D0000
    if (!SIXTY_FOUR && !(SIXTY_FOUR = PyLong_FromLong(64))) return NULL;
#endif
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&EvalType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) { Py_DECREF(&CoreType); Py_DECREF(m); return NULL; }
    Py_INCREF(&EvalType);
    if (PyModule_AddObject(m, "Evaluator", (PyObject *)&EvalType) < 0) { Py_DECREF(&EvalType); Py_DECREF(m); return NULL; }
    PyModule_AddIntConstant(m, "SEARCH_TABLE_BYTES", (long)(((size_t)1 << MID_TT_BITS) * sizeof(MidEntry)));
    PyModule_AddIntConstant(m, "TABLE_BYTES", (long)(((size_t)1 << TT_BITS) * sizeof(Entry)));
    return m;
}
