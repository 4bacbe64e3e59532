/* gate.h - which connections `judge serve` takes, and how long a request
 * may take to arrive.
 *
 * Promises.  At most `connections` open at once, at most `per_address`
 * of them from one address (an IPv6 address counted with its /64, the
 * block one machine is given), and the last `reserved` of them only for
 * addresses holding fewer than GATE_RESERVE_SHARE: a few addresses that
 * hold many connections cannot shut everybody else out.  A connection has
 * `request_ms` from its opening, or from the end of its last answer, to
 * deliver a whole request (head and body), however it trickles;
 * gate_cut_overdue hands out the ones that did not.  Connections are
 * named by their socket.  Thread-safe (one lock); no state outside a gate.
 */
#ifndef JUDGE_SERVE_GATE_H
#define JUDGE_SERVE_GATE_H

#include <stdint.h>
#include <sys/socket.h>

/* A browser opens up to 6 connections to a server. */
#define GATE_RESERVE_SHARE 8

struct gate_limits {
	unsigned connections;  /* open at once */
	unsigned per_address;  /* of which from one address */
	unsigned reserved;     /* the last ones, for addresses holding few */
	int64_t request_ms;    /* to deliver one whole request */
};

enum gate_verdict {
	GATE_ADMIT,
	GATE_FULL,          /* `connections` are open */
	GATE_ADDRESS_FULL,  /* the address holds `per_address` */
	GATE_RESERVED,      /* only the reserve is left, and the address holds a share */
	GATE_NO_MEMORY,
};

struct gate;

struct gate *gate_new(const struct gate_limits *limits);
void gate_free(struct gate *g);

/* Counts socket fd, just accepted from address sa, when the limits let it
 * in (its request clock starting at now_ms). */
enum gate_verdict gate_admit(struct gate *g, int fd, const struct sockaddr *sa, int64_t now_ms);
/* fd is being closed: no longer counted.  Nothing when it was not. */
void gate_forget(struct gate *g, int fd);
/* fd's request has arrived whole: its clock stops while it is answered. */
void gate_answering(struct gate *g, int fd);
/* fd's answer is sent: the next request's clock starts at now_ms. */
void gate_waiting(struct gate *g, int fd, int64_t now_ms);
/* Calls cut(fd, arg) once for each connection whose request is past its
 * time, with the gate's lock held: fd cannot be closed meanwhile by a
 * thread that calls gate_forget first. */
void gate_cut_overdue(struct gate *g, int64_t now_ms, void (*cut)(int fd, void *arg), void *arg);
/* How many connections are counted: from sa's address, or in all when sa
 * is NULL. */
unsigned gate_count(struct gate *g, const struct sockaddr *sa);

#endif
