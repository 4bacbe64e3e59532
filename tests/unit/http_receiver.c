/* http_receiver.c - see http_receiver.h. */
#include "tests/unit/http_receiver.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

/* 1 when fd has something (data, end of file or an error) to read, 0 when
 * the receiver is told to stop or nothing came within timeout_ms. */
static int wait_readable(const struct http_receiver *r, int fd, int timeout_ms)
{
	struct pollfd p[2] = { { fd, POLLIN, 0 }, { r->stop_pipe[0], POLLIN, 0 } };
	int n;
	do
		n = poll(p, 2, timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n <= 0 || p[1].revents)
		return 0;
	return 1;
}

/* Reads into buf[0 .. size); bytes read, 0 at end of file or on stop. */
static ssize_t read_some(const struct http_receiver *r, int fd, char *buf, size_t size)
{
	if (wait_readable(r, fd, RCV_IDLE_MS) != 1)
		return 0;
	ssize_t n = read(fd, buf, size);
	return n < 0 ? 0 : n;
}

bool rcv_header(const struct rcv_request *req, const char *name, char *out, size_t size)
{
	size_t name_len = strlen(name);
	const char *line = strstr(req->head, "\r\n"); /* past the request line */
	while (line && line[2] != '\r' && line[2] != '\0') {
		line += 2;
		const char *end = strstr(line, "\r\n");
		if (!end)
			return false;
		if (strncasecmp(line, name, name_len) == 0 && line[name_len] == ':') {
			const char *v = line + name_len + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			snprintf(out, size, "%.*s", (int)(end - v), v);
			return true;
		}
		line = end;
	}
	return false;
}

/* The header block, up to and including the blank line, into req->head;
 * what came after it (the body's start) into body.  -1 when it never ends. */
static int read_head(const struct http_receiver *r, int fd, struct rcv_request *req,
		     size_t *body_have)
{
	size_t have = 0;
	char *end = NULL;
	while (!end) {
		if (have == RCV_HEAD_MAX)
			return -1;
		ssize_t n = read_some(r, fd, req->head + have, RCV_HEAD_MAX - have);
		if (n == 0)
			return -1;
		have += (size_t)n;
		req->head[have] = '\0';
		end = strstr(req->head, "\r\n\r\n");
	}
	size_t head_len = (size_t)(end + 4 - req->head);
	*body_have = have - head_len;
	memcpy(req->body, end + 4, *body_have);
	req->head[head_len] = '\0';
	return 0;
}

/* The rest of a Content-Length body; bytes past RCV_BODY_MAX are counted
 * and dropped. */
static int read_body(const struct http_receiver *r, int fd, struct rcv_request *req,
		     size_t have)
{
	char len_text[32], sink[4096];
	size_t want = 0;
	if (rcv_header(req, "Content-Length", len_text, sizeof len_text))
		want = strtoul(len_text, NULL, 10);
	while (have < want) {
		char *to = have < RCV_BODY_MAX ? req->body + have : sink;
		size_t room = have < RCV_BODY_MAX ? RCV_BODY_MAX - have : sizeof sink;
		ssize_t n = read_some(r, fd, to, room < want - have ? room : want - have);
		if (n == 0)
			return -1;
		have += (size_t)n;
	}
	req->body_len = have;
	req->body[have < RCV_BODY_MAX ? have : RCV_BODY_MAX] = '\0';
	return 0;
}

static int read_request(struct http_receiver *r, int fd)
{
	/* The first request and the latest are kept; each is read into the
	 * latest's record, and the first is a copy of it. */
	struct rcv_request *req = &r->last;
	size_t body_have;
	memset(req->method, 0, sizeof req->method);
	memset(req->path, 0, sizeof req->path);
	if (read_head(r, fd, req, &body_have) < 0 || read_body(r, fd, req, body_have) < 0)
		return -1;
	sscanf(req->head, "%15s %255s", req->method, req->path);
	if (r->requests++ == 0)
		r->first = *req;
	return 0;
}

/* Bytes sent before the client went away. */
static size_t send_all(int fd, const char *p, size_t len)
{
	size_t sent = 0;
	while (sent < len) {
		/* MSG_NOSIGNAL: a client that hangs up must not kill the tests. */
		ssize_t n = send(fd, p + sent, len - sent, MSG_NOSIGNAL);
		if (n <= 0)
			break;
		sent += (size_t)n;
	}
	return sent;
}

/* The canned reply for the request just read (requests counts it). */
static void answer_scripted(struct http_receiver *r, int fd)
{
	size_t i = r->requests - 1 < r->prog.n_replies ? r->requests - 1 : r->prog.n_replies - 1;
	const struct rcv_reply *rp = &r->prog.replies[i];
	const char *body = rp->body ? rp->body : "";
	char head[1024];
	int n = snprintf(head, sizeof head, "HTTP/1.1 %d Canned\r\nContent-Length: %zu\r\n"
			 "Content-Type: application/json\r\nConnection: close\r\n%s\r\n",
			 rp->status, strlen(body), rp->extra_headers ? rp->extra_headers : "");
	send_all(fd, head, (size_t)n);
	r->answer_sent += send_all(fd, body, strlen(body));
}

static void answer(struct http_receiver *r, int fd)
{
	if (r->prog.n_replies > 0) {
		answer_scripted(r, fd);
		return;
	}
	char head[512], chunk[4096];
	int n = snprintf(head, sizeof head, "HTTP/1.1 %d Programmed\r\nContent-Length: %zu\r\n"
			 "Connection: close\r\n%s\r\n", r->prog.status, r->prog.answer_bytes,
			 r->prog.extra_headers ? r->prog.extra_headers : "");
	send_all(fd, head, (size_t)n);
	memset(chunk, 'x', sizeof chunk);
	for (size_t left = r->prog.answer_bytes; left > 0;) {
		size_t k = left < sizeof chunk ? left : sizeof chunk;
		size_t sent = send_all(fd, chunk, k);
		r->answer_sent += sent;
		if (sent < k)
			break;
		left -= k;
	}
}

/* Holds the connection open, answering nothing, until the client gives up
 * or the receiver is stopped. */
static void stay_silent(const struct http_receiver *r, int fd)
{
	char sink[512];
	while (read_some(r, fd, sink, sizeof sink) > 0)
		;
}

static void serve_one(struct http_receiver *r, int fd)
{
	if (read_request(r, fd) < 0)
		return;
	if (r->prog.mode == RCV_ANSWER)
		answer(r, fd);
	else if (r->prog.mode == RCV_SILENT)
		stay_silent(r, fd);
}

static void *serve(void *arg)
{
	struct http_receiver *r = arg;
	while (wait_readable(r, r->listen_fd, RCV_IDLE_MS) == 1) {
		int fd = accept4(r->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			break;
		serve_one(r, fd);
		close(fd);
	}
	return NULL;
}

static int listen_loopback(uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 16) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	*port = ntohs(a.sin_port);
	return fd;
}

int rcv_start(struct http_receiver *r, const struct rcv_program *prog)
{
	memset(r, 0, sizeof *r);
	r->prog = *prog;
	r->listen_fd = listen_loopback(&r->port);
	if (r->listen_fd < 0)
		return -1;
	if (pipe2(r->stop_pipe, O_CLOEXEC) < 0) {
		close(r->listen_fd);
		return -1;
	}
	int e = pthread_create(&r->thread, NULL, serve, r);
	if (e != 0) {
		close(r->listen_fd);
		close(r->stop_pipe[0]);
		close(r->stop_pipe[1]);
		errno = e;
		return -1;
	}
	r->running = true;
	return 0;
}

void rcv_stop(struct http_receiver *r)
{
	if (!r->running)
		return;
	/* The pipe stays readable once written, so every wait in the thread
	 * sees it, however deep in a request it is. */
	if (write(r->stop_pipe[1], "x", 1) < 0)
		perror("rcv_stop");
	pthread_join(r->thread, NULL);
	close(r->listen_fd);
	close(r->stop_pipe[0]);
	close(r->stop_pipe[1]);
	r->running = false;
}

void rcv_url(const struct http_receiver *r, const char *path, char *out, size_t size)
{
	snprintf(out, size, "http://127.0.0.1:%u%s", (unsigned)r->port, path);
}
