/* Decides one start of the 41-hole diamond: every position a game from it reaches is listed,
 * jump by jump (a layer: the positions after k jumps, a position and its left-right mirror
 * kept once), and a position is dropped when, for each finishing hole given, some pagoda
 * function of the certificate weighs it below a lone peg on that hole. A pagoda function
 * gives each hole a weight such that for every jump from a over b into c, w(a) + w(b) >=
 * w(c): no jump raises a position's weight, so a position weighing less than a lone peg on
 * t can never become that lone peg. A layer left empty before jump 39 so proves that no game
 * from the start ends with one peg on any of the holes given (the start's position class
 * says which holes could hold it; see docs/benchmarks.md).
 *
 * Every pagoda is checked against all 100 jumps as it is read: the proof rests on the
 * certificate's arithmetic, not on how its functions were found.
 *
 * Build: gcc -O3 -march=native -fopenmp -o diamond41_proof diamond41_proof.c
 * Run:   ./diamond41_proof ROW COL FINISHES PAGODAS
 *        FINISHES as r.c,r.c,...; PAGODAS a file of lines "t w0 ... w40": the hole t (the
 *        cells numbered row by row from the top tip, 0 to 40) and the 41 integer weights.
 * Prints each layer's size, time and peak memory; exits 0 when a layer is empty (proved),
 * 1 when positions reach one peg, 2 on bad input. benches/diamond41_proof.py runs it. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef uint64_t u64;

/* The board: cell index of (r, c), or -1 off the board; and the 100 jumps as masks. */
static int IDX[9][9], ROW[41], COL[41];
static int NJ;
static u64 FROM[128], OVER[128], INTO[128];
static int JA[128], JB[128], JC[128];
static u64 MIRROR[6][256]; /* the mirror image of each byte of a position */

static void board_init(void) {
    int n = 0;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            if (abs(r - 4) + abs(c - 4) <= 4) IDX[r][c] = n, ROW[n] = r, COL[n] = c, n++;
            else IDX[r][c] = -1;
    int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int a = 0; a < 41; a++)
        for (int d = 0; d < 4; d++) {
            int r1 = ROW[a] + dr[d], c1 = COL[a] + dc[d], r2 = ROW[a] + 2 * dr[d], c2 = COL[a] + 2 * dc[d];
            if (r2 < 0 || r2 > 8 || c2 < 0 || c2 > 8 || IDX[r1][c1] < 0 || IDX[r2][c2] < 0) continue;
            JA[NJ] = a, JB[NJ] = IDX[r1][c1], JC[NJ] = IDX[r2][c2];
            FROM[NJ] = 1ULL << a, OVER[NJ] = 1ULL << JB[NJ], INTO[NJ] = 1ULL << JC[NJ];
            NJ++;
        }
    for (int byte = 0; byte < 6; byte++)
        for (int v = 0; v < 256; v++) {
            u64 m = 0;
            for (int b = 0; b < 8 && byte * 8 + b < 41; b++)
                if (v >> b & 1) m |= 1ULL << IDX[ROW[byte * 8 + b]][8 - COL[byte * 8 + b]];
            MIRROR[byte][v] = m;
        }
}

static u64 canon(u64 x) {
    u64 m = 0;
    for (int byte = 0; byte < 6; byte++) m |= MIRROR[byte][x >> (8 * byte) & 255];
    return m < x ? m : x;
}

/* The certificate, by finishing hole: for hole t, N[t] pagodas (padded to a multiple of 64
 * with ones that refute nothing), their weight sums over each byte value of each of a
 * position's six bytes (SUM[t][(byte * 256 + v) * N[t] + k]) and a lone peg's weight on t
 * (LONE[t][k]). Weights are bounded so that every sum fits 16 bits. */
static int N[41];
static int16_t *SUM[41], *LONE[41];
static unsigned *HITS[41];

static int read_certificate(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
    int cap = 1 << 14, count = 0, t, (*w)[42] = malloc(sizeof(int[42]) * cap);
    while (fscanf(f, "%d", &t) == 1) {
        if (t < 0 || t > 40) { fprintf(stderr, "%s: pagoda %d: hole %d is not on the board\n", path, count + 1, t); exit(2); }
        if (count == cap) w = realloc(w, sizeof(int[42]) * (cap *= 2));
        w[count][41] = t;
        long plus = 0, minus = 0;
        for (int i = 0; i < 41; i++) {
            if (fscanf(f, "%d", &w[count][i]) != 1) { fprintf(stderr, "%s: pagoda %d: 41 weights needed\n", path, count + 1); exit(2); }
            if (w[count][i] > 0) plus += w[count][i]; else minus += w[count][i];
        }
        for (int j = 0; j < NJ; j++)
            if (w[count][JA[j]] + w[count][JB[j]] < w[count][JC[j]]) {
                fprintf(stderr, "%s: pagoda %d is no pagoda: the jump %d over %d into %d gains weight\n", path, count + 1, JA[j], JB[j], JC[j]);
                exit(2);
            }
        if (plus > 30000 || minus < -30000) { fprintf(stderr, "%s: pagoda %d: weights too large for 16 bits\n", path, count + 1); exit(2); }
        N[t]++, count++;
    }
    fclose(f);
    int filled[41] = {0};
    for (t = 0; t < 41; t++) {
        if (!N[t]) continue;
        N[t] = (N[t] + 63) & ~63;
        SUM[t] = calloc((size_t)6 * 256 * N[t], 2), LONE[t] = malloc((size_t)N[t] * 2), HITS[t] = calloc(N[t], sizeof(unsigned));
        for (int k = 0; k < N[t]; k++) LONE[t][k] = INT16_MIN; /* padding: refutes nothing */
    }
    for (int p = 0; p < count; p++) {
        int *q = w[p]; t = q[41];
        int k = filled[t]++;
        LONE[t][k] = q[t];
        for (int byte = 0; byte < 6; byte++)
            for (int v = 0; v < 256; v++) {
                int s = 0;
                for (int b = 0; b < 8 && byte * 8 + b < 41; b++) if (v >> b & 1) s += q[byte * 8 + b];
                SUM[t][(size_t)(byte * 256 + v) * N[t] + k] = s;
            }
    }
    free(w);
    return count;
}

/* Whether some pagoda for hole t weighs x below a lone peg on t. */
static int refuted(int t, u64 x) {
    int n = N[t];
    if (!n) return 0;
    const int16_t *r[6];
    for (int byte = 0; byte < 6; byte++) r[byte] = SUM[t] + (size_t)(byte * 256 + (x >> (8 * byte) & 255)) * n;
    for (int b = 0; b < n; b += 64) {
        int any = 0;
        for (int k = b; k < b + 64; k++) {
            int16_t s = r[0][k] + r[1][k] + r[2][k] + r[3][k] + r[4][k] + r[5][k];
            any |= s < LONE[t][k];
        }
        if (any) {
            for (int k = b; k < b + 64; k++)
                if ((int16_t)(r[0][k] + r[1][k] + r[2][k] + r[3][k] + r[4][k] + r[5][k]) < LONE[t][k]) {
                    __atomic_fetch_add(&HITS[t][k], 1, __ATOMIC_RELAXED);
                    break;
                }
            return 1;
        }
    }
    return 0;
}

/* Puts each hole's pagodas in the order of how often they refuted in the last layer, so the
 * first block tried refutes most positions. */
static unsigned *SORT_HITS;
static int by_hits(const void *a, const void *b) {
    unsigned x = SORT_HITS[*(const int *)a], y = SORT_HITS[*(const int *)b];
    return x < y ? 1 : x > y ? -1 : 0;
}
static void reorder(void) {
    for (int t = 0; t < 41; t++) {
        int n = N[t];
        if (!n) continue;
        int *order = malloc(n * sizeof(int));
        for (int k = 0; k < n; k++) order[k] = k;
        SORT_HITS = HITS[t];
        qsort(order, n, sizeof(int), by_hits);
        int16_t *sum = malloc((size_t)6 * 256 * n * 2), *lone = malloc((size_t)n * 2);
        for (int k = 0; k < n; k++) {
            lone[k] = LONE[t][order[k]];
            for (size_t bv = 0; bv < 6 * 256; bv++) sum[bv * n + k] = SUM[t][bv * n + order[k]];
        }
        free(SUM[t]), free(LONE[t]), free(order);
        SUM[t] = sum, LONE[t] = lone;
        memset(HITS[t], 0, n * sizeof(unsigned));
    }
}

static int FINISH[41], NF;
static int may_finish(u64 x) {
    for (int k = 0; k < NF; k++) if (!refuted(FINISH[k], x)) return 1;
    return 0;
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
static long peak_mib(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: %s ROW COL FINISHES PAGODAS\n", argv[0]); return 2; }
    setvbuf(stdout, NULL, _IOLBF, 0);
    board_init();
    int sr = atoi(argv[1]), sc = atoi(argv[2]);
    if (sr < 0 || sr > 8 || sc < 0 || sc > 8 || IDX[sr][sc] < 0) { fprintf(stderr, "(%d, %d) is not a hole\n", sr, sc); return 2; }
    char *finishes = strdup(argv[3]);
    for (char *s = strtok(finishes, ","); s; s = strtok(NULL, ",")) {
        int r, c;
        if (sscanf(s, "%d.%d", &r, &c) != 2 || r < 0 || r > 8 || c < 0 || c > 8 || IDX[r][c] < 0) { fprintf(stderr, "%s is not a hole\n", s); return 2; }
        FINISH[NF++] = IDX[r][c];
    }
    /* A position stands for itself and its mirror image: sound only when the finishes, as a
     * set, are their own mirror image. */
    for (int k = 0; k < NF; k++) {
        int m = IDX[ROW[FINISH[k]]][8 - COL[FINISH[k]]], found = 0;
        for (int j = 0; j < NF; j++) found |= FINISH[j] == m;
        if (!found) { fprintf(stderr, "the finishes must hold each hole's mirror image: (%d, %d) is missing\n", ROW[m], COL[m]); return 2; }
    }
    int pagodas = read_certificate(argv[4]);
    printf("%d pagodas, each checked against the %d jumps; %d threads\n", pagodas, NJ, omp_get_max_threads());
    u64 *layer = malloc(8);
    size_t size = 1, total = 0;
    layer[0] = canon(((1ULL << 41) - 1) & ~(1ULL << IDX[sr][sc]));
    double t0 = seconds();
    for (int jumps = 1; jumps <= 39; jumps++) {
        if (jumps > 1) reorder();
        size_t cap = 1024;
        while (cap * 0.7 < size * (jumps < 15 ? 4.0 : 2.3)) cap <<= 1;
        u64 *table;
        size_t kept;
        for (;;) { /* an open-addressing set of the next layer, doubled when it fills */
            table = calloc(cap, 8);
            if (!table) { fprintf(stderr, "out of memory\n"); return 2; }
            size_t mask = cap - 1;
            int full = 0;
            kept = 0;
#pragma omp parallel for schedule(dynamic, 65536) reduction(+ : kept)
            for (size_t i = 0; i < size; i++) {
                if (full) continue;
                u64 x = layer[i];
                for (int j = 0; j < NJ; j++) {
                    if (!(x & FROM[j]) || !(x & OVER[j]) || (x & INTO[j])) continue;
                    u64 y = canon((x ^ FROM[j] ^ OVER[j]) | INTO[j]);
                    for (u64 h = (y * 0x9E3779B97F4A7C15ULL) >> 20 & mask;; h = (h + 1) & mask) {
                        u64 v = __atomic_load_n(&table[h], __ATOMIC_RELAXED);
                        if (v == y) break;
                        if (v == 0) {
                            if (!may_finish(y)) break;
                            u64 expected = 0;
                            if (__atomic_compare_exchange_n(&table[h], &expected, y, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) { kept++; break; }
                            if (expected == y) break;
                        }
                    }
                }
                if ((i & 1023) == 0 && kept > cap * 0.85 / omp_get_num_threads()) full = 1;
            }
            if (!full && kept < cap * 0.9) break;
            free(table);
            cap <<= 1;
        }
        free(layer);
        size = 0;
        for (size_t h = 0; h < cap; h++) if (table[h]) table[size++] = table[h];
        layer = realloc(table, (size ? size : 1) * 8);
        total += size;
        printf("jumps %2d: %12zu positions  %.1f s  peak %ld MiB\n", jumps, size, seconds() - t0, peak_mib());
        if (size == 0) {
            printf("proved: no position after %d jumps may end with one peg on %s; %zu positions in all, %.1f s, peak %ld MiB\n",
                   jumps, argv[3], total, seconds() - t0, peak_mib());
            return 0;
        }
    }
    printf("not proved: %zu positions of one peg reached\n", size);
    return 1;
}
