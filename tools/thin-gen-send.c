// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thin-gen's sender: the schedule (a heap of the associations by due
 * time, the intervals and sizes drawn, --phases), the application queue
 * of each association and its writes, --warmup, the drain, the summary.
 * thin-gen-assoc.c sets the sockets up and reads what they say.
 */
#include "thin-gen.h"

static const char *const dist_names[] = { "fixed", "exp", "pareto", "profile" };

static void heap_swap(struct sender *s, int i, int j)
{
	int t = s->heap[i];

	s->heap[i] = s->heap[j];
	s->heap[j] = t;
}

static int heap_less(struct sender *s, int i, int j)
{
	return s->a[s->heap[i]].due < s->a[s->heap[j]].due;
}

static void heap_down(struct sender *s, int i)
{
	int l, m;

	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < s->nheap && heap_less(s, l, m))
			m = l;
		if (l + 1 < s->nheap && heap_less(s, l + 1, m))
			m = l + 1;
		if (m == i)
			return;
		heap_swap(s, i, m);
		i = m;
	}
}

static void heap_push(struct sender *s, int a)
{
	int i = s->nheap++;

	s->heap[i] = a;
	while (i > 0 && heap_less(s, i, (i - 1) / 2)) {
		heap_swap(s, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

/* next interval in ns */
static uint64_t draw_interval(struct sender *s, struct assoc *a)
{
	double ms = s->o->interval, u = rng_unif(&a->rng), xm;

	switch (s->o->dist) {
	case D_EXP:
		ms = -s->o->interval * log(u);
		break;
	case D_PARETO:
		xm = s->o->interval * (s->o->pareto_shape - 1) / s->o->pareto_shape;
		ms = xm / pow(u, 1 / s->o->pareto_shape);
		break;
	case D_PROFILE:
		ms = q_eval(&s->qiat, u);
		break;
	}
	return (uint64_t)(ms * MSEC);
}

static uint32_t draw_size(struct sender *s, struct assoc *a)
{
	long v;

	if (s->o->dist != D_PROFILE)
		return s->o->size;
	v = lround(q_eval(&s->qsize, rng_unif(&a->rng)));
	return v < HDR_LEN ? HDR_LEN : v > MAX_MSG ? MAX_MSG : v;
}

static void build_msg(char *buf, const struct assoc *a, const struct pend *p)
{
	uint16_t len = p->size, idx = a->idx;
	uint32_t j;

	memcpy(buf, &len, 2);
	memcpy(buf + 2, &idx, 2);
	memcpy(buf + 4, &p->seq, 4);
	memcpy(buf + 8, &p->send_ns, 8);
	for (j = HDR_LEN; j < p->size; j++)
		buf[j] = pattern(p->seq, j);
}

void assoc_fail(struct assoc *a, const char *why, int err)
{
	if (!a->failed)
		warnx("assoc %d: %s%s%s", a->idx, why, err ? ": " : "",
		      err ? strerror(err) : "");
	a->failed = 1;
	a->qlen = 0;
}

/* Write as much of the assoc's queue as the socket takes.  Returns 1 if
 * the socket is full (EAGAIN).
 */
static int flush(struct sender *s, struct assoc *a)
{
	char cbuf[CMSG_SPACE(sizeof(struct sctp_sndinfo))];
	struct pend *p;
	ssize_t r;

	while (a->qlen && !a->failed) {
		p = &a->q[a->qhead];
		build_msg(s->buf, a, p);
		if (s->o->one_to_many || s->o->sack_imm) {
			struct iovec iov = { s->buf + a->off, p->size - a->off };
			struct msghdr mh = {
				.msg_iov = &iov, .msg_iovlen = 1,
				.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
			};
			struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
			struct sctp_sndinfo si = { .snd_assoc_id = a->id };

			if (s->o->sack_imm)
				si.snd_flags = SCTP_SACK_IMMEDIATELY;

			c->cmsg_level = IPPROTO_SCTP;
			c->cmsg_type = SCTP_SNDINFO;
			c->cmsg_len = CMSG_LEN(sizeof(si));
			memcpy(CMSG_DATA(c), &si, sizeof(si));
			r = sendmsg(a->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
		} else {
			r = send(a->fd, s->buf + a->off, p->size - a->off,
				 MSG_DONTWAIT | MSG_NOSIGNAL);
		}
		if (r < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 1;
			if (errno == EINTR)
				continue;
			assoc_fail(a, "send", errno);
			/* The notifications queued before the error (an
			 * abort's COMM_LOST): the socket is not polled again.
			 */
			if (!s->o->one_to_many)
				sender_read(s, a);
			return 0;
		}
		a->off += r;
		if (a->off < p->size)	/* TCP partial write */
			return 1;
		a->off = 0;
		a->qhead = (a->qhead + 1) % a->qcap;
		a->qlen--;
	}
	return 0;
}

/* A new entry at the tail of the assoc's application queue. */
static struct pend *queue_add(struct assoc *a)
{
	if (a->qlen == a->qcap) {
		unsigned int ncap = a->qcap ? a->qcap * 2 : 16, i;
		struct pend *nq = malloc(ncap * sizeof(*nq));

		if (!nq)
			die("out of memory");
		for (i = 0; i < a->qlen; i++)
			nq[i] = a->q[(a->qhead + i) % a->qcap];
		free(a->q);
		a->q = nq;
		a->qhead = 0;
		a->qcap = ncap;
	}
	a->qlen++;
	return &a->q[(a->qhead + a->qlen - 1) % a->qcap];
}

static void gen_msg(struct sender *s, struct assoc *a, uint64_t mono)
{
	struct pend *p = queue_add(a);
	uint64_t lag = mono - a->due;

	p->seq = a->seq++;
	p->size = draw_size(s, a);
	p->send_ns = now_ns(CLOCK_REALTIME);
	a->msgs++;
	a->bytes += p->size;
	s->lag_sum += lag;
	s->lag_n++;
	if (lag > s->lag_max)
		s->lag_max = lag;
	if (lag > 10 * MSEC)
		s->late++;
	if (s->log)
		fprintf(s->log, "%d %u %u %llu\n", a->idx, p->seq, p->size,
			(unsigned long long)p->send_ns);
	if (flush(s, a) && s->o->one_to_many)
		s->shared_blocked = 1;
}

/* Messages not yet acknowledged by the peer (queued ones included). */
static long unacked(struct sender *s, struct assoc *a)
{
	struct sctp_status st;
	socklen_t l = sizeof(st);
	int n = 0;

	if (a->failed)
		return 0;
	if (a->qlen)
		return a->qlen;
	if (s->o->proto == P_TCP) {
		if (ioctl(a->fd, SIOCOUTQ, &n))
			return 0;
		return n;
	}
	memset(&st, 0, sizeof(st));
	st.sstat_assoc_id = s->o->one_to_many ? a->id : 0;
	if (getsockopt(a->fd, IPPROTO_SCTP, SCTP_STATUS, &st, &l))
		return 0;
	return st.sstat_unackdata + st.sstat_penddata;
}

/* Read notifications and send what is queued until the peer has
 * acknowledged every message or @deadline (CLOCK_MONOTONIC) has passed;
 * returns what is left unacknowledged (messages; bytes for TCP).
 */
static long wait_acked(struct sender *s, uint64_t deadline)
{
	long left;
	int i;

	for (;;) {
		if (s->o->one_to_many)
			read_notifications(s);
		for (i = 0, left = 0; i < s->n; i++) {
			flush(s, &s->a[i]);
			left += unacked(s, &s->a[i]);
		}
		if (!left || now_ns(CLOCK_MONOTONIC) > deadline)
			return left;
		usleep(10000);
	}
}

/* --warmup: one message on every association, acknowledged before the
 * measured traffic starts, so that every association has an RTT sample:
 * without one, a lost first DATA chunk waits RTO.Initial (3 s, RFC 9260
 * 6.3.1 C1), stock or thin.  Its send_ns is 0: the sink keeps it out of
 * its latencies, counts and log.  The messages go out at --warmup-rate
 * per second (0: all at once): the RTT samples they give are the
 * associations' first (RFC 9260 6.3.1 C2: RTO = SRTT + 4 RTTVAR = 3 R),
 * and samples taken in a burst of 10,000 messages were seconds long, so
 * the RTOs started at 2-3 s and took about ten more samples per
 * association to come down (docs/lab/notebook.md, Scale).
 */
static void warm_up(struct sender *s)
{
	double gap = s->o->warmup_rate > 0 ? NSEC / s->o->warmup_rate : 0;
	uint64_t t0 = now_ns(CLOCK_MONOTONIC), due, mono, deadline;
	long left;
	int i, sent = 0;

	for (i = 0; i < s->n; i++) {
		struct assoc *a = &s->a[i];
		struct pend *p;

		if (a->failed)
			continue;
		due = t0 + (uint64_t)(gap * sent++);
		while ((mono = now_ns(CLOCK_MONOTONIC)) < due) {
			if (s->o->one_to_many)
				read_notifications(s);
			usleep(due - mono > 10 * MSEC ? 10000 : (due - mono) / 1000 + 1);
		}
		p = queue_add(a);
		p->seq = a->seq++;
		p->size = HDR_LEN;
		p->send_ns = 0;
		flush(s, a);
	}
	deadline = now_ns(CLOCK_MONOTONIC) + (uint64_t)(s->o->connect_timeout * NSEC);
	left = wait_acked(s, deadline);
	if (left)
		die("--warmup: %ld messages unacknowledged after %.0f s", left,
		    s->o->connect_timeout);
	printf("thin-gen send: warm-up %d messages at %g/s, all acknowledged after %.2f s\n",
	       sent, s->o->warmup_rate, (now_ns(CLOCK_MONOTONIC) - t0) / 1e9);
}

/*
 * --phases: move to phase k at mono.  The associations start the new
 * interval afresh, spread over it as at the start.  Interval 0 is greedy:
 * a new message whenever the association's previous one is in the socket
 * (the socket's buffer is the only queue, so no backlog outlives the
 * phase).
 */
static void phase_enter(struct sender *s, int k, uint64_t mono)
{
	const struct phase *p = &s->o->phases[k];
	uint64_t iv = (uint64_t)(p->interval * MSEC);
	int i;

	s->phase = k;
	s->phase_end += (uint64_t)(p->seconds * NSEC);
	s->o->size = p->size;
	s->o->interval = p->interval;
	s->greedy = p->interval == 0;
	for (i = 0; i < s->n; i++)
		s->a[i].due = mono + iv * i / s->n;
	for (i = s->nheap / 2 - 1; i >= 0; i--)
		heap_down(s, i);
	if (s->log)
		fprintf(s->log, "# phase %d size=%d interval=%g from_ns=%llu\n", k,
			p->size, p->interval, (unsigned long long)mono);
}

/* The sender and its logs' headers, before any socket. */
static struct sender *sender_new(struct opts *o)
{
	struct sender *s = calloc(1, sizeof(*s));
	int i;

	if (!s)
		die("out of memory");
	s->o = o;
	s->n = o->assocs;
	s->shared_fd = -1;
	s->a = calloc(s->n, sizeof(*s->a));
	s->heap = calloc(s->n, sizeof(int));
	s->pfd = calloc(s->n + 1, sizeof(*s->pfd));
	if (!s->a || !s->heap || !s->pfd)
		die("out of memory");
	if (o->profile)
		profile_build(o->profile, &s->qsize, &s->qiat);
	s->log = open_log(o->log);
	if (s->log) {
		fprintf(s->log, "# thin-gen send proto=%s style=%s assocs=%d size=%d ",
			o->proto == P_SCTP ? "sctp" : "tcp",
			o->one_to_many ? "one-to-many" : "one-to-one", o->assocs,
			o->size);
		fprintf(s->log, "interval=%g dist=%s profile=%s thin=0x%x seed=%llu\n",
			o->interval,
			dist_names[o->dist],
			o->profile ? o->profile->name : "-", o->thin_flags,
			(unsigned long long)o->seed);
		fprintf(s->log, "# assoc seq size send_ns\n");
	}
	if (o->events) {
		s->events = open_log(o->events);
		setvbuf(s->events, NULL, _IOLBF, 0);	/* read while we run */
		fprintf(s->events, "# thin-gen send events: t_ns assoc kind state addr error\n");
	}
	for (i = 0; i < s->n; i++) {
		s->a[i].idx = i;
		s->a[i].rng = o->seed * 0x100000001b3ull + i * 0x9e3779b97f4a7c15ull + 1;
	}
	return s;
}

/* The timer, --state-log, the first phase, each association's first due
 * time: the traffic starts.
 */
static void sender_start(struct sender *s)
{
	struct opts *o = s->o;
	int i;

	s->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->tfd < 0)
		die("timerfd_create: %s", strerror(errno));
	if (o->state_log) {
		s->state = open_log(o->state_log);
		fprintf(s->state, "# thin-gen send state every %g ms\n", o->state_every);
		fprintf(s->state, "# t_ms assoc state in_flight lossrate transitions %s\n",
			"pkts_sent pkts_lost timeouts fast_rtx app_msgs");
	}
	s->t0 = now_ns(CLOCK_MONOTONIC);
	s->end = s->t0 + (uint64_t)(o->duration * NSEC);
	s->next_prog = s->t0 + (uint64_t)o->progress * NSEC;
	if (s->state)
		s->next_state = s->t0;
	if (o->nphases) {
		s->phase_end = s->t0;
		phase_enter(s, 0, s->t0);
	}
	for (i = 0; i < s->n; i++) {
		struct assoc *a = &s->a[i];

		/* fixed: spread the associations over one interval */
		if (o->dist == D_FIXED)
			a->due = s->t0 + (uint64_t)(o->interval * MSEC * i / s->n);
		else
			a->due = s->t0 + (uint64_t)(draw_interval(s, a) * rng_unif(&a->rng));
		heap_push(s, i);
	}
}

/* What is due at @mono: the next phase, a state sample, messages. */
static void send_due(struct sender *s, uint64_t mono)
{
	struct opts *o = s->o;
	int i;

	while (o->nphases && s->phase + 1 < o->nphases && mono >= s->phase_end)
		phase_enter(s, s->phase + 1, mono);
	if (s->next_state && mono >= s->next_state) {
		s->next_state += (uint64_t)(o->state_every * MSEC);
		if (state_sample(s, mono - s->t0))
			s->next_state = 0;
	}
	for (i = 0; s->greedy && i < s->n; i++) {
		struct assoc *a = &s->a[i];
		int k;

		for (k = 0; k < 64 && !a->failed && !a->qlen; k++) {
			a->due = mono;
			gen_msg(s, a, mono);
		}
	}
	while (!s->greedy && s->nheap && s->a[s->heap[0]].due <= mono) {
		struct assoc *a = &s->a[s->heap[0]];

		if (a->due >= s->end)
			break;
		if (!a->failed && !s->quiet)
			gen_msg(s, a, mono);
		a->due += draw_interval(s, a);
		heap_down(s, 0);
	}
}

/* --progress: a line on stderr every so many seconds */
static void send_progress(struct sender *s, uint64_t mono)
{
	unsigned long long msgs;
	long left;
	int i;

	if (!s->o->progress || mono < s->next_prog)
		return;
	for (i = 0, msgs = 0, left = 0; i < s->n; i++) {
		msgs += s->a[i].msgs;
		left += s->a[i].qlen;
	}
	fprintf(stderr, "thin-gen send: %.0f/%.0f s, %llu messages, ",
		(mono - s->t0) / 1e9, s->o->duration, msgs);
	fprintf(stderr, "%ld queued in the app, lag max %.1f ms\n",
		left, s->lag_max / 1e6);
	s->next_prog += (uint64_t)s->o->progress * NSEC;
}

/* The timer, for the next thing due after @mono. */
static void send_arm(struct sender *s, uint64_t mono)
{
	struct itimerspec its = { 0 };
	struct opts *o = s->o;
	uint64_t wake = s->end;
	int i;

	if (!s->greedy && s->nheap && s->a[s->heap[0]].due < wake)
		wake = s->a[s->heap[0]].due;
	for (i = 0; s->greedy && i < s->n; i++)
		if (!s->a[i].failed && !s->a[i].qlen)
			wake = mono;	/* the socket took them all: more */
	if (o->progress && s->next_prog < wake)
		wake = s->next_prog;
	if (s->next_state && s->next_state < wake)
		wake = s->next_state;
	if (o->nphases && s->phase + 1 < o->nphases && s->phase_end < wake)
		wake = s->phase_end;
	its.it_value.tv_sec = wake / NSEC;
	its.it_value.tv_nsec = wake % NSEC;
	timerfd_settime(s->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* One-to-many: the shared socket's notifications and room to write. */
static void send_events_many(struct sender *s)
{
	short re = s->pfd[1].revents;
	int i;

	if (re & POLLIN)
		read_notifications(s);
	if (re & (POLLOUT | POLLERR)) {
		s->shared_blocked = 0;
		for (i = 0; i < s->n; i++)
			if (flush(s, &s->a[i]))
				s->shared_blocked = 1;
	}
}

/* One-to-one: each association's socket, as poll() found it. */
static void send_events_one(struct sender *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		struct assoc *a = &s->a[i];
		short re = s->pfd[i + 1].revents;

		if (!re)
			continue;
		if (re & POLLERR) {
			int err = 0;
			socklen_t el = sizeof(err);

			getsockopt(a->fd, SOL_SOCKET, SO_ERROR, &err, &el);
			assoc_fail(a, "socket error", err);
		}
		if (re & (POLLIN | POLLERR | POLLHUP))
			sender_read(s, a);
		if ((re & POLLOUT) && !a->failed)
			flush(s, a);
	}
}

/* Wait for the timer or a socket, and serve the sockets. */
static void send_poll(struct sender *s)
{
	struct pollfd *pfd = s->pfd;
	int i, np = 0;

	pfd[np++] = (struct pollfd){ s->tfd, POLLIN, 0 };
	if (s->o->one_to_many) {
		pfd[np++] = (struct pollfd){ s->shared_fd,
			POLLIN | (s->shared_blocked ? POLLOUT : 0), 0 };
	} else {
		for (i = 0; i < s->n; i++)
			pfd[np++] = (struct pollfd){ s->a[i].failed ? -1 : s->a[i].fd,
				POLLIN | (s->a[i].qlen ? POLLOUT : 0), 0 };
	}
	if (poll(pfd, np, -1) < 0) {
		if (errno == EINTR)
			return;
		die("poll: %s", strerror(errno));
	}
	if (pfd[0].revents) {
		uint64_t exp;

		if (read(s->tfd, &exp, sizeof(exp)) < 0 && errno != EAGAIN)
			die("timerfd read: %s", strerror(errno));
	}
	if (s->o->one_to_many)
		send_events_many(s);
	else
		send_events_one(s);
}

/* After the traffic: the last state sample, the drain, the summary, the
 * logs closed.  Returns the exit code.
 */
static int sender_finish(struct sender *s)
{
	unsigned long long msgs = 0, bytes = 0;
	uint64_t mono, drain_end;
	struct opts *o = s->o;
	int i, failed = 0;
	long left;

	if (s->next_state)
		state_sample(s, now_ns(CLOCK_MONOTONIC) - s->t0);
	/* Drain: wait until everything is acknowledged. */
	drain_end = now_ns(CLOCK_MONOTONIC) + (uint64_t)(o->drain * NSEC);
	left = wait_acked(s, drain_end);
	if (left) {
		warnx("drain: %ld messages/bytes still unacknowledged after %.0f s",
		      left, o->drain);
		failed = 1;
	}
	mono = now_ns(CLOCK_MONOTONIC);
	thin_summary(s);
	for (i = 0, msgs = 0, bytes = 0; i < s->n; i++) {
		msgs += s->a[i].msgs;
		bytes += s->a[i].bytes;
		failed |= s->a[i].failed;
	}
	printf("thin-gen send: proto=%s style=%s assocs=%d messages=%llu bytes=%llu ",
	       o->proto == P_SCTP ? "sctp" : "tcp",
	       o->one_to_many ? "one-to-many" : "one-to-one", s->n, msgs, bytes);
	printf("connect=%.2f s elapsed=%.2f s failed=%d\n",
	       s->connect_ns / 1e9, (mono - s->t0) / 1e9, failed);
	printf("thin-gen send: schedule lag ms mean=%.3f max=%.3f late(>10ms)=%llu\n",
	       s->lag_n ? s->lag_sum / 1e6 / s->lag_n : 0.0, s->lag_max / 1e6,
	       (unsigned long long)s->late);
	if (s->log && fclose(s->log))
		die("writing %s: %s", o->log, strerror(errno));
	if (s->state && fclose(s->state))
		die("writing %s: %s", o->state_log, strerror(errno));
	if (s->events && fclose(s->events))
		die("writing %s: %s", o->events, strerror(errno));
	if (o->one_to_many) {
		close(s->shared_fd);
	} else {
		for (i = 0; i < s->n; i++)
			close(s->a[i].fd);
	}
	return failed;
}

int do_send(struct opts *o)
{
	struct sender *s = sender_new(o);
	uint64_t t0, mono;

	t0 = now_ns(CLOCK_MONOTONIC);
	sender_connect(s);
	s->connect_ns = now_ns(CLOCK_MONOTONIC) - t0;
	if (o->wait_file)
		wait_for_file(s);
	if (o->warmup)
		warm_up(s);
	sender_start(s);
	while (!stop) {
		mono = now_ns(CLOCK_MONOTONIC);
		if (mono >= s->end)
			break;
		if (hb_wanted)
			demand_heartbeats(s);
		if (shut_wanted)
			shutdown_step(s);
		send_due(s, mono);
		send_progress(s, mono);
		send_arm(s, mono);
		send_poll(s);
	}
	return sender_finish(s);
}
