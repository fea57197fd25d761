// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thin-gen's sink: listening sockets (--ports), accept, the messages'
 * checks (length, pattern, sequence), latencies, its log and summary.
 */
#include "thin-gen.h"

struct conn {
	int fd, open, sack_on;
	char *buf;
	size_t len;
};

struct sink {
	struct opts *o;
	FILE *log;
	struct conn *c;
	int nc, capc, accepted, closed, epfd;
	uint32_t next[65536];
	unsigned long long msgs, bytes, dups, gaps, bad, corrupt, warmups;
	int64_t *lat;
	size_t nlat, caplat;
	uint64_t t0, end, next_prog;	/* ns, CLOCK_MONOTONIC */
	int ready;			/* --ready-file written */
	int lfd[MAX_PORTS];		/* listening, one per port */
};

static void sink_msg(struct sink *k, const char *m, size_t n, uint64_t recv_ns)
{
	uint16_t len, idx;
	uint32_t seq, j;
	uint64_t send_ns;

	if (n < HDR_LEN) {
		k->bad++;
		return;
	}
	memcpy(&len, m, 2);
	memcpy(&idx, m + 2, 2);
	memcpy(&seq, m + 4, 4);
	memcpy(&send_ns, m + 8, 8);
	if (len != n) {
		k->bad++;
		return;
	}
	for (j = HDR_LEN; j < n; j++)
		if ((uint8_t)m[j] != pattern(seq, j)) {
			k->corrupt++;
			break;
		}
	/* per association: 0, 1, 2, ... in arrival order */
	if (seq == k->next[idx]) {
		k->next[idx] = seq + 1;
	} else if (seq < k->next[idx]) {
		k->dups++;
	} else {
		k->gaps++;
		k->next[idx] = seq + 1;
	}
	if (!send_ns) {		/* the sender's --warmup */
		k->warmups++;
		return;
	}
	k->msgs++;
	k->bytes += n;
	if (k->nlat == k->caplat) {
		k->caplat = k->caplat ? k->caplat * 2 : 4096;
		k->lat = realloc(k->lat, k->caplat * sizeof(*k->lat));
		if (!k->lat)
			die("out of memory");
	}
	k->lat[k->nlat++] = (int64_t)(recv_ns - send_ns);
	if (k->log)
		fprintf(k->log, "%u %u %zu %llu %llu\n", idx, seq, n,
			(unsigned long long)send_ns, (unsigned long long)recv_ns);
}

static void conn_close(struct sink *k, struct conn *c)
{
	close(c->fd);
	c->open = 0;
	k->closed++;
	free(c->buf);
	c->buf = NULL;
}

/* SCTP: one read; a whole message (MSG_EOR) goes to sink_msg(). */
static ssize_t sink_recv_sctp(struct sink *k, struct conn *c, size_t cap)
{
	struct iovec iov = { c->buf + c->len, cap - c->len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t r;
	uint64_t t;

	r = recvmsg(c->fd, &mh, MSG_DONTWAIT);
	t = now_ns(CLOCK_REALTIME);
	if (r > 0 && (mh.msg_flags & MSG_NOTIFICATION)) {
		c->len = 0;
		return r;
	}
	if (r > 0) {
		c->len += r;
		if (mh.msg_flags & MSG_EOR || c->len == cap) {
			sink_msg(k, c->buf, c->len, t);
			c->len = 0;
		}
	}
	return r;
}

/* TCP: the messages complete in c->buf, framed by their length field.
 * Closes the connection on a bad length.
 */
static void sink_frames(struct sink *k, struct conn *c, uint64_t t)
{
	size_t off = 0;
	uint16_t ml;

	while (c->len - off >= 2) {
		memcpy(&ml, c->buf + off, 2);
		if (ml < HDR_LEN) {
			k->bad++;
			warnx("bad frame length %u; closing", ml);
			conn_close(k, c);
			return;
		}
		if (c->len - off < ml)
			break;
		sink_msg(k, c->buf + off, ml, t);
		off += ml;
	}
	memmove(c->buf, c->buf + off, c->len - off);
	c->len -= off;
}

/* TCP: one read, and the messages it completed. */
static ssize_t sink_recv_tcp(struct sink *k, struct conn *c, size_t cap)
{
	int one = 1;
	ssize_t r;
	uint64_t t;

	r = recv(c->fd, c->buf + c->len, cap - c->len, MSG_DONTWAIT);
	t = now_ns(CLOCK_REALTIME);
	if (r > 0) {
		c->len += r;
		sink_frames(k, c, t);
		if (!c->open)
			return r;
		if (k->o->sack_off)
			setsockopt(c->fd, IPPROTO_TCP, TCP_QUICKACK,
				   &one, sizeof(one));
	}
	return r;
}

static void sink_read(struct sink *k, struct conn *c)
{
	const size_t cap = 2 * MAX_MSG + 4096;
	ssize_t r;

	for (;;) {
		if (k->o->proto == P_SCTP)
			r = sink_recv_sctp(k, c, cap);
		else
			r = sink_recv_tcp(k, c, cap);
		if (!c->open)		/* a bad TCP frame */
			return;
		if (r == 0) {
			if (c->len)
				k->bad++;
			conn_close(k, c);
			return;
		}
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK) {
				warnx("recv: %s", strerror(errno));
				conn_close(k, c);
			}
			return;
		}
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static void sink_accept(struct sink *k, int lfd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct sctp_sack_info sk;
	socklen_t l;
	struct conn *c;
	int fd;

	while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		if (k->nc == k->capc) {
			k->capc = k->capc ? 2 * k->capc : 64;
			k->c = realloc(k->c, k->capc * sizeof(*k->c));
			if (!k->c)
				die("out of memory");
		}
		c = &k->c[k->nc++];
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->open = 1;
		c->buf = malloc(2 * MAX_MSG + 4096);
		if (!c->buf)
			die("out of memory");
		k->accepted++;
		/* conns are epoll data k->o->ports + index (k->c moves) */
		ev.data.u64 = (uint64_t)k->o->ports + k->nc - 1;
		if (epoll_ctl(k->epfd, EPOLL_CTL_ADD, fd, &ev))
			die("epoll_ctl: %s", strerror(errno));
		if (k->o->proto == P_SCTP) {
			memset(&sk, 0, sizeof(sk));
			l = sizeof(sk);
			if (!getsockopt(fd, IPPROTO_SCTP, SCTP_DELAYED_SACK, &sk, &l))
				c->sack_on = !(sk.sack_delay == 0 && sk.sack_freq == 1);
			/* One per readiness event: in 6.1 a non-blocking
			 * accept() on SCTP with nothing pending sleeps until
			 * the next timer tick before EAGAIN
			 * (sctp_wait_for_accept() calls schedule_timeout(0));
			 * epoll reports the socket again if more are pending.
			 */
			break;
		}
	}
}

/* Listening socket @i, on PORT + @i. */
static void sink_listen(struct sink *k, int i)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = i };
	struct opts *o = k->o;
	struct sockaddr_storage ss;
	int one = 1, fd;
	socklen_t len;

	parse_addr(o->addr, i, &ss, &len);
	fd = socket(ss.ss_family, SOCK_STREAM,
		    o->proto == P_SCTP ? IPPROTO_SCTP : IPPROTO_TCP);
	if (fd < 0)
		die("socket: %s", strerror(errno));
	k->lfd[i] = fd;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (o->proto == P_SCTP && o->sack_off) {
		/* 6.1: sack_freq 1 disables delayed SACK;
		 * sack_delay 0 leaves the delay unchanged.
		 */
		struct sctp_sack_info sk = {
			.sack_assoc_id = SCTP_FUTURE_ASSOC,
			.sack_delay = 0, .sack_freq = 1,
		};

		if (setsockopt(fd, IPPROTO_SCTP, SCTP_DELAYED_SACK, &sk, sizeof(sk)))
			die("setsockopt SCTP_DELAYED_SACK: %s", strerror(errno));
	}
	if (o->proto == P_TCP && o->sack_off)
		setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len))
		die("bind %s +%d: %s", o->addr, i, strerror(errno));
	if (listen(fd, 1024))
		die("listen: %s", strerror(errno));
	set_nonblock(fd);
	if (epoll_ctl(k->epfd, EPOLL_CTL_ADD, fd, &ev))
		die("epoll_ctl: %s", strerror(errno));
}

/* --ready-file, once --expect connections are accepted */
static void sink_ready(struct sink *k)
{
	const char *path = k->o->ready_file;
	FILE *f;

	if (!path || k->ready || k->accepted < k->o->expect)
		return;
	f = fopen(path, "w");
	if (!f)
		die("--ready-file %s: %s", path, strerror(errno));
	fprintf(f, "accepted %d in %.3f s\n", k->accepted,
		(now_ns(CLOCK_MONOTONIC) - k->t0) / 1e9);
	if (fclose(f))
		die("--ready-file %s: %s", path, strerror(errno));
	k->ready = 1;
}

/* Until --duration, or every connection closed after --expect of them. */
static void sink_loop(struct sink *k)
{
	struct epoll_event ev[256];
	struct opts *o = k->o;
	uint64_t mono;
	int i, n;

	while (!stop) {
		int timeout;

		mono = now_ns(CLOCK_MONOTONIC);
		if (mono >= k->end)
			break;
		if (k->accepted >= o->expect && k->closed == k->accepted)
			break;
		if (o->progress && mono >= k->next_prog) {
			fprintf(stderr, "thin-gen sink: %.0f s, %d open, %llu messages\n",
				(mono - k->t0) / 1e9, k->accepted - k->closed, k->msgs);
			k->next_prog += (uint64_t)o->progress * NSEC;
		}
		timeout = (k->end - mono) / MSEC + 1;
		if (o->progress && (k->next_prog - mono) / MSEC + 1 < (uint64_t)timeout)
			timeout = (k->next_prog - mono) / MSEC + 1;
		n = epoll_wait(k->epfd, ev, ARRAY_SIZE(ev), timeout);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("epoll_wait: %s", strerror(errno));
		}
		for (i = 0; i < n; i++) {
			uint64_t d = ev[i].data.u64;

			if (d < (uint64_t)o->ports)
				sink_accept(k, k->lfd[d]);
			else if (k->c[d - o->ports].open)
				sink_read(k, &k->c[d - o->ports]);
		}
		sink_ready(k);
	}
}

/* Everything closed, the summary.  Returns the exit code. */
static int sink_finish(struct sink *k)
{
	struct opts *o = k->o;
	int i, sack_on = 0;
	double sum = 0;

	for (i = 0; i < k->nc; i++) {
		sack_on += k->c[i].sack_on;
		if (k->c[i].open)
			conn_close(k, &k->c[i]);
	}
	for (i = 0; i < o->ports; i++)
		close(k->lfd[i]);
	close(k->epfd);
	if (k->log && fclose(k->log))
		die("writing %s: %s", o->log, strerror(errno));

	printf("thin-gen sink: proto=%s connections=%d messages=%llu bytes=%llu ",
	       o->proto == P_SCTP ? "sctp" : "tcp", k->accepted, k->msgs, k->bytes);
	printf("dups=%llu gaps=%llu bad=%llu corrupt=%llu elapsed=%.2f s\n",
	       k->dups, k->gaps, k->bad, k->corrupt,
	       (now_ns(CLOCK_MONOTONIC) - k->t0) / 1e9);
	if (k->warmups)
		printf("thin-gen sink: warm-up messages %llu (not counted above)\n", k->warmups);
	if (o->proto == P_SCTP)
		printf("thin-gen sink: delayed SACK %s on %d of %d connections\n",
		       "still enabled", sack_on, k->accepted);
	if (k->nlat) {
		qsort(k->lat, k->nlat, sizeof(*k->lat), cmp_i64);
		for (size_t j = 0; j < k->nlat; j++)
			sum += k->lat[j];
		printf("thin-gen sink: latency ms mean=%.3f p50=%.3f p99=%.3f max=%.3f min=%.3f\n",
		       sum / k->nlat / 1e6, k->lat[(k->nlat - 1) / 2] / 1e6,
		       k->lat[(size_t)((k->nlat - 1) * 0.99 + 0.5)] / 1e6,
		       k->lat[k->nlat - 1] / 1e6, k->lat[0] / 1e6);
	}
	if (!k->accepted) {
		warnx("sink: no connection within %.0f s", o->duration);
		return 1;
	}
	return (k->bad || k->corrupt) ? 1 : 0;
}

int do_sink(struct opts *o)
{
	struct sink *k = calloc(1, sizeof(*k));
	int i;

	if (!k)
		die("out of memory");
	k->o = o;
	/* epoll, not poll: a wake costs O(ready), not O(connections)
	 * (bench-scale has 2 x 10,000 sockets here).
	 */
	k->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (k->epfd < 0)
		die("epoll_create1: %s", strerror(errno));
	k->log = open_log(o->log);
	if (k->log)
		fprintf(k->log, "# thin-gen sink proto=%s listen=%s ports=%d sack_delay_off=%d\n"
			"# assoc seq size send_ns recv_ns\n",
			o->proto == P_SCTP ? "sctp" : "tcp", o->addr, o->ports,
			o->sack_off);
	for (i = 0; i < o->ports; i++)
		sink_listen(k, i);
	k->t0 = now_ns(CLOCK_MONOTONIC);
	k->end = k->t0 + (uint64_t)(o->duration * NSEC);
	k->next_prog = k->t0 + (uint64_t)o->progress * NSEC;
	sink_loop(k);
	return sink_finish(k);
}
