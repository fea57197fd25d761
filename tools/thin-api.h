/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The thin-stream API of the kernel a test program runs on, for the
 * programs of the in-guest tests (tests/kernel/thin-send.c; thin-gen still
 * calls the module's options itself).
 *
 * Built as is: our module's (include/uapi/linux/sctp_thin.h), option
 * SCTP_THIN 180 to set, SCTP_THIN_INFO 181 to read the counters.
 *
 * Built with -DTHIN_API_UPSTREAM and the upstream series' uapi sctp.h
 * first on the include path (scripts/upstream-kernel-test.sh): the
 * upstream-form kernel's (make upstream-series), option SCTP_THIN 134 with
 * the same struct sctp_thin_params, and the counters in struct sctp_info's
 * sctpi_thin_* fields, read through sock_diag (INET_DIAG_INFO), as ss(8)
 * reads them.  thin_api_info() fills our struct sctp_thin_info either way,
 * so the tests read one structure; what the upstream form does not have
 * (the tail probe, the time-based loss rule) reads 0 there.
 */
#ifndef THIN_API_H
#define THIN_API_H

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/sctp.h>

#ifdef THIN_API_UPSTREAM
#include <unistd.h>
#include <netinet/in.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/inet_diag.h>
#include <linux/rtnetlink.h>

#ifndef SCTP_THIN
#error "THIN_API_UPSTREAM needs the upstream series' uapi linux/sctp.h first on the include path"
#endif
/* The upstream number, kept; the module's header then defines the same
 * mechanism bits, state bits and parameter structure (renamed here: the
 * upstream one is the same layout) and its own option numbers.
 */
enum { THIN_API_OPT = SCTP_THIN };
#undef SCTP_THIN
#undef SCTP_THIN_KNOWN
#define sctp_thin_params thin_api_module_params
#include <linux/sctp_thin.h>
#undef sctp_thin_params
#undef SCTP_THIN
#undef SCTP_THIN_INFO
#define SCTP_THIN THIN_API_OPT

/* The association of one-to-one socket fd: its ports, then the sctp_info
 * of the association's dump entry with those ports.  0, or -1 with errno
 * set.
 */
static inline int thin_api_info(int fd, struct sctp_thin_info *ti)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.r = {
			.sdiag_protocol = IPPROTO_SCTP,
			.idiag_ext = 1 << (INET_DIAG_INFO - 1),
			.idiag_states = ~0U,
		},
	};
	struct sockaddr_storage la, pa;
	socklen_t ll = sizeof(la), pl = sizeof(pa);
	unsigned short lport, pport;
	static char buf[65536];
	int nl, found = 0, done = 0;
	long n;

	if (getsockname(fd, (struct sockaddr *)&la, &ll) ||
	    getpeername(fd, (struct sockaddr *)&pa, &pl))
		return -1;
	req.r.sdiag_family = la.ss_family;
	lport = la.ss_family == AF_INET6 ?
		((struct sockaddr_in6 *)&la)->sin6_port :
		((struct sockaddr_in *)&la)->sin_port;
	pport = pa.ss_family == AF_INET6 ?
		((struct sockaddr_in6 *)&pa)->sin6_port :
		((struct sockaddr_in *)&pa)->sin_port;
	nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0)
		return -1;
	if (send(nl, &req, sizeof(req), 0) != sizeof(req)) {
		close(nl);
		return -1;
	}
	while (!done && (n = recv(nl, buf, sizeof(buf), 0)) > 0) {
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		for (; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			struct inet_diag_msg *m = NLMSG_DATA(h);
			const struct sctp_info *si;
			struct rtattr *a;
			int al, peers;

			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			if (found || m->id.idiag_sport != lport || m->id.idiag_dport != pport)
				continue;
			/* sctp_diag gives the socket first (no association:
			 * no counters), then each association, which alone
			 * has INET_DIAG_PEERS
			 */
			al = h->nlmsg_len - NLMSG_LENGTH(sizeof(*m));
			si = NULL;
			peers = 0;
			for (a = (struct rtattr *)(m + 1); RTA_OK(a, al); a = RTA_NEXT(a, al)) {
				if (a->rta_type == INET_DIAG_PEERS)
					peers = 1;
				if (a->rta_type == INET_DIAG_INFO &&
				    RTA_PAYLOAD(a) >= (int)sizeof(*si))
					si = RTA_DATA(a);
			}
			if (!peers || !si)
				continue;
			ti->sti_flags = si->sctpi_thin_flags;
			ti->sti_state = si->sctpi_thin_state;
			ti->sti_in_flight = si->sctpi_thin_in_flight;
			ti->sti_lossrate = si->sctpi_thin_lossrate;
			ti->sti_transitions = si->sctpi_thin_transitions;
			ti->sti_pkts_sent = si->sctpi_thin_pkts_sent;
			ti->sti_pkts_lost = si->sctpi_thin_pkts_lost;
			ti->sti_timeouts = si->sctpi_thin_timeouts;
			ti->sti_linear_timeouts = si->sctpi_thin_linear_timeouts;
			ti->sti_fast_rtx = si->sctpi_thin_fast_rtx;
			ti->sti_rto_min_clamps = si->sctpi_thin_rto_min_clamps;
			ti->sti_restart_corrections = si->sctpi_thin_restarts;
			ti->sti_guard_undone = si->sctpi_thin_guard_undone;
			ti->sti_strikes_deferred = si->sctpi_thin_strikes_deferred;
			ti->sti_resyncs = si->sctpi_thin_resyncs;
			ti->sti_sack_immediately = si->sctpi_thin_sack_immediately;
			ti->sti_rdb_chunks = si->sctpi_thin_rdb_chunks;
			ti->sti_rdb_bytes = si->sctpi_thin_rdb_bytes;
			ti->sti_rdb_repaired = si->sctpi_thin_rdb_repaired;
			ti->sti_rdb_gated = si->sctpi_thin_rdb_gated;
			found = 1;
		}
	}
	close(nl);
	if (!found) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}
#else
#include <linux/sctp_thin.h>

/* SCTP_THIN_INFO of the socket's association (ti->sti_assoc_id, 0 for
 * a one-to-one socket).
 */
static inline int thin_api_info(int fd, struct sctp_thin_info *ti)
{
	socklen_t len = sizeof(*ti);

	return getsockopt(fd, IPPROTO_SCTP, SCTP_THIN_INFO, ti, &len);
}
#endif

#endif /* THIN_API_H */
