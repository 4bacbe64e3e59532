/* holder.h - who holds a job: a worker slot named so that a later process
 * on the same host can prove it is gone.
 *
 * A name is "HOST:PID:START", START being the process's start time in
 * clock ticks since boot, so a pid the kernel handed out again to another
 * process does not pass for the old holder.  Nothing here knows the store.
 */
#ifndef JUDGE_BASE_HOLDER_H
#define JUDGE_BASE_HOLDER_H

#include <stdbool.h>
#include <sys/types.h>

#define HOLDER_LEN 128

/* This process's name. */
void holder_self(char out[HOLDER_LEN]);

/* True when name is a process of this host that no longer runs: no such
 * pid, or a pid started at another time.  A name of another host, or
 * one this host cannot judge, is not gone. */
bool holder_gone(const char *name);

#endif
