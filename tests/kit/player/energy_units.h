/* energy_units.h - instrumented unit bodies for the energy tests. */
#ifndef TEST_ENERGY_UNITS_H
#define TEST_ENERGY_UNITS_H

/* Counts *(volatile long *)arg up forever, never yielding. */
void spin_forever(void *arg);
/* Each turn: an empty loop of *(volatile long *)arg rounds, then yield. */
void loop_then_yield(void *arg);

#endif
