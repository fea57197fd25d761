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

static void sink_read(struct sink *k, struct conn *c)
{
	const size_t cap = 2 * MAX_MSG + 4096;
	int one = 1;
	uint64_t t;
	ssize_t r;

	for (;;) {
		if (k->o->proto == P_SCTP) {
			struct iovec iov = { c->buf + c->len, cap - c->len };
			struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

			r = recvmsg(c->fd, &mh, MSG_DONTWAIT);
			t = now_ns(CLOCK_REALTIME);
			if (r > 0 && (mh.msg_flags & MSG_NOTIFICATION)) {
				c->len = 0;
				continue;
			}
			if (r > 0) {
				c->len += r;
				if (mh.msg_flags & MSG_EOR || c->len == cap) {
					sink_msg(k, c->buf, c->len, t);
					c->len = 0;
				}
			}
		} else {
			size_t off = 0;
			uint16_t ml;

			r = recv(c->fd, c->buf + c->len, cap - c->len, MSG_DONTWAIT);
			t = now_ns(CLOCK_REALTIME);
			if (r > 0) {
				c->len += r;
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
				if (k->o->sack_off)
					setsockopt(c->fd, IPPROTO_TCP, TCP_QUICKACK,
						   &one, sizeof(one));
			}
		}
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

int do_sink(struct opts *o)
{
	struct sink *k = calloc(1, sizeof(*k));
	uint64_t t0, end, next_prog, mono;
	struct sockaddr_storage ss;
	int lfd[MAX_PORTS], i, n, one = 1, sack_on = 0, ready = 0;
	struct epoll_event ev[256];
	socklen_t len;
	double sum = 0;

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
	for (i = 0; i < o->ports; i++) {
		parse_addr(o->addr, i, &ss, &len);
		lfd[i] = socket(ss.ss_family, SOCK_STREAM,
				o->proto == P_SCTP ? IPPROTO_SCTP : IPPROTO_TCP);
		if (lfd[i] < 0)
			die("socket: %s", strerror(errno));
		setsockopt(lfd[i], SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (o->proto == P_SCTP && o->sack_off) {
			/* 6.1: sack_freq 1 disables delayed SACK;
			 * sack_delay 0 leaves the delay unchanged.
			 */
			struct sctp_sack_info sk = {
				.sack_assoc_id = SCTP_FUTURE_ASSOC,
				.sack_delay = 0, .sack_freq = 1,
			};

			if (setsockopt(lfd[i], IPPROTO_SCTP, SCTP_DELAYED_SACK, &sk, sizeof(sk)))
				die("setsockopt SCTP_DELAYED_SACK: %s", strerror(errno));
		}
		if (o->proto == P_TCP && o->sack_off)
			setsockopt(lfd[i], IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
		if (bind(lfd[i], (struct sockaddr *)&ss, len))
			die("bind %s +%d: %s", o->addr, i, strerror(errno));
		if (listen(lfd[i], 1024))
			die("listen: %s", strerror(errno));
		set_nonblock(lfd[i]);
		ev[0] = (struct epoll_event){ .events = EPOLLIN, .data.u64 = i };
		if (epoll_ctl(k->epfd, EPOLL_CTL_ADD, lfd[i], &ev[0]))
			die("epoll_ctl: %s", strerror(errno));
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	end = t0 + (uint64_t)(o->duration * NSEC);
	next_prog = t0 + (uint64_t)o->progress * NSEC;
	while (!stop) {
		int timeout;

		mono = now_ns(CLOCK_MONOTONIC);
		if (mono >= end)
			break;
		if (k->accepted >= o->expect && k->closed == k->accepted)
			break;
		if (o->progress && mono >= next_prog) {
			fprintf(stderr, "thin-gen sink: %.0f s, %d open, %llu messages\n",
				(mono - t0) / 1e9, k->accepted - k->closed, k->msgs);
			next_prog += (uint64_t)o->progress * NSEC;
		}
		timeout = (end - mono) / MSEC + 1;
		if (o->progress && (next_prog - mono) / MSEC + 1 < (uint64_t)timeout)
			timeout = (next_prog - mono) / MSEC + 1;
		n = epoll_wait(k->epfd, ev, ARRAY_SIZE(ev), timeout);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("epoll_wait: %s", strerror(errno));
		}
		for (i = 0; i < n; i++) {
			uint64_t d = ev[i].data.u64;

			if (d < (uint64_t)o->ports)
				sink_accept(k, lfd[d]);
			else if (k->c[d - o->ports].open)
				sink_read(k, &k->c[d - o->ports]);
		}
		if (o->ready_file && !ready && k->accepted >= o->expect) {
			FILE *f = fopen(o->ready_file, "w");

			if (!f)
				die("--ready-file %s: %s", o->ready_file, strerror(errno));
			fprintf(f, "accepted %d in %.3f s\n", k->accepted,
				(now_ns(CLOCK_MONOTONIC) - t0) / 1e9);
			if (fclose(f))
				die("--ready-file %s: %s", o->ready_file, strerror(errno));
			ready = 1;
		}
	}
	for (i = 0; i < k->nc; i++) {
		sack_on += k->c[i].sack_on;
		if (k->c[i].open)
			conn_close(k, &k->c[i]);
	}
	for (i = 0; i < o->ports; i++)
		close(lfd[i]);
	close(k->epfd);
	if (k->log && fclose(k->log))
		die("writing %s: %s", o->log, strerror(errno));

	printf("thin-gen sink: proto=%s connections=%d messages=%llu bytes=%llu ",
	       o->proto == P_SCTP ? "sctp" : "tcp", k->accepted, k->msgs, k->bytes);
	printf("dups=%llu gaps=%llu bad=%llu corrupt=%llu elapsed=%.2f s\n",
	       k->dups, k->gaps, k->bad, k->corrupt,
	       (now_ns(CLOCK_MONOTONIC) - t0) / 1e9);
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
