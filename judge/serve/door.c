/* door.c - the listening socket `judge serve` owns (serve_int.h).  One
 * thread accepts each connection, asks the gate (gate.h) whether to take
 * it, hands the ones taken to MHD and refuses the others with a short
 * answer; every tick it cuts the connections whose request is past its
 * time.  MHD itself listens on nothing. */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "judge/serve/gate.h"
#include "judge/serve/serve_int.h"

/* How often overdue requests are looked for: a deadline holds to a tick. */
#define DOOR_TICK_MS 100
/* Connections taken per wake-up before the deadlines are looked at again. */
#define DOOR_BATCH 64

struct door {
	int listen_fd, wake_fd;
	uint16_t port;
	struct gate *gate;
	struct MHD_Daemon *daemon;
	pthread_t thread;
	bool running;
};

static int64_t door_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the socket ------------------------------------------------------------------ */

static int door_address(const char *host, uint16_t port, struct sockaddr_storage *ss,
			socklen_t *len, err_t err)
{
	memset(ss, 0, sizeof *ss);
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		*len = sizeof *in;
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		*len = sizeof *in6;
	} else {
		err_set(err, "cannot listen on '%s': give a numeric address, as "
			 "127.0.0.1 (a reverse proxy in front gives the name)", host);
		return -1;
	}
	return 0;
}

static int door_listen(struct door *d, const char *host, uint16_t port, err_t err)
{
	struct sockaddr_storage ss;
	socklen_t len;
	if (door_address(host, port, &ss, &len, err) < 0)
		return -1;
	int one = 1;
	d->listen_fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (d->listen_fd < 0 ||
	    setsockopt(d->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    (ss.ss_family == AF_INET6 &&
	     setsockopt(d->listen_fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) < 0) ||
	    bind(d->listen_fd, (struct sockaddr *)&ss, len) < 0 ||
	    listen(d->listen_fd, SOMAXCONN) < 0 ||
	    getsockname(d->listen_fd, (struct sockaddr *)&ss, &len) < 0) {
		err_set(err, "cannot listen on %s port %u: the port is taken or the "
			 "address is not this machine's (%s)", host, port, strerror(errno));
		return -1;
	}
	d->port = ntohs(ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
						: ((struct sockaddr_in6 *)&ss)->sin6_port);
	return 0;
}

struct door *door_open(const char *host, uint16_t port, const struct gate_limits *limits,
		       err_t err)
{
	struct door *d = calloc(1, sizeof *d);
	if (!d) {
		err_set(err, "out of memory");
		return NULL;
	}
	d->listen_fd = d->wake_fd = -1;
	d->gate = gate_new(limits);
	d->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!d->gate || d->wake_fd < 0) {
		err_set(err, "cannot set up the listener: %s", strerror(errno));
		door_close(d);
		return NULL;
	}
	if (door_listen(d, host, port, err) < 0) {
		door_close(d);
		return NULL;
	}
	return d;
}

uint16_t door_port(const struct door *d)
{
	return d->port;
}

/* ---- taking and refusing ---------------------------------------------------------- */

/* A refused connection is told why in one answer it needs no request for. */
static void door_refuse(int fd, enum gate_verdict v)
{
	const char *status = "503 Service Unavailable", *why;
	switch (v) {
	case GATE_ADDRESS_FULL:
		status = "429 Too Many Requests";
		why = "your address holds as many connections as this service allows one address: "
		      "close some";
		break;
	case GATE_RESERVED:
		why = "the service is busy and your address holds several connections already: "
		      "close some or try again in a few seconds";
		break;
	default:
		why = "the service is full: try again in a few seconds";
	}
	char reply[512];
	int n = snprintf(reply, sizeof reply, "HTTP/1.1 %s\r\nContent-Type: application/json; "
			 "charset=utf-8\r\nConnection: close\r\nRetry-After: 5\r\n"
			 "Content-Length: %zu\r\n\r\n{\"error\":\"%s\"}", status, strlen(why) + 12, why);
	/* A fresh socket's buffer takes it whole; never wait for a client here. */
	if (send(fd, reply, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) == n)
		shutdown(fd, SHUT_WR);
	close(fd);
}

/* Takes the connections waiting: 0, or -1 when accept fails for want of
 * descriptors or memory (the listener then rests for a tick). */
static int door_take(struct door *d)
{
	for (int i = 0; i < DOOR_BATCH; i++) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof ss;
		int fd = accept4(d->listen_fd, (struct sockaddr *)&ss, &len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EINTR || errno == ECONNABORTED))
			continue;
		if (fd < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
		const struct sockaddr *sa = (const struct sockaddr *)&ss;
		enum gate_verdict v = gate_admit(d->gate, fd, sa, door_now_ms());
		if (v != GATE_ADMIT)
			door_refuse(fd, v);
		else if (MHD_add_connection(d->daemon, fd, sa, len) != MHD_YES)
			gate_forget(d->gate, fd); /* MHD has closed it */
	}
	return 0;
}

/* Past its time: the socket is shut, and MHD, reading its end, closes it. */
static void door_cut(int fd, void *arg)
{
	(void)arg;
	shutdown(fd, SHUT_RDWR);
}

static void *door_run(void *arg)
{
	struct door *d = arg;
	bool resting = false;
	for (;;) {
		struct pollfd p[2] = { { .fd = d->wake_fd, .events = POLLIN },
				       { .fd = d->listen_fd, .events = POLLIN } };
		poll(p, resting ? 1 : 2, DOOR_TICK_MS);
		if (p[0].revents)
			break;
		resting = (p[1].revents & POLLIN) && door_take(d) < 0;
		gate_cut_overdue(d->gate, door_now_ms(), door_cut, NULL);
	}
	return NULL;
}

int door_start(struct door *d, struct MHD_Daemon *daemon, err_t err)
{
	d->daemon = daemon;
	int rc = pthread_create(&d->thread, NULL, door_run, d);
	if (rc != 0) {
		err_set(err, "cannot start the listener's thread: %s", strerror(rc));
		return -1;
	}
	d->running = true;
	return 0;
}

void door_stop(struct door *d)
{
	if (!d || !d->running)
		return;
	uint64_t one = 1;
	if (write(d->wake_fd, &one, sizeof one) != sizeof one)
		pthread_cancel(d->thread);
	pthread_join(d->thread, NULL);
	d->running = false;
}

void door_close(struct door *d)
{
	if (!d)
		return;
	door_stop(d);
	if (d->listen_fd >= 0)
		close(d->listen_fd);
	if (d->wake_fd >= 0)
		close(d->wake_fd);
	gate_free(d->gate);
	free(d);
}

/* ---- what MHD tells ----------------------------------------------------------------- */

static int connection_fd(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c,
		MHD_CONNECTION_INFO_CONNECTION_FD);
	return ci ? ci->connect_fd : -1;
}

void door_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		 enum MHD_ConnectionNotificationCode code)
{
	(void)socket_context;
	struct door *d = cls;
	if (code == MHD_CONNECTION_NOTIFY_CLOSED)
		gate_forget(d->gate, connection_fd(c));
}

void door_answering(struct door *d, struct MHD_Connection *c)
{
	gate_answering(d->gate, connection_fd(c));
}

void door_waiting(struct door *d, struct MHD_Connection *c)
{
	gate_waiting(d->gate, connection_fd(c), door_now_ms());
}
