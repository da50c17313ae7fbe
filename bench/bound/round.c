/* An upper bound for the engine figures: a minimal round of the same shape, in C.
 *
 * Not the rules: a sketch with the same work per round as the classic 2-player round
 * (bench/RESULTS-engine.md): 8 cards a hand, 8 on the table, the pile turned up after
 * each play; a card captures its month's single card, a stack of three, or one of a
 * pair (random choice), else goes to the table; at the end, card points by popcount
 * over point masks and 22 set yaku as mask tests, seven ribbons by popcount.
 * No joker, no lucky hands, no logs.  Cards are bits of a 64-bit mask, a round is a
 * struct copied by value.  Random numbers: xorshift64*.
 *
 *   cc -O2 -o round bench/bound/round.c && ./round [seconds]
 * prints: search <copy+playout+score per s>  games <deal+playout+score per s>
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef uint64_t mask;
typedef struct { mask hand[2], table, cap[2]; uint8_t pile[48]; int pos, seat; } round_t;

static uint64_t rs = 88172645463325252ull;
static inline uint64_t rnd(void) { rs ^= rs >> 12; rs ^= rs << 25; rs ^= rs >> 27; return rs * 2685821657736338717ull; }
static inline int below(int n) { return (int)((rnd() >> 33) % (uint64_t)n); }

static mask P50, P10, RIB, YAKU[22];
static const int VAL[22] = {200,100,100,50,50,50,50,100,50,50,60,60,60,60,60,60,60,60,40,40,30,30};

static void place(round_t *r, int card) {
    mask month = 15ull << (card & ~3), on = r->table & month;
    int n = __builtin_popcountll(on);
    if (n == 0) { r->table |= 1ull << card; return; }
    mask take = on;
    if (n == 2) { mask low = on & -on; take = below(2) ? low : on ^ low; }
    r->table &= ~take;
    r->cap[r->seat] |= take | 1ull << card;
}

static void playout(round_t *r) {
    while (r->hand[0] | r->hand[1]) {
        mask h = r->hand[r->seat];
        for (int k = below(__builtin_popcountll(h)); k > 0; k--) h &= h - 1;
        int card = __builtin_ctzll(h);
        r->hand[r->seat] &= ~(1ull << card);
        place(r, card);
        place(r, r->pile[r->pos++]);
        r->seat ^= 1;
    }
}

static int score(const round_t *r) {
    int total = 0;
    for (int s = 0; s < 2; s++) {
        mask c = r->cap[s];
        total += 50 * __builtin_popcountll(c & P50) + 10 * __builtin_popcountll(c & P10);
        for (int y = 0; y < 22; y++) if ((c & YAKU[y]) == YAKU[y]) total += VAL[y];
        if (__builtin_popcountll(c & RIB) >= 7) total += 100;
    }
    return total;
}

static void deal(round_t *r) {
    uint8_t deck[48];
    for (int i = 0; i < 48; i++) deck[i] = (uint8_t)i;
    for (int i = 47; i > 0; i--) { int j = below(i + 1); uint8_t t = deck[i]; deck[i] = deck[j]; deck[j] = t; }
    r->hand[0] = r->hand[1] = r->table = r->cap[0] = r->cap[1] = 0;
    for (int i = 0; i < 8; i++) { r->hand[0] |= 1ull << deck[i]; r->hand[1] |= 1ull << deck[8 + i]; r->table |= 1ull << deck[16 + i]; }
    for (int i = 0; i < 24; i++) r->pile[i] = deck[24 + i];
    r->pos = 0; r->seat = 0;
}

static double cpu(void) { return (double)clock() / CLOCKS_PER_SEC; }

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    for (int c = 0; c < 48; c++) {
        int m = c / 4, p = c % 4;
        if (p == 0 && (m == 0 || m == 2 || m == 7 || m == 10 || m == 11)) P50 |= 1ull << c;
        else if (p < 2 && m != 11) P10 |= 1ull << c;
        if (p == 1 && m != 7 && m != 10) RIB |= 1ull << c;
    }
    for (int y = 0; y < 22; y++) YAKU[y] = (rnd() & rnd() & rnd() & rnd()) & ((1ull << 48) - 1);
    round_t base[64];
    for (int i = 0; i < 64; i++) deal(&base[i]);
    long n = 0; volatile int sink = 0;
    double t0 = cpu();
    while (cpu() - t0 < seconds) {
        for (int k = 0; k < 1000; k++) { round_t r = base[k & 63]; playout(&r); sink += score(&r); }
        n += 1000;
    }
    double search = n / (cpu() - t0);
    n = 0; t0 = cpu();
    while (cpu() - t0 < seconds) {
        for (int k = 0; k < 1000; k++) { round_t r; deal(&r); playout(&r); sink += score(&r); }
        n += 1000;
    }
    printf("search %.0f games %.0f\n", search, n / (cpu() - t0));
    return sink == 42;
}
