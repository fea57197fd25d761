// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thin-gen's sender, its sockets: set-up (SCTP_THIN, SCTP_RTOINFO, the
 * notifications --events logs), connect and sctp_connectx(), --wait-file,
 * the notifications and what else the sockets say, and SCTP_THIN_INFO
 * (the summary's thin line, --state-log).
 */
#include "thin-gen.h"

static void apply_thin(struct opts *o, int fd)
{
	struct sctp_thin_params p = {
		.stp_assoc_id = SCTP_FUTURE_ASSOC,
		.stp_flags = o->thin_flags,
		.stp_rto_min = o->thin_rto_min,
		.stp_linear_timeouts_max = o->thin_lt_max,
		.stp_rdb_max_packets = o->thin_rdb_packets,
	};
	static int warned;

	if (!o->thin_set)
		return;
	if (!setsockopt(fd, IPPROTO_SCTP, SCTP_THIN, &p, sizeof(p)))
		return;
	if (errno == ENOPROTOOPT && !o->thin_strict) {
		if (!warned++)
			warnx("warning: SCTP_THIN not supported by this sctp module (ENOPROTOOPT); "
			      "continuing without thin-stream mechanisms");
		return;
	}
	die("setsockopt SCTP_THIN flags 0x%x: %s", o->thin_flags, strerror(errno));
}

static const char *const assoc_states[] = {
	[SCTP_COMM_UP] = "COMM_UP",
	[SCTP_COMM_LOST] = "COMM_LOST",
	[SCTP_RESTART] = "RESTART",
	[SCTP_SHUTDOWN_COMP] = "SHUTDOWN_COMP",
	[SCTP_CANT_STR_ASSOC] = "CANT_STR_ASSOC",
};

static const char *const paddr_states[] = {
	[SCTP_ADDR_AVAILABLE] = "AVAILABLE",
	[SCTP_ADDR_UNREACHABLE] = "UNREACHABLE",
	[SCTP_ADDR_REMOVED] = "REMOVED",
	[SCTP_ADDR_ADDED] = "ADDED",
	[SCTP_ADDR_MADE_PRIM] = "MADE_PRIM",
	[SCTP_ADDR_CONFIRMED] = "CONFIRMED",
	[SCTP_ADDR_POTENTIALLY_FAILED] = "PF",
};

static const char *state_name(const char *const *names, size_t n,
			      unsigned int v)
{
	return v < n && names[v] ? names[v] : "OTHER";
}

/* --events: one line per notification, @t_ns (CLOCK_REALTIME) when read. */
static void log_event(struct sender *s, int idx,
		      const union sctp_notification *n, uint64_t t_ns)
{
	const struct sctp_paddr_change *pc = &n->sn_paddr_change;
	const struct sctp_assoc_change *ac = &n->sn_assoc_change;
	const struct sockaddr_in6 *a6;
	const struct sockaddr_in *a4;
	char addr[INET6_ADDRSTRLEN] = "-";

	if (!s->events)
		return;
	switch (n->sn_header.sn_type) {
	case SCTP_ASSOC_CHANGE:
		fprintf(s->events, "%llu %d assoc %s - %u\n",
			(unsigned long long)t_ns, idx,
			state_name(assoc_states, ARRAY_SIZE(assoc_states),
				   ac->sac_state), ac->sac_error);
		break;
	case SCTP_PEER_ADDR_CHANGE:
		a4 = (const struct sockaddr_in *)&pc->spc_aaddr;
		a6 = (const struct sockaddr_in6 *)&pc->spc_aaddr;
		if (a4->sin_family == AF_INET)
			inet_ntop(AF_INET, &a4->sin_addr, addr, sizeof(addr));
		else if (a6->sin6_family == AF_INET6)
			inet_ntop(AF_INET6, &a6->sin6_addr, addr, sizeof(addr));
		fprintf(s->events, "%llu %d paddr %s %s %d\n",
			(unsigned long long)t_ns, idx,
			state_name(paddr_states, ARRAY_SIZE(paddr_states),
				   pc->spc_state), addr, pc->spc_error);
		break;
	}
}

/* Subscribe @fd to the notifications that --events logs. */
static void subscribe_events(int fd)
{
	static const uint16_t types[] = {
		SCTP_ASSOC_CHANGE, SCTP_PEER_ADDR_CHANGE,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		struct sctp_event ev = {
			.se_assoc_id = SCTP_FUTURE_ASSOC,
			.se_type = types[i], .se_on = 1,
		};

		if (setsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof(ev)))
			die("setsockopt SCTP_EVENT %u: %s", types[i],
			    strerror(errno));
	}
}

/* Association @i's peer addresses for sctp_connectx(), packed into @buf:
 * the --connect address, then each --connectx one, at port + @i.  Returns
 * the bytes used.
 */
static socklen_t pack_peers(struct opts *o, int i, char *buf, size_t cap)
{
	char list[1024], one[160], *tok, *save = NULL;
	struct sockaddr_storage ss;
	socklen_t len, used;
	const char *port;

	parse_addr(o->addr, i, &ss, &len);
	memcpy(buf, &ss, len);
	used = len;
	if (!o->connectx)
		return used;
	port = strrchr(o->addr, ':');
	port = port ? port + 1 : o->addr;
	if (strlen(o->connectx) >= sizeof(list))
		die("--connectx: too long");
	snprintf(list, sizeof(list), "%s", o->connectx);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strchr(tok, ':'))
			snprintf(one, sizeof(one), "[%s]:%s", tok, port);
		else
			snprintf(one, sizeof(one), "%s:%s", tok, port);
		parse_addr(one, i, &ss, &len);
		if (used + len > cap)
			die("--connectx: too many addresses");
		memcpy(buf + used, &ss, len);
		used += len;
	}
	return used;
}

static int new_socket(struct opts *o, int family)
{
	int one = 1, fd;

	if (o->proto == P_TCP)
		fd = socket(family, SOCK_STREAM, IPPROTO_TCP);
	else
		fd = socket(family, o->one_to_many ? SOCK_SEQPACKET : SOCK_STREAM,
			    IPPROTO_SCTP);
	if (fd < 0)
		die("socket: %s%s", strerror(errno),
		    o->proto == P_SCTP ? " (is the sctp module loaded?)" : "");
	if (o->nodelay) {
		int r;

		if (o->proto == P_TCP)
			r = setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		else
			r = setsockopt(fd, IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof(one));
		if (r)
			die("setsockopt NODELAY: %s", strerror(errno));
	}
	if (o->proto == P_SCTP && o->rto_min) {
		/* RTO.Min of this socket's associations (RFC 6458 8.1.1) */
		struct sctp_rtoinfo ri = { .srto_min = o->rto_min };

		if (setsockopt(fd, IPPROTO_SCTP, SCTP_RTOINFO, &ri, sizeof(ri)))
			die("setsockopt SCTP_RTOINFO min %u: %s", o->rto_min, strerror(errno));
	}
	if (o->proto == P_TCP && o->tcp_thin &&
	    setsockopt(fd, IPPROTO_TCP, TCP_THIN_LINEAR_TIMEOUTS, &one, sizeof(one)))
		die("setsockopt TCP_THIN_LINEAR_TIMEOUTS: %s", strerror(errno));
	if (o->proto == P_SCTP)
		apply_thin(o, fd);
	if (o->proto == P_SCTP && o->events)
		subscribe_events(fd);
	set_nonblock(fd);
	return fd;
}

/* One-to-many: read notifications, mark associations up/down. */
void read_notifications(struct sender *s)
{
	union {
		union sctp_notification n;
		char b[4096];
	} u;
	struct sctp_assoc_change *ac;
	struct iovec iov = { &u, sizeof(u) };
	struct msghdr mh;
	sctp_assoc_t id;
	uint64_t t;
	ssize_t r;
	int i;

	for (;;) {
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		r = recvmsg(s->shared_fd, &mh, MSG_DONTWAIT);
		t = now_ns(CLOCK_REALTIME);
		if (r <= 0)
			return;
		if (!(mh.msg_flags & MSG_NOTIFICATION))
			continue;
		ac = &u.n.sn_assoc_change;
		id = u.n.sn_header.sn_type == SCTP_PEER_ADDR_CHANGE ?
		     u.n.sn_paddr_change.spc_assoc_id : ac->sac_assoc_id;
		for (i = 0; i < s->n; i++)
			if (s->a[i].id == id)
				break;
		if (i == s->n)
			continue;
		log_event(s, i, &u.n, t);
		if (u.n.sn_header.sn_type != SCTP_ASSOC_CHANGE)
			continue;
		switch (ac->sac_state) {
		case SCTP_COMM_UP:
			s->a[i].up = 1;
			break;
		case SCTP_COMM_LOST:
			assoc_fail(&s->a[i], "association lost", 0);
			break;
		case SCTP_CANT_STR_ASSOC:
			assoc_fail(&s->a[i], "cannot start association", 0);
			break;
		case SCTP_SHUTDOWN_COMP:
			s->a[i].closed_by_peer = 1;
			if (!stop)
				assoc_fail(&s->a[i], "peer shut down", 0);
			break;
		}
	}
}

/* One-to-one: read what the socket has.  The peer sends no data; with
 * --events the notifications are logged, stamped when read.  After an
 * error (SO_ERROR already read) the queued notifications, COMM_LOST among
 * them, still come before the end of the stream.
 */
void sender_read(struct sender *s, struct assoc *a)
{
	union {
		union sctp_notification n;
		char b[4096];
	} u;
	struct iovec iov = { &u, sizeof(u) };
	struct msghdr mh;
	uint64_t t;
	ssize_t r;

	for (;;) {
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		r = recvmsg(a->fd, &mh, MSG_DONTWAIT);
		t = now_ns(CLOCK_REALTIME);
		if (r > 0) {
			if (mh.msg_flags & MSG_NOTIFICATION)
				log_event(s, a->idx, &u.n, t);
			continue;
		}
		if (r == 0) {
			assoc_fail(a, "peer closed the connection", 0);
			return;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			assoc_fail(a, "recv", errno);
		return;
	}
}

/* One-to-many: one socket, sctp_connectx() of association i to PORT + i. */
static void connect_many(struct sender *s)
{
	char peers[16 * sizeof(struct sockaddr_in6)];
	struct opts *o = s->o;
	struct sockaddr_storage ss;
	socklen_t len;
	int i;
	struct sctp_event ev = {
		.se_assoc_id = SCTP_FUTURE_ASSOC,
		.se_type = SCTP_ASSOC_CHANGE, .se_on = 1,
	};

	parse_addr(o->addr, 0, &ss, &len);
	s->shared_fd = new_socket(o, ss.ss_family);
	if (setsockopt(s->shared_fd, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof(ev)))
		die("setsockopt SCTP_EVENT: %s", strerror(errno));
	for (i = 0; i < s->n; i++) {
		struct sctp_getaddrs_old cx;
		socklen_t cl = sizeof(cx);

		memset(&cx, 0, sizeof(cx));
		cx.addr_num = pack_peers(o, i, peers, sizeof(peers));
		cx.addrs = (struct sockaddr *)peers;
		s->a[i].fd = s->shared_fd;
		if (getsockopt(s->shared_fd, IPPROTO_SCTP, SCTP_SOCKOPT_CONNECTX3,
			       &cx, &cl) && errno != EINPROGRESS)
			die("sctp_connectx to port +%d: %s", i, strerror(errno));
		s->a[i].id = cx.assoc_id;
	}
}

/* One-to-one: a socket per association, connect() or sctp_connectx(). */
static void connect_one(struct sender *s)
{
	char peers[16 * sizeof(struct sockaddr_in6)];
	struct opts *o = s->o;
	struct sockaddr_storage ss;
	socklen_t len;
	int i;

	for (i = 0; i < s->n; i++) {
		parse_addr(o->addr, 0, &ss, &len);
		s->a[i].fd = new_socket(o, ss.ss_family);
		if (o->connectx && o->proto == P_SCTP) {
			len = pack_peers(o, 0, peers, sizeof(peers));
			if (setsockopt(s->a[i].fd, IPPROTO_SCTP,
				       SCTP_SOCKOPT_CONNECTX, peers,
				       len) < 0 &&
			    errno != EINPROGRESS)
				die("sctp_connectx %s,%s: %s", o->addr,
				    o->connectx, strerror(errno));
			continue;
		}
		if (connect(s->a[i].fd, (struct sockaddr *)&ss, len) &&
		    errno != EINPROGRESS)
			die("connect %s: %s", o->addr, strerror(errno));
	}
}

/* One-to-one: the sockets that @pfd's poll() found writable are up. */
static void connect_done(struct sender *s, const struct pollfd *pfd, int np)
{
	int i, err;

	for (i = 0; i < np; i++) {
		struct assoc *a;
		socklen_t el = sizeof(err);
		int k;

		if (!pfd[i].revents)
			continue;
		for (k = 0; s->a[k].fd != pfd[i].fd; k++)
			;
		a = &s->a[k];
		err = 0;
		getsockopt(a->fd, SOL_SOCKET, SO_ERROR, &err, &el);
		if (err)
			die("connect %s (assoc %d): %s", s->o->addr, k, strerror(err));
		a->up = 1;
	}
}

void sender_connect(struct sender *s)
{
	struct opts *o = s->o;
	struct pollfd *pfd;
	uint64_t deadline;
	int i, up;

	if (o->one_to_many)
		connect_many(s);
	else
		connect_one(s);

	pfd = calloc(s->n + 1, sizeof(*pfd));
	if (!pfd)
		die("out of memory");
	deadline = now_ns(CLOCK_MONOTONIC) + (uint64_t)(o->connect_timeout * NSEC);
	for (;;) {
		int np = 0;

		up = 0;
		for (i = 0; i < s->n; i++)
			up += s->a[i].up || s->a[i].failed;
		if (up == s->n || stop)
			break;
		if (now_ns(CLOCK_MONOTONIC) > deadline)
			die("connect: only %d of %d associations up after %.0f s", up,
			    s->n, o->connect_timeout);
		if (o->one_to_many) {
			pfd[np++] = (struct pollfd){ s->shared_fd, POLLIN, 0 };
		} else {
			for (i = 0; i < s->n; i++)
				if (!s->a[i].up && !s->a[i].failed)
					pfd[np++] = (struct pollfd){ s->a[i].fd, POLLOUT, 0 };
		}
		if (poll(pfd, np, 100) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (o->one_to_many)
			read_notifications(s);
		else
			connect_done(s, pfd, np);
	}
	for (i = 0; i < s->n; i++)
		if (s->a[i].failed)
			die("association %d could not be established", i);
	free(pfd);
}

/* --wait-file: no traffic until the sink has accepted every connection
 * (it creates the file); notifications are read meanwhile.
 */
void wait_for_file(struct sender *s)
{
	uint64_t deadline = now_ns(CLOCK_MONOTONIC) +
			    (uint64_t)(s->o->connect_timeout * NSEC);

	while (access(s->o->wait_file, F_OK)) {
		if (now_ns(CLOCK_MONOTONIC) > deadline)
			die("--wait-file %s: not there after %.0f s", s->o->wait_file,
			    s->o->connect_timeout);
		if (s->o->one_to_many)
			read_notifications(s);
		usleep(20000);
	}
}

/* --heartbeat-usr1: a heartbeat on every path of every association now
 * (SPP_HB_DEMAND on the association applies to each of its paths).
 */
void demand_heartbeats(struct sender *s)
{
	struct sctp_paddrparams pp;
	int i;

	hb_wanted = 0;
	for (i = 0; i < s->n; i++) {
		if (s->a[i].failed)
			continue;
		memset(&pp, 0, sizeof(pp));
		pp.spp_flags = SPP_HB_DEMAND;
		pp.spp_assoc_id = s->o->one_to_many ? s->a[i].id : 0;
		if (setsockopt(s->a[i].fd, IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS,
			       &pp, sizeof(pp)))
			warnx("assoc %d: heartbeat demand: %s", i, strerror(errno));
	}
}

/* --shutdown-usr2: the first signal quiets the sender, the second shuts
 * every association down.
 */
void shutdown_step(struct sender *s)
{
	int i;

	if (s->quiet >= 2 || s->quiet >= shut_wanted)
		return;
	if (++s->quiet < 2)
		return;
	for (i = 0; i < s->n; i++)
		if (!s->a[i].failed && shutdown(s->a[i].fd, SHUT_WR))
			warnx("assoc %d: shutdown: %s", i, strerror(errno));
}

void thin_summary(struct sender *s)
{
	unsigned long long v[18] = { 0 };
	unsigned int flags = 0, thin = 0, cong = 0;
	struct sctp_thin_info ti;
	socklen_t l;
	int i, got = 0, err = 0;

	if (s->o->proto != P_SCTP)
		return;
	for (i = 0; i < s->n; i++) {
		memset(&ti, 0, sizeof(ti));
		ti.sti_assoc_id = s->o->one_to_many ? s->a[i].id : 0;
		l = sizeof(ti);
		if (getsockopt(s->a[i].fd, IPPROTO_SCTP, SCTP_THIN_INFO, &ti, &l)) {
			err = errno;
			continue;
		}
		got++;
		flags |= ti.sti_flags;
		thin += !!(ti.sti_state & SCTP_THIN_STATE_THIN);
		cong += !!(ti.sti_state & SCTP_THIN_STATE_CONGESTED);
		v[7] += ti.sti_transitions;
		v[0] += ti.sti_pkts_sent;
		v[1] += ti.sti_pkts_lost;
		v[2] += ti.sti_timeouts;
		v[3] += ti.sti_linear_timeouts;
		v[4] += ti.sti_fast_rtx;
		v[5] += ti.sti_rto_min_clamps;
		v[6] += ti.sti_restart_corrections;
		v[8] += ti.sti_guard_undone;
		v[9] += ti.sti_rdb_chunks;
		v[10] += ti.sti_rdb_bytes;
		v[11] += ti.sti_rdb_repaired;
		v[12] += ti.sti_rdb_gated;
		v[13] += ti.sti_probes;
		v[14] += ti.sti_probes_spurious;
		v[15] += ti.sti_probes_repaired;
		v[16] += ti.sti_rack_lost;
		v[17] += ti.sti_rack_held;
	}
	if (!got) {
		printf("thin-gen send: thin: n/a (SCTP_THIN_INFO: %s)\n", strerror(err));
		return;
	}
	printf("thin-gen send: thin: assocs=%d flags=0x%x thin_now=%u pkts_sent=%llu ",
	       got, flags, thin, v[0]);
	printf("pkts_lost=%llu timeouts=%llu linear_timeouts=%llu fast_rtx=%llu ",
	       v[1], v[2], v[3], v[4]);
	printf("rto_min_clamps=%llu restart_corrections=%llu ", v[5], v[6]);
	printf("congested_now=%u transitions=%llu guard_undone=%llu ", cong,
	       v[7], v[8]);
	printf("rdb_chunks=%llu rdb_bytes=%llu rdb_repaired=%llu rdb_gated=%llu ",
	       v[9], v[10], v[11], v[12]);
	printf("probes=%llu probes_spurious=%llu probes_repaired=%llu ",
	       v[13], v[14], v[15]);
	printf("rack_lost=%llu rack_held=%llu\n", v[16], v[17]);
}

/*
 * --state-log: one line per association, SCTP_THIN_INFO at t (ms since the
 * start), to show thin/thick transitions over time.  Returns -1 (and stops
 * sampling) when the option is not there: Debian's module.
 */
int state_sample(struct sender *s, uint64_t t_ns)
{
	struct sctp_thin_info ti;
	socklen_t l;
	int i;

	for (i = 0; i < s->n; i++) {
		if (s->a[i].failed)
			continue;
		memset(&ti, 0, sizeof(ti));
		ti.sti_assoc_id = s->o->one_to_many ? s->a[i].id : 0;
		l = sizeof(ti);
		if (getsockopt(s->a[i].fd, IPPROTO_SCTP, SCTP_THIN_INFO, &ti, &l)) {
			fprintf(s->state, "# SCTP_THIN_INFO: %s\n", strerror(errno));
			return -1;
		}
		fprintf(s->state, "%.1f %d %u %u %.4f %u %llu %llu %llu %llu %llu\n",
			t_ns / 1e6, i, ti.sti_state, ti.sti_in_flight,
			(double)ti.sti_lossrate / SCTP_THIN_LOSS_ONE, ti.sti_transitions,
			(unsigned long long)ti.sti_pkts_sent,
			(unsigned long long)ti.sti_pkts_lost,
			(unsigned long long)ti.sti_timeouts,
			(unsigned long long)ti.sti_fast_rtx,
			(unsigned long long)s->a[i].msgs);
	}
	return 0;
}
