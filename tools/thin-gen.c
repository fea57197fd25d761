// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-gen: thin-stream traffic generator and sink for SCTP and TCP.
 *
 *   thin-gen sink --proto sctp|tcp --listen ADDR:PORT [--ports N]
 *		   [--log FILE] [--sack-delay-off] [--duration S] [--expect N]
 *   thin-gen send --proto sctp|tcp --connect ADDR:PORT [--assocs N]
 *		   [--style one-to-one|one-to-many] [--size BYTES]
 *		   [--interval MS] [--dist fixed|exp|pareto] [--profile NAME]
 *		   --duration S [--log FILE] [--nodelay] [--thin FLAGS]
 *		   [--thin-strict] [--thin-rto-min MS] [--thin-linear-max N]
 *		   [--rto-min MS] [--tcp-thin] [--sack-immediately]
 *		   [--seed N] [--connectx ADDR[,ADDR...]] [--events FILE]
 *		   [--heartbeat-usr1] [--shutdown-usr2]
 *   thin-gen profile-stats --profile NAME|all [--samples N] [--check PCT]
 *   thin-gen profiles
 *
 * Every message starts with a 16-byte header: total length (u16),
 * association index (u16), sequence number (u32, per association, from
 * 0) and the send time (u64, CLOCK_REALTIME ns).  Sender and sink run in
 * network namespaces of one machine, so their clocks agree and
 * recv_ns - send_ns is the application-layer latency, head-of-line
 * blocking included.  The rest of the payload is a pattern that the sink
 * checks.  Messages shorter than the header are sent as 16 bytes.
 *
 * The sender drives every association from one poll loop with one
 * timerfd.  Each association has an absolute schedule (next due time +=
 * interval), so the schedule does not drift; a late wake-up sends every
 * message that is due and the lag is reported.  --duration bounds the
 * sending; afterwards the sender waits (at most --drain seconds) until
 * every message is acknowledged, then closes.  The sink exits when every
 * accepted connection has closed (after --expect connections), or after
 * --duration.
 *
 * One-to-many: one SCTP socket carries N associations.  An association is
 * identified by its address pair, so association i goes to PORT + i; run
 * the sink with --ports N.  Sends carry an SCTP_SNDINFO cmsg.
 * --sack-immediately: every message asks for an immediate SACK
 * (SCTP_SACK_IMMEDIATELY in snd_flags, RFC 7053, RFC 6458 5.3.4), what an
 * application can do on a stock kernel.
 *
 * Logs, one line per message: sender "assoc seq size send_ns", sink
 * "assoc seq size send_ns recv_ns" in arrival order.  Lines starting with
 * '#' are comments.  Summaries go to stdout at exit, progress to stderr.
 *
 * Multi-homing: --connectx ADDR,... sets every association up with
 * sctp_connectx() to the --connect address and these (same port), so the
 * peer's addresses are known from the start (Linux confirms them without
 * a heartbeat).  --events FILE subscribes to SCTP_ASSOC_CHANGE and
 * SCTP_PEER_ADDR_CHANGE and logs each notification when the sender reads
 * it (it polls every socket for them): "t_ns assoc kind state addr error",
 * t_ns CLOCK_REALTIME, kind "assoc" (state COMM_UP, COMM_LOST, ...) or
 * "paddr" (state AVAILABLE, UNREACHABLE, PF, CONFIRMED, ..., addr the
 * peer's address).  A potentially-failed path is reported only with
 * net.sctp.pf_expose = 2.
 *
 * --heartbeat-usr1: SIGUSR1 asks every association for a heartbeat on
 * each of its paths at once (SCTP_PEER_ADDR_PARAMS with SPP_HB_DEMAND,
 * RFC 6458 8.1.12): a test makes a heartbeat outstanding when it wants.
 * --shutdown-usr2: the first SIGUSR2 stops new messages (the schedule
 * runs on, nothing is sent), the second shuts every association down
 * (shutdown(SHUT_WR): SHUTDOWN, T2-shutdown) while the sender goes on
 * reading notifications until --duration ends.  One-to-one only.
 */
#include "thin-gen.h"

/* set by SIGINT and SIGTERM: the sender and the sink end */
volatile sig_atomic_t stop;
/* --heartbeat-usr1: set by SIGUSR1, served by the send loop */
volatile sig_atomic_t hb_wanted;
/* --shutdown-usr2: SIGUSR2s received */
volatile sig_atomic_t shut_wanted;

void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_usr1(int sig)
{
	(void)sig;
	hb_wanted = 1;
}

static void on_usr2(int sig)
{
	(void)sig;
	shut_wanted++;
}

/* a log file (--log, --events, --state-log), NULL for none */
FILE *open_log(const char *path)
{
	FILE *f;

	if (!path)
		return NULL;
	f = fopen(path, "w");
	if (!f)
		die("cannot open log %s: %s", path, strerror(errno));
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

int main(int argc, char **argv)
{
	int mode = opts_mode(argc, argv);
	struct opts o;

	if (mode == M_PROFILES) {
		profile_list();
		return 0;
	}
	opts_parse(argc, argv, &o);
	if (mode == M_PSTATS)
		return profile_stats_run(&o);

	if (o.proto < 0)
		die("--proto sctp|tcp is required");
	if (!o.addr)
		die(mode == M_SINK ? "--listen ADDR:PORT is required" :
		    "--connect ADDR:PORT is required");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (o.hb_usr1) {
		struct sigaction sa = { .sa_handler = on_usr1 };

		/* no SA_RESTART: poll() returns at once */
		sigaction(SIGUSR1, &sa, NULL);
	}
	if (o.shut_usr2) {
		struct sigaction sa = { .sa_handler = on_usr2 };

		sigaction(SIGUSR2, &sa, NULL);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (mode == M_SINK) {
		if (o.duration < 0)
			o.duration = 3600;
		return do_sink(&o);
	}
	opts_check_send(&o);
	return do_send(&o);
}
