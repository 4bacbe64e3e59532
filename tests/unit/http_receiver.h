/* http_receiver.h - a tiny HTTP server on 127.0.0.1, for the webhook tests.
 *
 * rcv_start() listens on an ephemeral port and serves from one thread:
 * it accepts, reads each request whole (Content-Length), records the first
 * and the latest one, and answers as programmed: a status and a body of so
 * many bytes, or a script of canned answers (one per request), or nothing
 * at all (it holds the connection until stopped), or a hang-up.
 * rcv_stop() wakes the thread, joins it and closes every descriptor; after
 * it the record may be read without locks.  Nothing is on the heap: a
 * struct http_receiver (about 150 KiB) lives on the test's stack.  The thread also gives up by
 * itself after RCV_IDLE_MS without a connection, so a test that dies early
 * cannot leave it waiting forever.
 */
#ifndef HTTP_RECEIVER_H
#define HTTP_RECEIVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RCV_IDLE_MS 10000
#define RCV_HEAD_MAX 8192
#define RCV_BODY_MAX (64 * 1024)

enum rcv_mode {
	RCV_ANSWER, /* answer status with answer_bytes of body */
	RCV_SILENT, /* read the request, never answer */
	RCV_HANGUP, /* read the request, close the connection */
};

/* A canned answer: status, headers and body as given. */
struct rcv_reply {
	int status;
	const char *extra_headers; /* e.g. "Retry-After: 30\r\n", or NULL */
	const char *body;
};

struct rcv_program {
	enum rcv_mode mode;
	int status;
	const char *extra_headers; /* e.g. "Location: /x\r\n", or NULL */
	size_t answer_bytes;
	/* When set, RCV_ANSWER answers request i (0-based, all connections)
	 * with replies[i], the last one repeated once they run out, instead
	 * of status and answer_bytes of 'x'. */
	const struct rcv_reply *replies;
	size_t n_replies;
};

struct rcv_request {
	char method[16];
	char path[256];
	char head[RCV_HEAD_MAX + 1]; /* the header lines, as received */
	char body[RCV_BODY_MAX + 1]; /* NUL-terminated; cut at RCV_BODY_MAX */
	size_t body_len;             /* as received, even when cut */
};

struct http_receiver {
	struct rcv_program prog;
	uint16_t port;
	int listen_fd;
	int stop_pipe[2];
	pthread_t thread;
	bool running;
	unsigned requests;       /* requests read, all connections */
	size_t answer_sent;      /* bytes of answer body the client took */
	struct rcv_request first;
	struct rcv_request last;  /* the latest request read */
};

/* 0, or -1 (errno set) when the socket or the thread cannot be had. */
int rcv_start(struct http_receiver *r, const struct rcv_program *prog);
void rcv_stop(struct http_receiver *r);

/* The value of header name in req (case-insensitive), copied into out;
 * false when the request had no such header. */
bool rcv_header(const struct rcv_request *req, const char *name, char *out, size_t size);

/* "http://127.0.0.1:PORT/path" into out. */
void rcv_url(const struct http_receiver *r, const char *path, char *out, size_t size);

#endif
