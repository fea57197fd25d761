// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thin-gen's traffic profiles: the thin-stream applications of Table 1,
 * their quantile functions (what --profile draws sizes and intervals
 * from), "thin-gen profiles" and "thin-gen profile-stats".
 */
#include "thin-gen.h"

/* Profiles: Table 1 of Petlund et al. 2009 (and of NetGames 2008).
 *
 * Table 1 gives, per application, payload size avg/min/max and packet
 * interarrival time avg/median/min/max/1st/99th percentile.  A profile
 * draws sizes and intervals independently (no autocorrelation) from a
 * quantile function Q(u), u uniform in (0, 1), that passes through the
 * table's points ("knots"): (0, min), (0.01, p1), (0.5, median),
 * (0.99, p99), (1, max) for intervals, (0, min), (1, max) for sizes.
 * Between knots a and b, Q interpolates geometrically with a warp:
 * Q = a (b/a)^(t^g), t the position in the segment.  g is one number per
 * quantile function, fitted by bisection so that the mean matches the
 * table's average; g > 1 concentrates mass at the lower knot of each
 * segment.  The outer 1 % segments of the interval Q use max(g, 1).
 * So avg, min, max, 1%, median and 99% all match (up to sampling), the
 * shape in between is an assumption.  "< 1 ms" in the
 * table is taken as 0.5 ms.
 */
#define LT1	0.5

static const struct profile profiles[] = {
	{ "anarchy-online", "Anarchy Online (MMORPG)", "Table 1",
	  98, 8, 1333, 632, 449, 7, 17032, 83, 4195, 1.582, 2168,
	  0, { { 0, 0 } } },
	{ "wow", "World of Warcraft (MMORPG)", "Table 1",
	  26, 6, 1228, 314, 133, LT1, 14855, LT1, 3785, 3.185, 2046,
	  0, { { 0, 0 } } },
	/* Age of Conan and BZFlag are not in this paper's Table 1: their
	 * rows are Table 1 of Petlund et al., NetGames 2008 (in
	 * ../shared/papers), whose "0" ms entries we read as "< 1".
	 */
	{ "age-of-conan", "Age of Conan (MMORPG)", "NetGames 2008, Table 1",
	  80, 5, 1460, 86, 57, LT1, 1375, 24, 386, 11.628, 12375,
	  0, { { 0, 0 } } },
	{ "bzflag", "BZFlag (FPS)", "NetGames 2008, Table 1",
	  30, 4, 1448, 24, LT1, LT1, 540, LT1, 151, 41.667, 31370,
	  0, { { 0, 0 } } },
	{ "skype", "Skype (2 users)", "Table 1",
	  236, 14, 1267, 34, 40, LT1, 1671, 4, 80, 29.412, 69000,
	  0, { { 0, 0 } } },
	{ "ssh", "SSH text session", "Table 1",
	  48, 16, 752, 323, 159, LT1, 76610, 32, 3616, 3.096, 2825,
	  0, { { 0, 0 } } },
	{ "rdp", "Remote Desktop (RDP)", "Table 1",
	  111, 8, 1417, 318, 159, 1, 12254, 2, 3892, 3.145, 4497,
	  0, { { 0, 0 } } },
	/* Casa: per the paper's text, a burst of 4 packets ~305 ms apart
	 * every 30 s: 3/4 of the intervals are ~305 ms, 1/4 are ~29 s.  The
	 * knots at 0.745 and 0.755 put that step into Q.
	 */
	{ "casa", "Casa (sensor network)", "Table 1; burst step at u=0.75 from the paper's text",
	  175, 93, 572, 7287, 307, 305, 29898, 305, 29898, 0.137, 269,
	  2, { { 0.745, 309 }, { 0.755, 27000 } } },
};

#define NPROFILES ARRAY_SIZE(profiles)

const struct profile *profile_find(const char *name)
{
	size_t i;

	for (i = 0; i < NPROFILES; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

static double seg_eval(double a, double b, double t, double g)
{
	if (a == b || t <= 0)
		return a;
	if (t >= 1)
		return b;
	return a * pow(b / a, pow(t, g));
}

/* The outer segments of a multi-segment Q (below 1 %, above 99 %) are
 * not warped towards their upper end (g < 1): that makes Q jump right
 * after the knot, so that the 1 % and 99 % points would move with every
 * sampling fluctuation.
 */
static double seg_g(const struct qfun *q, int i, double g)
{
	return q->n > 2 && (i == 0 || i == q->n - 2) && g < 1 ? 1 : g;
}

double q_eval(const struct qfun *q, double u)
{
	int i;

	for (i = 0; i < q->n - 2 && u > q->k[i + 1].p; i++)
		;
	return seg_eval(q->k[i].v, q->k[i + 1].v,
			(u - q->k[i].p) / (q->k[i + 1].p - q->k[i].p),
			seg_g(q, i, q->g));
}

/* E[Q(U)] by the midpoint rule, per segment */
static double q_mean(const struct qfun *q, double g)
{
	const int m = 400;
	double sum = 0, s;
	int i, j;

	for (i = 0; i < q->n - 1; i++) {
		s = 0;
		for (j = 0; j < m; j++)
			s += seg_eval(q->k[i].v, q->k[i + 1].v, (j + 0.5) / m,
				      seg_g(q, i, g));
		sum += s / m * (q->k[i + 1].p - q->k[i].p);
	}
	return sum;
}

/* The mean falls as g grows: bisect log(g) in [-8, 8]. */
static void q_fit(struct qfun *q, double mean)
{
	double lo = -8, hi = 8, mid;
	int i;

	for (i = 0; i < 40; i++) {
		mid = (lo + hi) / 2;
		if (q_mean(q, exp(mid)) > mean)
			lo = mid;
		else
			hi = mid;
	}
	q->g = exp((lo + hi) / 2);
}

static void q_add(struct qfun *q, double p, double v)
{
	int i = q->n++;

	while (i > 0 && q->k[i - 1].p > p) {
		q->k[i] = q->k[i - 1];
		i--;
	}
	q->k[i].p = p;
	q->k[i].v = v;
}

void profile_build(const struct profile *pr, struct qfun *size,
		   struct qfun *iat)
{
	int i;

	memset(size, 0, sizeof(*size));
	memset(iat, 0, sizeof(*iat));
	q_add(size, 0, pr->size_min);
	q_add(size, 1, pr->size_max);
	q_fit(size, pr->size_avg);
	q_add(iat, 0, pr->iat_min);
	q_add(iat, 0.01, pr->iat_p1);
	q_add(iat, 0.5, pr->iat_med);
	q_add(iat, 0.99, pr->iat_p99);
	q_add(iat, 1, pr->iat_max);
	for (i = 0; i < pr->nextra; i++)
		q_add(iat, pr->extra[i].p, pr->extra[i].v);
	q_fit(iat, pr->iat_avg);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p)
{
	return v[(size_t)(p * (n - 1) + 0.5)];
}

struct stat_row {
	const char *what;
	double table, got;
	int check;	/* 1: relative, 2: "< 1" in the table, 3: rank */
	double p;	/* rank checks: the table value's quantile */
};

/* fraction of the sorted samples <= x */
static double ecdf(const double *v, size_t n, double x)
{
	size_t lo = 0, hi = n, m;

	while (lo < hi) {
		m = (lo + hi) / 2;
		if (v[m] <= x)
			lo = m + 1;
		else
			hi = m;
	}
	return (double)lo / n;
}

/* profile-stats' samples, sorted, and their sums */
struct samples {
	double *sz, *ia;
	long n;
	double ssum, isum, wsum;
};

static void samples_draw(struct samples *s, const struct qfun *qs,
			 const struct qfun *qi, long n, uint64_t seed)
{
	double *sz = malloc(n * sizeof(double)), *ia = malloc(n * sizeof(double));
	double ssum = 0, isum = 0, wsum = 0;
	long j;

	if (!sz || !ia)
		die("out of memory");
	for (j = 0; j < n; j++) {
		sz[j] = lround(q_eval(qs, rng_unif(&seed)));
		ia[j] = q_eval(qi, rng_unif(&seed));
		ssum += sz[j];
		wsum += sz[j] < HDR_LEN ? HDR_LEN : sz[j];
		isum += ia[j];
	}
	qsort(sz, n, sizeof(double), cmp_double);
	qsort(ia, n, sizeof(double), cmp_double);
	*s = (struct samples){ sz, ia, n, ssum, isum, wsum };
}

/* One row of the table; 1 if it is off by more than @tol (if > 0). */
static int stat_row_print(struct stat_row *r, const struct profile *pr,
			  const struct samples *s, double tol)
{
	char tv[32], ev[32] = "";
	double f = 0, err;
	int off = 0;

	if (r->table == LT1) {
		snprintf(tv, sizeof(tv), "<1");
		if (r->check)
			r->check = 2;
	} else {
		snprintf(tv, sizeof(tv), "%.3f", r->table);
	}
	err = (r->got - r->table) / r->table * 100;
	if (r->check == 1) {
		snprintf(ev, sizeof(ev), "%+.1f%%", err);
		off = fabs(err) > tol;
	} else if (r->check == 2) {
		off = r->got >= 1;
	} else if (r->check == 3 && (r->table == pr->iat_min ||
				     r->table == pr->iat_max)) {
		/* e.g. Casa: 99 % == max, ranks say nothing */
		snprintf(ev, sizeof(ev), "%+.1f%%", err);
		off = fabs(err) > tol;
	} else if (r->check == 3) {
		/* percentiles: where the table's value falls in the
		 * samples (robust where Q is steep)
		 */
		f = ecdf(s->ia, s->n, r->table);
		snprintf(ev, sizeof(ev), "F=%.4f", f);
		off = fabs(f - r->p) > (r->p == 0.5 ? 0.01 : 0.0025);
	}
	printf("  %-20s %10s %10.3f %10s", r->what, tv, r->got, ev);
	if (tol > 0 && off) {
		printf("  <-- off\n");
		return 1;
	}
	printf("\n");
	return 0;
}

static int profile_stats(const struct profile *pr, long n, uint64_t seed,
			 double tol)
{
	struct qfun qs, qi;
	struct stat_row r[12];
	struct samples s;
	int i, nr = 0, bad = 0;

	profile_build(pr, &qs, &qi);
	samples_draw(&s, &qs, &qi, n, seed);

#define ROW(w, t, g, c, p) (r[nr++] = (struct stat_row){ w, t, g, c, p })
	ROW("size avg (bytes)", pr->size_avg, s.ssum / n, 1, 0);
	ROW("size min", pr->size_min, s.sz[0], 0, 0);
	ROW("size max", pr->size_max, s.sz[n - 1], 0, 0);
	ROW("interval avg (ms)", pr->iat_avg, s.isum / n, 1, 0);
	ROW("interval median", pr->iat_med, pct(s.ia, n, 0.5), 3, 0.5);
	ROW("interval min", pr->iat_min, s.ia[0], 0, 0);
	ROW("interval max", pr->iat_max, s.ia[n - 1], 0, 0);
	ROW("interval 1%", pr->iat_p1, pct(s.ia, n, 0.01), 3, 0.01);
	ROW("interval 99%", pr->iat_p99, pct(s.ia, n, 0.99), 3, 0.99);
	ROW("packets/s", pr->pps, 1000.0 / (s.isum / n), 0, 0);
#undef ROW
	printf("profile %s: %s\n  source: %s\n", pr->name, pr->title, pr->note);
	printf("  %-20s %10s %10s %10s\n", "", "table", "achieved", "error");
	for (i = 0; i < nr; i++)
		bad += stat_row_print(&r[i], pr, &s, tol);
	printf("  %-20s %10s %10.3f  (sizes below the %d-byte header are sent as %d)\n",
	       "wire size avg", "", s.wsum / n, HDR_LEN, HDR_LEN);
	printf("  %-20s %10.1f %10.1f  (table: with headers; achieved: payload only)\n",
	       "bits/s", pr->bps, s.ssum / n * 8 * 1000.0 / (s.isum / n));
	printf("  fit: size g=%.4f, interval g=%.4f, %ld samples\n", qs.g, qi.g, n);
	free(s.sz);
	free(s.ia);
	return bad;
}

/* "thin-gen profiles" */
void profile_list(void)
{
	size_t i;

	for (i = 0; i < NPROFILES; i++)
		printf("%-15s %s (%s)\n", profiles[i].name, profiles[i].title,
		       profiles[i].note);
}

/* the names, each after a space (the usage's last line) */
void profile_names(FILE *f)
{
	size_t i;

	for (i = 0; i < NPROFILES; i++)
		fprintf(f, " %s", profiles[i].name);
}

/* "thin-gen profile-stats": the exit code */
int profile_stats_run(struct opts *o)
{
	const char *prof = o->profile_arg;
	int bad = 0;
	size_t i;

	if (!prof)
		die("profile-stats needs --profile NAME|all");
	for (i = 0; i < NPROFILES; i++) {
		if (strcmp(prof, "all") && strcmp(prof, profiles[i].name))
			continue;
		bad += profile_stats(&profiles[i], o->samples, o->seed, o->check);
		o->profile = &profiles[i];
	}
	if (!o->profile)
		die("unknown profile '%s' (thin-gen profiles)", prof);
	if (o->check > 0)
		printf("profile-stats: %s\n", bad ? "FAIL" : "ok");
	return bad ? 1 : 0;
}
