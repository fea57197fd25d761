// SPDX-License-Identifier: GPL-2.0-or-later
/* Deterministic SCTP loss injector and sender-side capture, on NFQUEUE.
 *
 *   thin-drop -q QUEUE -l LOG [-A] [-u PORT] [-d K:N]... [-s|-S K:N]...
 *	       [-H K:MS] [-X K:MS]
 *	       [-t SECONDS]
 *
 * Every IPv4 SCTP packet queued to QUEUE is examined; with -u PORT also
 * every SCTP packet encapsulated in UDP from or to PORT (RFC 6951, the
 * usrsctp interop test).  For each flow
 * (source/destination address and port), the TSN of the first DATA chunk
 * ever seen is the flow's base; "-d K:N" drops the first N transmissions
 * of TSN base + K (K counts DATA chunks from 0): the packets whose first
 * DATA chunk it is, or with -A any packet that carries it (redundant data
 * bundling puts copies of older chunks first).  "-s K:N" drops the
 * first N SACKs whose cumulative TSN ack is base + K or later and that
 * report no duplicate TSNs: a stretch of lost SACKs that makes the
 * sender time out spuriously, while the SACKs telling it so (their dup
 * reports, RFC 9260 6.2) pass.  "-S K:N" is the same for any SACK, dup
 * reports or not (with RDB nearly every SACK reports one).  "-H K:MS"
 * holds every SACK whose cumulative TSN ack is base + K or later for MS
 * ms before it passes (a latency spike on the way back); "-X K:MS" drops
 * every SACK whose cumulative TSN ack is base + K or later, for MS ms from
 * the first such SACK of the flow, and after that lets them all pass at
 * once (no hold): the SACKs lost for a while.  -X wins over -H; both
 * apply to every flow, each with its own base and clock.  Everything else is accepted.  Each DATA
 * chunk of each packet is logged with its time:
 *
 *   <time_ns> <sport>-<dport> <tsn-offset> <transmission#> <DROP|PASS> [I]
 *
 * (I: the chunk asks for an immediate SACK, RFC 7053), the ports those of
 * the SCTP common header.
 * SACKs are logged as
 *   "<time_ns> <sport>-<dport> SACK <cum-offset> <ngaps> <ndups> <DROP|PASS>",
 * with the ports of the DATA direction they acknowledge, so tests
 * can tell when a partial SACK came back.  Time is CLOCK_MONOTONIC.  The
 * program stops after SECONDS (default 60) or on SIGTERM/SIGINT.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_FLOWS	64
#define MAX_RULES	32
#define MAX_TSNS	4096

struct flow {
	uint32_t saddr, daddr;
	uint16_t sport, dport;
	uint32_t base;		/* first DATA TSN seen */
	uint8_t tx[MAX_TSNS];	/* transmissions seen per TSN offset */
	uint64_t cut;		/* -X: when its first SACK was dropped */
};

/* -H: SACKs held, released in order (the same delay for each). */
#define MAX_HELD	1024
static struct {
	uint32_t id;
	uint64_t at;
} held[MAX_HELD];
static unsigned int held_head, held_n;
static long hold_k = -1, cut_k = -1;
static uint64_t hold_ns, cut_ns;

struct rule {
	uint32_t k, n;
	int any;	/* -S: also a SACK that reports duplicates */
};

static struct flow flows[MAX_FLOWS];
static int nflows;
static struct rule rules[MAX_RULES], sack_rules[MAX_RULES];
static int nrules, nsack_rules, any_chunk, udp_port;
static FILE *logf;
static volatile sig_atomic_t stop;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static struct flow *flow_get(const struct iphdr *ip, const uint8_t *sh,
			     int create)
{
	uint16_t sport = (sh[0] << 8) | sh[1], dport = (sh[2] << 8) | sh[3];
	int i;

	for (i = 0; i < nflows; i++)
		if (flows[i].saddr == ip->saddr && flows[i].daddr == ip->daddr &&
		    flows[i].sport == sport && flows[i].dport == dport)
			return &flows[i];
	if (!create || nflows == MAX_FLOWS)
		return NULL;
	flows[nflows].saddr = ip->saddr;
	flows[nflows].daddr = ip->daddr;
	flows[nflows].sport = sport;
	flows[nflows].dport = dport;
	flows[nflows].base = 0;
	return &flows[nflows++];
}

static uint32_t be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
}

/* Returns 1 to drop, 2 to hold (-H). */
static int examine(uint8_t *pkt, int len)
{
	struct iphdr *ip = (struct iphdr *)pkt;
	const uint8_t *sh, *c, *end;
	uint64_t t = now_ns();
	uint32_t loff[64], ltx[64];
	uint8_t limm[64];
	struct flow *f;
	int drop = 0, i, first = 1, nl = 0;

	if (len < (int)sizeof(*ip) || ip->version != 4)
		return 0;
	sh = pkt + ip->ihl * 4;
	end = pkt + len;
	if (ip->protocol == IPPROTO_UDP && udp_port && sh + 8 <= end &&
	    (((sh[0] << 8) | sh[1]) == udp_port ||
	     ((sh[2] << 8) | sh[3]) == udp_port))
		sh += 8;	/* SCTP over UDP: the common header follows */
	else if (ip->protocol != IPPROTO_SCTP)
		return 0;
	if (sh + 12 > end)
		return 0;
	f = flow_get(ip, sh, 1);
	if (!f)
		return 0;
	for (c = sh + 12; c + 4 <= end; ) {
		uint16_t clen = (c[2] << 8) | c[3];

		if (clen < 4)
			break;
		if ((c[0] == 0 || c[0] == 64) && c + 8 <= end) {
			/* DATA (0) or I-DATA (64): TSN at offset 4 */
			uint32_t tsn = be32(c + 4), off;

			if (!f->base)
				f->base = tsn;
			off = tsn - f->base;
			if (off < MAX_TSNS) {
				uint8_t tx = f->tx[off] < 255 ? ++f->tx[off] : 255;

				for (i = 0; i < nrules && (first || any_chunk); i++)
					if (rules[i].k == off && tx <= rules[i].n)
						drop = 1;
				if (nl < 64) {
					loff[nl] = off;
					limm[nl] = c[1] & 0x08;	/* I-bit */
					ltx[nl++] = tx;
				}
			}
			first = 0;
		} else if (c[0] == 3 && c + 16 <= end) {
			/* SACK: cum TSN at 4, gap blocks count at 12 */
			struct iphdr rev = *ip;
			uint8_t rsh[4] = { sh[2], sh[3], sh[0], sh[1] };
			struct flow *df;

			rev.saddr = ip->daddr;
			rev.daddr = ip->saddr;
			df = flow_get(&rev, rsh, 0);
			if (df && df->base) {
				int cum = (int)(be32(c + 4) - df->base);
				unsigned int dups = (c[14] << 8) | c[15];

				if (cut_k >= 0 && cum >= cut_k) {
					if (!df->cut)
						df->cut = t;
					if (t - df->cut < cut_ns)
						drop = 1;
				} else if (hold_k >= 0 && cum >= hold_k) {
					drop = 2;
				}
				for (i = 0; i < nsack_rules && !drop; i++) {
					struct rule *r = &sack_rules[i];

					if (dups && !r->any)
						continue;
					if (cum >= (int)r->k && r->n) {
						r->n--;
						drop = 1;
						break;
					}
				}
				fprintf(logf, "%llu %u-%u SACK %d %u %u %s\n",
					(unsigned long long)t, df->sport,
					df->dport, cum, (c[12] << 8) | c[13],
					dups, drop == 2 ? "HOLD" :
					drop ? "DROP" : "PASS");
			}
		}
		c += (clen + 3) & ~3;
	}
	/* DATA chunks logged once the packet's fate is known. */
	for (i = 0; i < nl; i++)
		fprintf(logf, "%llu %u-%u %u %u %s%s\n", (unsigned long long)t,
			f->sport, f->dport, loff[i], ltx[i],
			drop ? "DROP" : "PASS", limm[i] ? " I" : "");
	fflush(logf);
	return drop;
}

static int cb(struct nfq_q_handle *qh, struct nfgenmsg *msg,
	      struct nfq_data *nfa, void *data)
{
	struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
	uint32_t id = ph ? ntohl(ph->packet_id) : 0;
	unsigned char *pkt;
	int len, drop;

	(void)msg;
	(void)data;
	len = nfq_get_payload(nfa, &pkt);
	drop = len > 0 ? examine(pkt, len) : 0;
	if (drop == 2 && held_n < MAX_HELD) {
		unsigned int i = (held_head + held_n++) % MAX_HELD;

		held[i].id = id;
		held[i].at = now_ns() + hold_ns;
		return 0;
	}
	return nfq_set_verdict(qh, id, drop == 1 ? NF_DROP : NF_ACCEPT, 0,
			       NULL);
}

/* Pass the held SACKs that are due; the ms until the next is (or 200). */
static int release(struct nfq_q_handle *qh)
{
	uint64_t t = now_ns();

	while (held_n && held[held_head].at <= t) {
		nfq_set_verdict(qh, held[held_head].id, NF_ACCEPT, 0, NULL);
		held_head = (held_head + 1) % MAX_HELD;
		held_n--;
	}
	return held_n ? (int)((held[held_head].at - t) / 1000000) + 1 : 200;
}

/* "K:MS" into @k and @ns; nonzero if bad. */
static int add_window(long *k, uint64_t *ns, const char *arg)
{
	unsigned int kk, ms;

	if (sscanf(arg, "%u:%u", &kk, &ms) != 2)
		return -1;
	*k = kk;
	*ns = (uint64_t)ms * 1000000ull;
	return 0;
}

/* "K:N" appended to @r (@n rules so far); nonzero if bad or full. */
static int add_rule(struct rule *r, int *n, const char *arg)
{
	if (*n == MAX_RULES || sscanf(arg, "%u:%u", &r[*n].k, &r[*n].n) != 2)
		return -1;
	(*n)++;
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	int opt, queue = 0, seconds = 60, fd, rv;
	struct nfq_handle *h;
	struct nfq_q_handle *qh;
	const char *logname = "-";
	char buf[65536] __attribute__((aligned));
	uint64_t deadline;

	while ((opt = getopt(argc, argv, "Aq:l:d:s:S:t:u:H:X:")) != -1) {
		switch (opt) {
		case 'H':
		case 'X':
			if (add_window(opt == 'H' ? &hold_k : &cut_k,
				       opt == 'H' ? &hold_ns : &cut_ns, optarg)) {
				fprintf(stderr, "bad -%c %s\n", opt, optarg);
				return 2;
			}
			break;
		case 'A':
			any_chunk = 1;
			break;
		case 'q':
			queue = atoi(optarg);
			break;
		case 'l':
			logname = optarg;
			break;
		case 'd':
		case 's':
		case 'S':
			if (add_rule(opt == 'd' ? rules : sack_rules,
				     opt == 'd' ? &nrules : &nsack_rules, optarg)) {
				fprintf(stderr, "bad -%c %s\n", opt, optarg);
				return 2;
			}
			if (opt == 'S')
				sack_rules[nsack_rules - 1].any = 1;
			break;
		case 't':
			seconds = atoi(optarg);
			break;
		case 'u':
			udp_port = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s -q Q -l LOG [-A] [-u PORT] [-d K:N]... [-s|-S K:N]... [-H K:MS] [-X K:MS] [-t S]\n",
				argv[0]);
			return 2;
		}
	}
	logf = strcmp(logname, "-") ? fopen(logname, "w") : stdout;
	if (!logf) {
		perror(logname);
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	h = nfq_open();
	if (!h || nfq_bind_pf(h, AF_INET) < 0) {
		perror("nfq_open");
		return 1;
	}
	qh = nfq_create_queue(h, queue, &cb, NULL);
	if (!qh || nfq_set_mode(qh, NFQNL_COPY_PACKET, 0xffff) < 0) {
		perror("nfq_create_queue");
		return 1;
	}
	fd = nfq_fd(h);
	{
		struct timeval tv = { 0, 200000 };

		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	fprintf(stderr, "thin-drop: queue %d ready\n", queue);
	deadline = now_ns() + (uint64_t)seconds * 1000000000ull;
	while (!stop && now_ns() < deadline) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (poll(&pfd, 1, release(qh)) <= 0)
			continue;
		rv = recv(fd, buf, sizeof(buf), 0);
		if (rv >= 0)
			nfq_handle_packet(h, buf, rv);
		else if (errno != EAGAIN && errno != EINTR && errno != ENOBUFS)
			break;
	}
	while (held_n) {	/* nothing stays queued */
		nfq_set_verdict(qh, held[held_head].id, NF_ACCEPT, 0, NULL);
		held_head = (held_head + 1) % MAX_HELD;
		held_n--;
	}
	nfq_destroy_queue(qh);
	nfq_close(h);
	fclose(logf);
	return 0;
}
