/* One unit (the first to claim it through the team array) spawns workers
 * in round 0, then breaks its energy count from round 1 on, the way a
 * contestant who reads the kit's machine code could: it finds, behind
 * uc_yield, the kit's instructions that reload the count from the word the
 * scheduler hands it over in, writes a huge count into that word and jumps
 * to them; from there it works some 3 ms a turn, far past any turn's
 * energy, and yields.  The kit's check from outside must kill it while its
 * team plays on: in round 2, its first tampered turn (round 1) having made
 * the clock suspicious, or already in round 1 if its one honest turn looked
 * slow (a loaded machine).  Every unit says in the log who it is; a unit
 * that cannot find the kit's instructions says so and plays honestly. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "aic2018.h"

PLAYER_NAME(TamperUnit);

/* mov disp32(%rip), %r15; movq $0, disp32(%rip); add $8, %rsp; ret */
static const unsigned char reload[] = { 0x4c, 0x8b, 0x3d };
static const unsigned char clear[] = { 0x48, 0xc7, 0x05 };
static const unsigned char epilogue[] = { 0x48, 0x83, 0xc4, 0x08, 0xc3 };

struct gadget {
	const unsigned char *code; /* the reload */
	int64_t *count;            /* the word it reloads from */
};

static int32_t rel32(const unsigned char *p)
{
	int32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static int find_reload(const unsigned char *fn, struct gadget *g)
{
	for (int i = 0; i < 48; i++)
		if (memcmp(fn + i, reload, 3) == 0 && memcmp(fn + i + 7, clear, 3) == 0 &&
		    memcmp(fn + i + 18, epilogue, 5) == 0) {
			g->code = fn + i;
			g->count = (int64_t *)(fn + i + 7 + rel32(fn + i + 3));
			return 1;
		}
	return 0;
}

/* uc_yield's calls and jumps (near, rel32) to a function that holds it. */
static int find_gadget(struct gadget *g)
{
	const unsigned char *yield = (const unsigned char *)uc_yield;
	for (int i = 0; i < 32; i++) {
		if (yield[i] != 0xe8 && yield[i] != 0xe9)
			continue;
		int32_t off = rel32(yield + i + 1);
		if (off > -(1 << 20) && off < (1 << 20) && find_reload(yield + i + 5 + off, g))
			return 1;
	}
	return 0;
}

typedef void hop(long, long, long, long, long, long, void (*)(void));

static void tampered_turns(void);

/* Jumps to the reload with the count set: its `add $8, %rsp` drops our
 * return address and its `ret` goes to the seventh argument, on the
 * stack, which never returns. */
static void tamper(const struct gadget *g)
{
	*g->count = INT64_C(1) << 50;
	((hop *)(uintptr_t)g->code)(0, 0, 0, 0, 0, 0, tampered_turns);
}

static void tampered_turns(void)
{
	for (;;) {
		uint64_t x = (uint64_t)uc_getRound();
		for (long i = 0; i < 2000000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		printf("unit %d worked uncounted in round %d (%llx)\n", uc_getInfo().id,
		       uc_getRound(), (unsigned long long)x);
		uc_yield();
		struct gadget g;
		if (find_gadget(&g))
			tamper(&g);
	}
}

void run(void)
{
	int tamperer = !uc_read(0);
	uc_write(0, 1);
	for (;;) {
		printf("unit %d acts in round %d\n", uc_getInfo().id, uc_getRound());
		/* workers to come: each is a unit's turn more in the CPU budget of
		 * the team's steps, which the uncounted work stays within */
		for (int d = 0; tamperer && d < 8 && uc_getRound() < 1; d++)
			if (uc_canSpawn((Direction)d, WORKER))
				uc_spawn((Direction)d, WORKER);
		struct gadget g;
		if (tamperer && uc_getRound() >= 1) {
			if (find_gadget(&g))
				tamper(&g);
			printf("unit %d found no reload of its count behind uc_yield\n",
			       uc_getInfo().id);
			tamperer = 0;
		}
		uc_yield();
	}
}
