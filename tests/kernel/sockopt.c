// SPDX-License-Identifier: GPL-2.0-or-later
/* Tests of the SCTP_THIN and SCTP_THIN_INFO socket options over loopback:
 * defaults from the netns sysctls, per-socket and per-association
 * settings (RFC 6458 assoc_id rules), bad input, and the counters.
 *
 * Usage: sockopt PORT    (prints TAP-like lines and "N passed, M failed")
 *        sockopt bounds priv|unpriv|userns PORT   the netns bounds for
 *                         sockets without CAP_NET_ADMIN in the initial
 *                         user namespace (EPERM); userns: with it over
 *                         the netns only (a container's root)
 *        sockopt default        a new socket's rto_min, and the floor
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/sctp.h>
#include <linux/sctp_thin.h>

static int passed, failed;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define CHECK(cond, ...) do {						\
	if (cond) {							\
		passed++;						\
		printf("ok - ");					\
	} else {							\
		failed++;						\
		printf("not ok - (%s:%d) ", __FILE__, __LINE__);	\
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
} while (0)

/* The integer in a file, -1 if unreadable. */
static int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int read_sysctl(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/proc/sys/net/sctp/%s", name);
	return read_int(path);
}

/* Live thin-sctp objects (association state), -1 if unreadable. */
static int thin_objects(void)
{
	return read_int("/sys/module/sctp/parameters/thin_objects");
}

/* The primary path's RTO in ms (SCTP_STATUS), -1 on error. */
static int primary_rto(int fd)
{
	struct sctp_status st;
	socklen_t len = sizeof(st);

	memset(&st, 0, sizeof(st));
	if (getsockopt(fd, IPPROTO_SCTP, SCTP_STATUS, &st, &len))
		return -1;
	return (int)st.sstat_primary.spinfo_rto;
}

static struct sockaddr_in addr(int port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static int get_params(int fd, sctp_assoc_t id, struct sctp_thin_params *p)
{
	socklen_t len = sizeof(*p);

	memset(p, 0, sizeof(*p));
	p->stp_assoc_id = id;
	return getsockopt(fd, IPPROTO_SCTP, SCTP_THIN, p, &len);
}

static int set_params(int fd, sctp_assoc_t id, unsigned int flags,
		      unsigned int rto_min, unsigned int lt_max)
{
	struct sctp_thin_params p = {
		.stp_assoc_id = id,
		.stp_flags = flags,
		.stp_rto_min = rto_min,
		.stp_linear_timeouts_max = lt_max,
	};

	return setsockopt(fd, IPPROTO_SCTP, SCTP_THIN, &p, sizeof(p));
}

static int get_info(int fd, sctp_assoc_t id, struct sctp_thin_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	info->sti_assoc_id = id;
	return getsockopt(fd, IPPROTO_SCTP, SCTP_THIN_INFO, info, &len);
}

/* SCTP_THIN_INFO from callers built before sti_guard_undone: shorter,
 * accepted, nothing written past it; shorter than that: EINVAL.
 */
static void check_info_sizes(int fd)
{
	socklen_t old = offsetof(struct sctp_thin_info, sti_guard_undone);
	struct sctp_thin_info ti;
	socklen_t len = old;
	int rc;

	memset(&ti, 0, sizeof(ti));
	ti.sti_guard_undone = 12345;
	rc = getsockopt(fd, IPPROTO_SCTP, SCTP_THIN_INFO, &ti, &len);
	CHECK(rc == 0 && len == old && ti.sti_guard_undone == 12345,
	      "old SCTP_THIN_INFO size accepted, nothing written past it");
	len = old - 8;
	rc = getsockopt(fd, IPPROTO_SCTP, SCTP_THIN_INFO, &ti, &len);
	CHECK(rc < 0 && errno == EINVAL,
	      "SCTP_THIN_INFO shorter than its first version -> EINVAL");
	len = sizeof(ti) + 16;
	rc = getsockopt(fd, IPPROTO_SCTP, SCTP_THIN_INFO, &ti, &len);
	CHECK(rc == 0 && len == sizeof(ti), "longer optlen: trimmed");
}

/* RDB's limits in SCTP_THIN (stp_rdb_max_bytes, stp_rdb_max_packets):
 * netns defaults, bad values, and callers built before them (the shorter
 * struct: accepted, RDB limits kept, nothing written past it).
 */
static int set_rdb(int fd, unsigned int flags, unsigned int bytes,
		   unsigned int packets)
{
	struct sctp_thin_params p = {
		.stp_flags = flags,
		.stp_rdb_max_bytes = bytes,
		.stp_rdb_max_packets = packets,
	};

	return setsockopt(fd, IPPROTO_SCTP, SCTP_THIN, &p, sizeof(p));
}

static void test_rdb_params(void)
{
	socklen_t old = offsetof(struct sctp_thin_params, stp_rdb_max_bytes);
	int fd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP), rc, bytes;
	struct sctp_thin_params p;
	socklen_t len;

	bytes = read_sysctl("thin_rdb_max_bytes");
	rc = get_params(fd, 0, &p);
	CHECK(rc == 0 && p.stp_rdb_max_packets ==
	      (unsigned int)read_sysctl("thin_rdb_max_packets") &&
	      p.stp_rdb_max_bytes == (bytes ? (unsigned int)bytes : SCTP_THIN_RDB_MTU),
	      "rdb: netns defaults (bytes %u, packets %u)", p.stp_rdb_max_bytes,
	      p.stp_rdb_max_packets);
	rc = set_rdb(fd, SCTP_THIN_RDB, 0, 9);
	CHECK(rc < 0 && errno == EINVAL, "rdb: max_packets 9 -> EINVAL");
	rc = set_rdb(fd, SCTP_THIN_RDB, 70000, 1);
	CHECK(rc < 0 && errno == EINVAL, "rdb: max_bytes 70000 -> EINVAL");
	rc = set_rdb(fd, SCTP_THIN_RDB | SCTP_THIN_ALL, 400, 1);
	rc |= get_params(fd, 0, &p);
	CHECK(rc == 0 && p.stp_flags == (SCTP_THIN_RDB | SCTP_THIN_ALL) &&
	      p.stp_rdb_max_bytes == 400 && p.stp_rdb_max_packets == 1,
	      "rdb: on with 400 bytes, 1 packet, in effect");
	memset(&p, 0, sizeof(p));
	p.stp_flags = SCTP_THIN_RDB;
	rc = setsockopt(fd, IPPROTO_SCTP, SCTP_THIN, &p, old);
	rc |= get_params(fd, 0, &p);
	CHECK(rc == 0 && p.stp_flags == SCTP_THIN_RDB &&
	      p.stp_rdb_max_bytes == 400,
	      "rdb: the shorter (older) struct accepted, limits kept");
	rc = set_rdb(fd, SCTP_THIN_RDB, SCTP_THIN_RDB_MTU, 0);
	rc |= get_params(fd, 0, &p);
	CHECK(rc == 0 && p.stp_rdb_max_bytes == SCTP_THIN_RDB_MTU &&
	      p.stp_rdb_max_packets == 1,
	      "rdb: SCTP_THIN_RDB_MTU: bounded by the MTU only; 0 keeps packets");
	memset(&p, 0, sizeof(p));
	p.stp_rdb_max_bytes = 12345;
	len = old;
	rc = getsockopt(fd, IPPROTO_SCTP, SCTP_THIN, &p, &len);
	CHECK(rc == 0 && len == old && p.stp_rdb_max_bytes == 12345,
	      "rdb: get with the older size, nothing written past it");
	len = old - 4;
	rc = getsockopt(fd, IPPROTO_SCTP, SCTP_THIN, &p, &len);
	CHECK(rc < 0 && errno == EINVAL, "SCTP_THIN shorter than its first version -> EINVAL");
	close(fd);
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void test_defaults_and_errors(int port)
{
	unsigned int want = 0, bad_len = 3;
	struct sctp_thin_params p;
	struct sockaddr_in a = addr(port);
	int lfd, cfd, sfd, rc, rto_max, rto_min, objs, objs0;
	char buf[64];

	if (read_sysctl("thin_rto_min") > 0)
		want |= SCTP_THIN_RTO_MIN;
	if (read_sysctl("thin_restart_timer") > 0)
		want |= SCTP_THIN_RESTART_TIMER;
	if (read_sysctl("thin_linear_timeouts") > 0)
		want |= SCTP_THIN_LINEAR_TIMEOUTS;
	if (read_sysctl("thin_fast_retransmit") > 0)
		want |= SCTP_THIN_FAST_RETRANSMIT;
	if (read_sysctl("thin_loss_estimation") > 0)
		want |= SCTP_THIN_LOSS_ESTIMATION;
	if (read_sysctl("thin_congestion_guard") > 0)
		want |= SCTP_THIN_CONGESTION_GUARD;
	if (read_sysctl("thin_sack_immediately") > 0)
		want |= SCTP_THIN_SACK_IMMEDIATELY;
	if (read_sysctl("thin_rdb") > 0)
		want |= SCTP_THIN_RDB;
	if (read_sysctl("thin_tail_probe") > 0)
		want |= SCTP_THIN_TAIL_PROBE;
	if (read_sysctl("thin_rack") > 0)
		want |= SCTP_THIN_RACK;
	rto_max = read_sysctl("rto_max");
	rto_min = read_sysctl("rto_min");

	lfd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	CHECK(lfd >= 0, "one-to-one socket");
	rc = get_params(lfd, 0, &p);
	CHECK(rc == 0 && p.stp_flags == want,
	      "new socket takes netns defaults (flags 0x%x, want 0x%x)",
	      p.stp_flags, want);
	CHECK(p.stp_linear_timeouts_max ==
	      (unsigned int)read_sysctl("thin_linear_timeouts_max"),
	      "linear timeouts max from sysctl (%u)",
	      p.stp_linear_timeouts_max);

	rc = setsockopt(lfd, IPPROTO_SCTP, SCTP_THIN, &p, bad_len);
	CHECK(rc < 0 && errno == EINVAL, "short optlen -> EINVAL");
	rc = set_params(lfd, 0, 0x80000000, 0, 0);
	CHECK(rc < 0 && errno == EINVAL, "unknown flag bits -> EINVAL");
	rc = set_params(lfd, 0, SCTP_THIN_RTO_MIN, rto_max + 1, 0);
	CHECK(rc < 0 && errno == EINVAL, "rto_min above rto_max -> EINVAL");
	rc = set_params(lfd, 0, SCTP_THIN_ALL, 0, 1000);
	CHECK(rc < 0 && errno == EINVAL, "linear max 1000 -> EINVAL");
	rc = get_params(lfd, 0, &p);
	CHECK(rc == 0 && p.stp_flags == want, "failed sets changed nothing");
	rc = setsockopt(lfd, IPPROTO_SCTP, SCTP_THIN_INFO, &p, sizeof(p));
	CHECK(rc < 0 && errno == ENOPROTOOPT, "SCTP_THIN_INFO is read-only");

	rc = set_params(lfd, 0, SCTP_THIN_ALL, 250, 4);
	CHECK(rc == 0, "set all mechanisms, rto_min 250, max 4");
	rc = get_params(lfd, 0, &p);
	CHECK(rc == 0 && p.stp_flags == SCTP_THIN_ALL &&
	      p.stp_rto_min == 250 && p.stp_linear_timeouts_max == 4,
	      "getsockopt returns the effective settings");

	/* A second socket in the same netns stays at the defaults. */
	sfd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	rc = get_params(sfd, 0, &p);
	CHECK(rc == 0 && p.stp_flags == want, "second socket unaffected");
	close(sfd);

	CHECK(bind(lfd, (struct sockaddr *)&a, sizeof(a)) == 0, "bind");
	CHECK(listen(lfd, 4) == 0, "listen");
	objs0 = thin_objects();
	CHECK(objs0 == 0, "no thin object before the association (%d)", objs0);
	cfd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	rc = set_params(cfd, 0, SCTP_THIN_ALL, 0, 0);
	CHECK(rc == 0, "client: all mechanisms on");
	CHECK(connect(cfd, (struct sockaddr *)&a, sizeof(a)) == 0, "connect");
	{
		/* A one-to-one listener has no association of its own: the
		 * one waiting for accept() is not its (as SCTP_STATUS).
		 */
		struct sctp_thin_info li;

		errno = 0;
		rc = get_info(lfd, 0, &li);
		CHECK(rc < 0 && errno == EINVAL,
		      "SCTP_THIN_INFO on the listener, an association waiting for accept(): EINVAL (rc %d, errno %d, id %d)",
		      rc, errno, rc ? 0 : (int)li.sti_assoc_id);
	}
	sfd = accept(lfd, NULL, NULL);
	CHECK(sfd >= 0, "accept");
	rc = get_params(sfd, 0, &p);
	CHECK(rc == 0 && p.stp_flags == SCTP_THIN_ALL && p.stp_rto_min == 250,
	      "accepted socket and association inherit the listener's");
	/* Allocated on first use: the first DATA packet (issue 27). */
	objs = thin_objects();
	CHECK(objs == 0,
	      "no thin object for associations that sent no DATA yet (%d)",
	      objs);

	{
		struct sctp_thin_info info;
		int i, n = 20;

		int one = 1;
		struct sctp_assoc_stats st;
		socklen_t sl = sizeof(st);
		unsigned long long before;

		setsockopt(cfd, IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof(one));
		for (i = 0; i < n; i++) {
			memset(buf, 'a' + i % 26, sizeof(buf));
			if (send(cfd, buf, sizeof(buf), 0) != sizeof(buf))
				break;
			if (recv(sfd, buf, sizeof(buf), 0) <= 0)
				break;
			msleep(20);
		}
		CHECK(i == n, "%d messages exchanged", n);
		/* The sender's state and packet ring, and RDB's scratch if
		 * it bundled; the receiver sent no DATA: none of its own.
		 */
		objs = thin_objects();
		CHECK(objs >= 2 && objs <= 3,
		      "the sender's thin objects only, the receiver sent no DATA (%d)",
		      objs);
		msleep(300);
		rc = get_info(cfd, 0, &info);
		CHECK(rc == 0, "SCTP_THIN_INFO on one-to-one socket");
		memset(&st, 0, sizeof(st));
		getsockopt(cfd, IPPROTO_SCTP, SCTP_GET_ASSOC_STATS, &st, &sl);
		/* one message per packet (NODELAY), plus retransmissions */
		CHECK(info.sti_pkts_sent >= (unsigned long long)n &&
		      info.sti_pkts_sent <= n + st.sas_rtxchunks,
		      "packets sent %llu = %d messages + up to %llu rtx chunks",
		      info.sti_pkts_sent, n,
		      (unsigned long long)st.sas_rtxchunks);
		CHECK(info.sti_in_flight == 0, "in flight 0 when idle (%u)",
		      info.sti_in_flight);
		CHECK(info.sti_state & SCTP_THIN_STATE_THIN, "detected thin");
		CHECK(info.sti_pkts_lost == 0 && info.sti_lossrate == 0,
		      "no loss on loopback");
		CHECK(info.sti_flags == SCTP_THIN_ALL, "info shows flags");
		check_info_sizes(cfd);

		/* On loopback the RTO is clamped to the thin RTOmin (200
		 * ms) while thin; switched off, the path has stock's RTO
		 * again (RTO.Min), not ours (issue 27).
		 */
		rc = primary_rto(cfd);
		CHECK(rc >= 0 && rc < rto_min,
		      "thin RTOmin in force before switching off (RTO %d ms, RTO.Min %d)",
		      rc, rto_min);
		rc = set_params(cfd, 0, 0, 0, 0);
		CHECK(rc == 0, "switch every mechanism off on a live association");
		rc = primary_rto(cfd);
		CHECK(rto_min > 0 && rc >= rto_min,
		      "switched off: the path has stock's RTO again (%d ms, RTO.Min %d)",
		      rc, rto_min);
		rc = get_info(cfd, 0, &info);
		CHECK(rc == 0 && info.sti_flags == 0 &&
		      info.sti_pkts_sent >= (unsigned long long)n,
		      "counters kept after switching off");
		before = info.sti_pkts_sent;
		send(cfd, buf, sizeof(buf), 0);
		recv(sfd, buf, sizeof(buf), 0);
		msleep(50);
		rc = get_info(cfd, 0, &info);
		CHECK(info.sti_pkts_sent == before,
		      "no bookkeeping while off (%llu -> %llu)", before,
		      info.sti_pkts_sent);
	}
	close(cfd);
	close(sfd);
	close(lfd);
}

static sctp_assoc_t first_assoc(int fd)
{
	char buf[sizeof(struct sctp_assoc_ids) + 16 * sizeof(sctp_assoc_t)];
	struct sctp_assoc_ids *ids = (struct sctp_assoc_ids *)buf;
	socklen_t len = sizeof(buf);

	if (getsockopt(fd, IPPROTO_SCTP, SCTP_GET_ASSOC_ID_LIST, ids, &len) ||
	    ids->gaids_number_of_ids < 1)
		return 0;
	return ids->gaids_assoc_id[0];
}

static void test_one_to_many(int port)
{
	struct sockaddr_in a = addr(port);
	struct sctp_thin_params p;
	struct sctp_thin_info info;
	int sfd, cfd, rc;
	sctp_assoc_t id;
	char buf[32] = "hello";

	sfd = socket(AF_INET, SOCK_SEQPACKET, IPPROTO_SCTP);
	cfd = socket(AF_INET, SOCK_SEQPACKET, IPPROTO_SCTP);
	CHECK(sfd >= 0 && cfd >= 0, "one-to-many sockets");
	bind(sfd, (struct sockaddr *)&a, sizeof(a));
	listen(sfd, 4);
	rc = sendto(cfd, buf, 8, 0, (struct sockaddr *)&a, sizeof(a));
	CHECK(rc == 8, "sendto creates an association");
	recv(sfd, buf, sizeof(buf), 0);
	id = first_assoc(cfd);
	CHECK(id > 0, "association id %d", id);

	rc = get_params(cfd, 12345, &p);
	CHECK(rc < 0 && errno == EINVAL, "unknown assoc id on get -> EINVAL");
	rc = set_params(cfd, 12345, SCTP_THIN_ALL, 0, 0);
	CHECK(rc < 0 && errno == EINVAL, "unknown assoc id on set -> EINVAL");
	rc = get_info(cfd, 12345, &info);
	CHECK(rc < 0 && errno == EINVAL, "unknown assoc id on info -> EINVAL");

	rc = set_params(cfd, id, SCTP_THIN_FAST_RETRANSMIT, 0, 0);
	CHECK(rc == 0, "set one association");
	rc = get_params(cfd, id, &p);
	CHECK(rc == 0 && p.stp_flags == SCTP_THIN_FAST_RETRANSMIT,
	      "association has the new flags");
	rc = get_params(cfd, SCTP_FUTURE_ASSOC, &p);
	CHECK(rc == 0 && p.stp_flags != SCTP_THIN_FAST_RETRANSMIT,
	      "socket default unchanged by an association set");

	rc = set_params(cfd, SCTP_FUTURE_ASSOC, SCTP_THIN_RTO_MIN, 300, 0);
	CHECK(rc == 0, "set SCTP_FUTURE_ASSOC");
	rc = get_params(cfd, id, &p);
	CHECK(rc == 0 && p.stp_flags == SCTP_THIN_FAST_RETRANSMIT,
	      "SCTP_FUTURE_ASSOC leaves existing associations");
	rc = set_params(cfd, SCTP_CURRENT_ASSOC, SCTP_THIN_LINEAR_TIMEOUTS, 0, 0);
	CHECK(rc == 0, "set SCTP_CURRENT_ASSOC");
	rc = get_params(cfd, id, &p);
	CHECK(rc == 0 && p.stp_flags == SCTP_THIN_LINEAR_TIMEOUTS,
	      "SCTP_CURRENT_ASSOC reaches existing associations");
	rc = get_params(cfd, SCTP_FUTURE_ASSOC, &p);
	CHECK(rc == 0 && p.stp_flags == SCTP_THIN_RTO_MIN && p.stp_rto_min == 300,
	      "SCTP_CURRENT_ASSOC leaves the socket default");
	rc = set_params(cfd, SCTP_ALL_ASSOC, SCTP_THIN_ALL, 0, 0);
	rc |= get_params(cfd, id, &p);
	CHECK(rc == 0 && p.stp_flags == SCTP_THIN_ALL, "SCTP_ALL_ASSOC: assoc");
	rc = get_params(cfd, SCTP_FUTURE_ASSOC, &p);
	CHECK(rc == 0 && p.stp_flags == SCTP_THIN_ALL, "SCTP_ALL_ASSOC: socket");

	rc = sendto(cfd, buf, 8, 0, (struct sockaddr *)&a, sizeof(a));
	recv(sfd, buf, sizeof(buf), 0);
	msleep(300);
	rc = get_info(cfd, id, &info);
	CHECK(rc == 0 && info.sti_assoc_id == id && info.sti_pkts_sent >= 1 &&
	      info.sti_in_flight == 0,
	      "SCTP_THIN_INFO by id (sent %llu, in flight %u)",
	      info.sti_pkts_sent, info.sti_in_flight);
	close(cfd);
	close(sfd);
}

/* The netns bounds for sockets without CAP_NET_ADMIN over their netns
 * (net.sctp.thin_rto_min_floor, thin_linear_timeouts_ceiling,
 * thin_congestion_guard_required): asking past one is EPERM and changes
 * nothing; within them it succeeds; with the capability it succeeds.
 * On fd's socket defaults (id 0 of an unconnected socket) or on its
 * association (a connected one-to-one socket).  @priv: CAP_NET_ADMIN
 * expected; @floor: the netns's thin_rto_min_floor.
 */
static void check_bounds_on(int fd, const char *what, int priv, int floor)
{
	static const struct {
		unsigned int flags, rto_min, lt_max;
		const char *name;
	} past[] = {
		{ SCTP_THIN_ALL, 100, 4, "rto_min 100 (floor 200)" },
		{ SCTP_THIN_ALL, 250, 7, "linear_timeouts_max 7 (ceiling 6)" },
		{ SCTP_THIN_ALL & ~SCTP_THIN_CONGESTION_GUARD, 250, 4,
		  "mechanisms without the congestion guard" },
		{ SCTP_THIN_ALL & ~SCTP_THIN_CONGESTION_GUARD, 100, 7,
		  "all three past" },
	};
	struct sctp_thin_params p;
	unsigned int i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(past); i++) {
		rc = set_params(fd, 0, SCTP_THIN_ALL, 250, 4);
		CHECK(rc == 0, "%s: within the bounds (all, 250, 4) accepted", what);
		if (floor <= 100 && past[i].rto_min == 100 &&
		    past[i].lt_max <= 6 && (past[i].flags & SCTP_THIN_CONGESTION_GUARD))
			continue;	/* not past this floor: below */
		errno = 0;
		rc = set_params(fd, 0, past[i].flags, past[i].rto_min, past[i].lt_max);
		if (priv) {
			CHECK(rc == 0, "%s: with CAP_NET_ADMIN, %s accepted (%s)",
			      what, past[i].name, strerror(errno));
			rc = get_params(fd, 0, &p);
			CHECK(rc == 0 && p.stp_flags == past[i].flags &&
			      p.stp_rto_min == past[i].rto_min &&
			      p.stp_linear_timeouts_max == past[i].lt_max,
			      "%s: ... and in effect (0x%x, %u, %u)", what,
			      p.stp_flags, p.stp_rto_min,
			      p.stp_linear_timeouts_max);
		} else {
			CHECK(rc < 0 && errno == EPERM,
			      "%s: without CAP_NET_ADMIN, %s -> EPERM (rc %d, %s)",
			      what, past[i].name, rc, strerror(errno));
			rc = get_params(fd, 0, &p);
			CHECK(rc == 0 && p.stp_flags == SCTP_THIN_ALL &&
			      p.stp_rto_min == 250 &&
			      p.stp_linear_timeouts_max == 4,
			      "%s: ... and nothing changed (0x%x, %u, %u)", what,
			      p.stp_flags, p.stp_rto_min,
			      p.stp_linear_timeouts_max);
		}
	}
	rc = set_params(fd, 0, SCTP_THIN_ALL, 200, 6);
	rc |= get_params(fd, 0, &p);
	CHECK(rc == 0 && p.stp_flags == SCTP_THIN_ALL && p.stp_rto_min == 200 &&
	      p.stp_linear_timeouts_max == 6,
	      "%s: at the bounds (all, 200, 6) accepted and in effect", what);
	if (floor <= 100) {
		rc = set_params(fd, 0, SCTP_THIN_ALL, 100, 6);
		rc |= get_params(fd, 0, &p);
		CHECK(rc == 0 && p.stp_rto_min == 100,
		      "%s: floor lowered to %d: rto_min 100 accepted and in effect",
		      what, floor);
		errno = 0;
		rc = set_params(fd, 0, SCTP_THIN_ALL, floor - 1, 6);
		CHECK(priv ? rc == 0 : rc < 0 && errno == EPERM,
		      "%s: rto_min %d, below the lowered floor -> %s (rc %d, %s)",
		      what, floor - 1, priv ? "accepted" : "EPERM", rc,
		      strerror(errno));
	}
	/* RDB: the netns's thin_rdb_max_packets (1) bounds max_packets,
	 * and its thin_rdb_max_bytes (500 here), when set, max_bytes.
	 */
	rc = set_rdb(fd, SCTP_THIN_ALL | SCTP_THIN_RDB, 500, 1);
	CHECK(rc == 0, "%s: rdb within the netns limits (500 bytes, 1 packet) accepted", what);
	errno = 0;
	rc = set_rdb(fd, SCTP_THIN_ALL | SCTP_THIN_RDB, 0, 2);
	CHECK(priv ? rc == 0 : rc < 0 && errno == EPERM,
	      "%s: rdb 2 packets (netns 1) -> %s (%s)", what,
	      priv ? "accepted" : "EPERM", strerror(errno));
	errno = 0;
	rc = set_rdb(fd, SCTP_THIN_ALL | SCTP_THIN_RDB, 600, 1);
	CHECK(priv ? rc == 0 : rc < 0 && errno == EPERM,
	      "%s: rdb 600 bytes (netns 500) -> %s (%s)", what,
	      priv ? "accepted" : "EPERM", strerror(errno));
	errno = 0;
	rc = set_rdb(fd, SCTP_THIN_ALL | SCTP_THIN_RDB, SCTP_THIN_RDB_MTU, 1);
	CHECK(priv ? rc == 0 : rc < 0 && errno == EPERM,
	      "%s: rdb bounded by the MTU only (netns 500) -> %s (%s)", what,
	      priv ? "accepted" : "EPERM", strerror(errno));
	rc = set_params(fd, 0, 0, 0, 0);
	rc |= get_params(fd, 0, &p);
	CHECK(rc == 0 && p.stp_flags == 0,
	      "%s: every mechanism off (no guard needed) accepted", what);
}

/* bounds MODE PORT: MODE "priv" (CAP_NET_ADMIN in the initial user
 * namespace expected), "unpriv" (none) or "userns" (over the netns only:
 * the root of a user namespace that owns the netns, whom the bounds bind
 * as well); FLOOR is read from the sysctl.
 */
static void test_bounds(const char *mode, int port)
{
	int priv = !strcmp(mode, "priv"), floor, mark = 1, lfd, cfd, sfd, rc;
	int netadmin = priv || !strcmp(mode, "userns");
	struct sockaddr_in a = addr(port);

	floor = read_sysctl("thin_rto_min_floor");
	CHECK(floor >= 0 && read_sysctl("thin_linear_timeouts_ceiling") == 6 &&
	      read_sysctl("thin_congestion_guard_required") == 1,
	      "bounds: floor %d, ceiling %d, guard required %d", floor,
	      read_sysctl("thin_linear_timeouts_ceiling"),
	      read_sysctl("thin_congestion_guard_required"));
	/* SO_MARK needs CAP_NET_ADMIN over the netns, as our bounds do. */
	lfd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	CHECK(lfd >= 0, "bounds: one-to-one socket (uid %d)", (int)getuid());
	errno = 0;
	rc = setsockopt(lfd, SOL_SOCKET, SO_MARK, &mark, sizeof(mark));
	CHECK(netadmin ? rc == 0 : rc < 0 && errno == EPERM,
	      "bounds: %s CAP_NET_ADMIN over the netns (SO_MARK: %s)",
	      netadmin ? "with" : "without", rc ? strerror(errno) : "allowed");
	check_bounds_on(lfd, "socket", priv, floor);

	/* The same on a live association. */
	CHECK(bind(lfd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	      listen(lfd, 4) == 0, "bounds: listen on port %d", port);
	cfd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	CHECK(connect(cfd, (struct sockaddr *)&a, sizeof(a)) == 0,
	      "bounds: connect");
	sfd = accept(lfd, NULL, NULL);
	check_bounds_on(cfd, "association", priv, floor);
	close(sfd);
	close(cfd);
	close(lfd);
}

/* default PORT: a new socket's rto_min is net.sctp.thin_rto_min, or,
 * where that is 0, 200 ms raised to the netns floor; switching every
 * mechanism on with stp_rto_min 0 (keep it) is accepted without
 * privilege and stays at or above the floor.
 */
static void test_default_rto_min(void)
{
	struct sctp_thin_params p;
	int fd, rc, floor, want;

	floor = read_sysctl("thin_rto_min_floor");
	want = read_sysctl("thin_rto_min");
	if (want == 0)
		want = floor > 200 ? floor : 200;
	fd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	CHECK(fd >= 0 && floor > 0, "default: socket (uid %d), floor %d",
	      (int)getuid(), floor);
	rc = get_params(fd, 0, &p);
	CHECK(rc == 0 && p.stp_rto_min == (unsigned int)want,
	      "default: a new socket's rto_min is %u (want %d: thin_rto_min %d, floor %d)",
	      p.stp_rto_min, want, read_sysctl("thin_rto_min"), floor);
	rc = set_params(fd, 0, SCTP_THIN_ALL, 0, 0);
	CHECK(rc == 0, "default: every mechanism on, rto_min kept: %s",
	      rc ? strerror(errno) : "accepted");
	rc = get_params(fd, 0, &p);
	CHECK(rc == 0 && p.stp_rto_min >= (unsigned int)floor &&
	      p.stp_rto_min == (unsigned int)want,
	      "default: in effect: rto_min %u, not below the floor %d",
	      p.stp_rto_min, floor);
	close(fd);
}

int main(int argc, char **argv)
{
	int port = argc > 1 ? atoi(argv[1]) : 7700;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "default")) {
		test_default_rto_min();
		printf("%d passed, %d failed\n", passed, failed);
		return failed ? 1 : 0;
	}
	if (argc > 3 && !strcmp(argv[1], "bounds")) {
		test_bounds(argv[2], atoi(argv[3]));
		printf("%d passed, %d failed\n", passed, failed);
		return failed ? 1 : 0;
	}
	test_defaults_and_errors(port);
	test_one_to_many(port + 1);
	test_rdb_params();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
