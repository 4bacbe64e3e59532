/* energy_asm.h - AIC2018's energy count, written into a unit's assembly.
 *
 * Promises.  energy_asm_rewrite() takes what gcc -S made of a file
 * compiled with -ffixed-r15 (r15 is then never used by that code) and
 * returns the same program with the count in it.  r15 holds the energy the
 * running unit has left this turn; nothing else may write it.
 *  - Every basic block (a label in code, or the instruction after a jump)
 *    first takes its weight off r15 with lea, which leaves the flags
 *    alone: one per instruction, ENERGY_ASM_DIV per integer division,
 *    ENERGY_ASM_FDIV per floating division or square root.  A rep string
 *    instruction takes rcx more (one per element it moves).  A block that
 *    starts with a check pays for it too.
 *  - Every cycle the code can take passes a check: function entries,
 *    labels a later jump goes back to (loop heads) and labels used as data
 *    (jump tables, computed gotos) test r15 and, below 0, call
 *    __aic_energy_pause, which hands the CPU back and returns next turn
 *    with every register and flag as it was.  The check steps over the
 *    red zone, and saves the flags when they may still be needed.
 *  - Names the file uses but does not define: the kit's API (uc_, loc_,
 *    dir_, type_) is left alone; a C library function the kit counts
 *    (memcpy, qsort, sin...: ENERGY_ASM_LIBRARY) becomes the kit's counted
 *    copy, __aic_memcpy; any other name is refused, named, since work done
 *    there could not be counted.  Names starting __aic_ may not be defined.
 *  - A move of the stack pointer down by a page or more (a large local
 *    array, a variable-length one) first calls __aic_stack_probe, which
 *    touches each page on the way, so a frame too big for the unit's stack
 *    faults in that stack's guard and nowhere else.
 *  - Refused: constructors and destructors (code that would run outside
 *    every unit), instructions that read the clock or the processor, call
 *    the system or touch what units share (the x87 status, protection
 *    keys...), and any naming of r15.
 * The same input always gives the same output.
 */
#ifndef AIC_ENERGY_ASM_H
#define AIC_ENERGY_ASM_H

#include <stddef.h>

#include "judge/base/error.h"

#define ENERGY_ASM_DIV 25
#define ENERGY_ASM_FDIV 5
/* The check's own price, paid with the block it starts; saving the flags
 * (pushfq, popfq) is slow. */
#define ENERGY_ASM_CHECK 2
#define ENERGY_ASM_CHECK_FLAGS 20
/* A move of the stack pointer down by this many bytes or more first calls
 * the kit's probe (__aic_stack_probe), at this price plus what the probe
 * charges per page. */
#define ENERGY_ASM_PROBE_FREE 4096
#define ENERGY_ASM_PROBE 10
/* The version of the rewrite, part of the compile cache's key. */
#define ENERGY_ASM_VERSION "aic2018 energy 4"

/* The C library functions a unit may call, comma-separated (the message
 * of a refusal lists them). */
extern const char energy_asm_library[];

/* Rewrites in[0..len) into *out (malloc'd, *out_len bytes, NUL-terminated).
 * 0: done; 1: refused, err says why in the contestant's words; -1: out of
 * memory. */
int energy_asm_rewrite(const char *in, size_t len, char **out, size_t *out_len, err_t err);

#endif
