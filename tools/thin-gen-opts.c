// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thin-gen's command line: --thin's flags, --phases and the usage.
 */
#include "thin-gen.h"

int parse_thin(const char *s, unsigned int *flags)
{
	static const struct {
		const char *name;
		unsigned int flag;
	} names[] = {
		{ "rto_min", SCTP_THIN_RTO_MIN },
		{ "restart", SCTP_THIN_RESTART_TIMER },
		{ "restart_timer", SCTP_THIN_RESTART_TIMER },
		{ "linear", SCTP_THIN_LINEAR_TIMEOUTS },
		{ "linear_timeouts", SCTP_THIN_LINEAR_TIMEOUTS },
		{ "fr", SCTP_THIN_FAST_RETRANSMIT },
		{ "fast_retransmit", SCTP_THIN_FAST_RETRANSMIT },
		{ "loss", SCTP_THIN_LOSS_ESTIMATION },
		{ "loss_estimation", SCTP_THIN_LOSS_ESTIMATION },
		{ "guard", SCTP_THIN_CONGESTION_GUARD },
		{ "congestion_guard", SCTP_THIN_CONGESTION_GUARD },
		{ "si", SCTP_THIN_SACK_IMMEDIATELY },
		{ "sack_immediately", SCTP_THIN_SACK_IMMEDIATELY },
		{ "rdb", SCTP_THIN_RDB },
		{ "all", SCTP_THIN_ALL },
		{ "none", 0 },
	};
	char buf[256], *tok, *save = NULL, *end;
	size_t i;

	*flags = strtoul(s, &end, 0);
	if (*s && !*end)
		return 0;
	*flags = 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",+", &save); tok; tok = strtok_r(NULL, ",+", &save)) {
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!strcmp(tok, names[i].name))
				break;
		if (i == ARRAY_SIZE(names))
			return -1;
		*flags |= names[i].flag;
	}
	return 0;
}

/* SIZE:MS:SECONDS[,SIZE:MS:SECONDS...] */
void parse_phases(struct opts *o, const char *arg)
{
	char buf[1024], *tok, *save = NULL, f[3][64];
	struct phase *p;

	if (strlen(arg) >= sizeof(buf))
		die("--phases: too long");
	snprintf(buf, sizeof(buf), "%s", arg);
	o->nphases = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nphases == MAX_PHASES)
			die("--phases: at most %d phases", MAX_PHASES);
		if (sscanf(tok, "%63[^:]:%63[^:]:%63s", f[0], f[1], f[2]) != 3)
			die("--phases: '%s' is not SIZE:MS:SECONDS", tok);
		p = &o->phases[o->nphases++];
		p->size = num(f[0], "--phases size", HDR_LEN, MAX_MSG);
		p->interval = num(f[1], "--phases interval", 0, 3600000);
		if (p->interval > 0 && p->interval < 0.01)
			die("--phases: interval 0 (greedy) or at least 0.01 ms");
		p->seconds = num(f[2], "--phases seconds", 0.001, 1e6);
	}
	if (!o->nphases)
		die("--phases: empty");
}

void help_exit(int rc)
{
	fprintf(rc ? stderr : stdout,
		"usage:\n"
		"  thin-gen sink --proto sctp|tcp --listen ADDR:PORT [--ports N] [--log FILE]\n"
		"                [--sack-delay-off] [--duration S] [--expect N] [--progress S]\n"
		"                [--ready-file FILE]\n"
		"  thin-gen send --proto sctp|tcp --connect ADDR:PORT [--assocs N]\n"
		"                [--style one-to-one|one-to-many] [--size BYTES] [--interval MS]\n"
		"                [--dist fixed|exp|pareto] [--pareto-shape A] [--profile NAME]\n"
		"                --duration S [--log FILE] [--nodelay] [--thin FLAGS] [--thin-strict]\n"
		"                [--thin-rto-min MS] [--thin-linear-max N] [--seed N] [--drain S]\n"
		"                [--rto-min MS] [--tcp-thin] [--sack-immediately]\n"
		"                [--connect-timeout S] [--progress S] [--wait-file FILE]\n"
		"                [--warmup] [--warmup-rate PER_S]\n"
		"                [--phases SIZE:MS:S,...] [--state-log FILE] [--state-every MS]\n"
		"                [--connectx ADDR[,ADDR...]] [--events FILE]\n"
		"  thin-gen profile-stats --profile NAME|all [--samples N] [--seed N] [--check PCT]\n"
		"     --check: averages within PCT %%, the table's 1/50/99 %% values at\n"
		"     quantile 0.01/0.5/0.99 +- 0.0025/0.01/0.0025 of the samples\n"
		"  thin-gen profiles\n"
		"--phases: fixed sizes and intervals that change over time (instead of\n"
		"  --size/--interval/--duration); interval 0: greedy (a message whenever\n"
		"  the socket takes one).  --state-log: SCTP_THIN_INFO of every\n"
		"  association every --state-every MS (100).\n"
		"--ready-file: the sink creates FILE once it has accepted --expect\n"
		"  connections; --wait-file: the sender starts its traffic once FILE\n"
		"  exists (within --connect-timeout), so that no message waits for the\n"
		"  sink's accept().  --warmup: one unlogged message per association,\n"
		"  acknowledged before the traffic (an RTT sample on each), sent at\n"
		"  --warmup-rate messages/s over all associations (1000; 0: at once).\n"
		"FLAGS: a number (0x7f) or a list of rto_min,restart,linear,fr,loss,guard,si,rdb,\n"
		"  all (the paper's and si, not rdb), none.  --thin-rdb-packets N: RDB copies\n"
		"  from the last N packets (1-8; default: the netns's thin_rdb_max_packets).\n"
		"--sack-immediately: SCTP_SACK_IMMEDIATELY (the I-bit) on every message.\n"
		"--connectx: sctp_connectx() to --connect's address and these (its port).\n"
		"--events FILE: SCTP_ASSOC_CHANGE and SCTP_PEER_ADDR_CHANGE notifications,\n"
		"  one line each, stamped when read: t_ns assoc kind state addr error.\n"
		"Without --thin the socket keeps the module's defaults (sysctls).\n"
		"One-to-many: association i goes to PORT+i (sink --ports N).\n"
		"profiles:");
	profile_names(rc ? stderr : stdout);
	fputc('\n', rc ? stderr : stdout);
	exit(rc);
}
