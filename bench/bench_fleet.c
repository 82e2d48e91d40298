/*
 * bench_fleet.c - where the time of a fleet of fits goes, per unit, and a
 * cost model of 10,000 groups on 64 nodes built from those measurements.
 *
 * Makes a CSV of G groups (default 2,000) of 8 rows each, t = a/n +
 * b log2(n) with 3% noise (fixed seed), and times, in this process, every
 * phase of `scalefit fit --by job` as the library runs it:
 *   read     sf_table_parse of the CSV text (rank 0 reads the file and
 *            broadcasts its bytes, every rank parses them)
 *   bind     sf_dataset_bind and sf_formula_compile
 *   split    sf_groups_split
 *   fits     each group's fit as `fit` does it (search, polish, statistics,
 *            the error model's forward chain, the JSON and text reports),
 *            summed over the groups inside the units
 *   travel   the rest of sf_fleet_run: a report written to JSON text
 *            (on the rank that fitted it), read back and put in the fleet
 *            (on rank 0); the writing is timed apart (serialise) by
 *            writing every group's report again, so that rank 0's part
 *            (assemble = travel - serialise) is known
 *   write    the fleet's JSON written out (rank 0)
 * and prints the per-unit costs (seconds and bytes per group).  Then the
 * model: with R ranks and G groups,
 *   T(R) = start + broadcast + read + bind + split + G (fit + serialise)/R
 *          + (fetches x latency) + G bytes/bandwidth + G assemble + write
 * (rank 0 broadcasts the CSV's bytes, ceil(log2 R) hops of a binomial
 * tree at the network's bandwidth; every rank parses and splits; the fits
 * spread; rank 0 alone receives, parses and writes), evaluated for this machine
 * (R = 1, 2: compare with `mpirun -np 2 scalefit fit --by`) and for 10,000
 * groups on 64 nodes of 32 cores (R = 2048) with a 10 Gb/s network; the
 * start-up, latency and bandwidth are assumptions the output states, the rest
 * is measured.
 *
 * Usage: bench_fleet [GROUPS]
 */
#define _POSIX_C_SOURCE 200809L

#include "fit/fit.h"
#include "fit/interval.h"
#include "fit/stats.h"
#include "fit/tune.h"
#include "input/csv.h"
#include "input/dataset.h"
#include "input/formula.h"
#include "input/groups.h"
#include "input/model.h"
#include "run/fleet.h"
#include "use/report.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char model_yaml[] = "name: fleet\n"
                                 "data: {output: time}\n"
                                 "inputs: {n: n}\n"
                                 "parameters:\n"
                                 "  a: {min: 0, max: 1000}\n"
                                 "  b: {min: 0, max: 100}\n"
                                 "time: a / n + b * log2(n)\n";

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* SplitMix64, for the data's noise. */
static double
uniform(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

typedef struct bench_ctx {
	const sf_model *m;
	const sf_formula *f;
	double fit_seconds; /* summed inside the units */
} bench_ctx;

/* One group as `scalefit fit` fits it (cli/cmd_fit.c's pipeline). */
static int
fit_group(void *vctx, const sf_dataset *d, size_t index, sf_warn_fn warn,
          void *warn_ctx, json_t **report, char **text, sf_error *err)
{
	bench_ctx *c = vctx;
	double t0 = now();
	sf_fit_options o;
	sf_fit_result *r = NULL;
	sf_stats *s = NULL;
	sf_interval_model im;
	size_t length = 0;
	FILE *out;
	int rc, have = 0;

	(void)warn;
	(void)warn_ctx;
	sf_fit_options_init(&o);
	o.threads = 1;
	o.has_seed = 1;
	o.seed = sf_fleet_seed(1, index);
	if ((rc = sf_tune_fit(c->m, d, c->f, &o, &r, err)) != SF_OK)
		goto done;
	if (sf_stats_compute(c->f, d, r, &s, err) == SF_OK &&
	    sf_interval_calibrate(c->m, d, c->f, &o, r, s, NULL, &im, err) ==
	        SF_OK)
		have = 1;
	{
		sf_report rep = {c->m, d,    c->f, r,
		                 s,    NULL, NULL, have ? &im : NULL};
		*report = sf_report_json(&rep);
		if ((out = open_memstream(text, &length)) != NULL) {
			sf_report_print_text(&rep, out);
			fclose(out);
		}
	}
	rc = *report != NULL ? SF_OK : SF_ENOMEM;
done:
	sf_stats_free(s);
	sf_fit_result_free(r);
	c->fit_seconds += now() - t0;
	return rc;
}

/* The model's time for R ranks, printed as its parts. */
static void
model(const char *what, double G, double R, double start, double csv,
      double read, double bind, double split, double fit, double bytes,
      double assemble, double write, double latency, double bandwidth)
{
	/* Rank 0's read of the CSV to every rank: a binomial tree. */
	double broadcast = ceil(log2(R)) * csv / bandwidth;
	/* Guided chunks: about 8 R (1 + ln(G / 8R)) fetches in all. */
	double fetches = 8 * R * (1 + (G > 8 * R ? log(G / (8 * R)) : 0)) + R;
	/* Each fetch waits its latency; rank 0's counter serves them one
	 * at a time (1 us each). */
	double fits = G * fit / R,
	       queue = fetches / R * latency + fetches * 1e-6;
	double gather = G * bytes / bandwidth, root = G * assemble;
	double total = start + broadcast + read + bind + split + fits + queue +
	               gather + root + write;

	printf("%s: %.0f groups on %.0f ranks: %.2f s = start %.2f + "
	       "broadcast %.4f + read %.3f + bind %.3f + split %.3f + fits "
	       "%.3f + queue %.4f + gather %.3f + assemble %.3f + write %.3f\n",
	       what, G, R, total, start, broadcast, read, bind, split, fits,
	       queue, gather, root, write);
}

int
main(int argc, char **argv)
{
	size_t G = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 2000;
	size_t cap = G * 8 * 40 + 64, used = 0;
	char *csv = malloc(cap);
	uint64_t state = 7;
	sf_model_set *set = NULL;
	sf_table *t = NULL;
	sf_dataset *d = NULL;
	sf_formula *f = NULL;
	sf_groups *g = NULL;
	sf_fleet *fleet = NULL;
	sf_error err;
	bench_ctx c;
	double t0, t_read, t_bind, t_split, t_run, t_write, t_ser;
	char *dump;

	if (csv == NULL || G == 0)
		return 1;
	used += (size_t)snprintf(csv + used, cap - used, "job,n,time\n");
	for (size_t j = 0; j < G; j++) {
		double a = 5 + (double)(j % 97),
		       b = 0.1 + 0.03 * (double)(j % 13);
		for (int k = 0; k < 8; k++) {
			double n = ldexp(1, k);
			double y = (a / n + b * k) *
			           (1 + 0.03 * (uniform(&state) - 0.5));
			used += (size_t)snprintf(csv + used, cap - used,
			                         "j%06zu,%g,%.6g\n", j, n, y);
		}
	}
	if (sf_model_parse("fleet.yaml", model_yaml, strlen(model_yaml), &set,
	                   NULL, NULL, &err) != SF_OK)
		goto fail;
	t0 = now();
	if (sf_table_parse(csv, used, "fleet.csv", NULL, &t, &err) != SF_OK)
		goto fail;
	t_read = now() - t0;
	t0 = now();
	if (sf_dataset_bind(set->models[0], t, 1, &d, NULL, NULL, &err) !=
	        SF_OK ||
	    sf_formula_compile(set->models[0], d, &f, NULL, NULL, &err) !=
	        SF_OK)
		goto fail;
	t_bind = now() - t0;
	t0 = now();
	if (sf_groups_split(t, d, "job", NULL, NULL, &g, &err) != SF_OK)
		goto fail;
	t_split = now() - t0;
	c = (bench_ctx){set->models[0], f, 0};
	t0 = now();
	if (sf_fleet_run(g, d, f->nparams, fit_group, &c, &fleet, &err) !=
	    SF_OK)
		goto fail;
	t_run = now() - t0;
	t0 = now();
	dump =
	    json_dumps(fleet->json, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	t_write = now() - t0;
	if (dump == NULL)
		return 3;
	/* The serialising of every report, as the units do it. */
	{
		json_t *groups = json_object_get(fleet->json, "groups"), *x;
		size_t i;

		t0 = now();
		json_array_foreach(groups, i, x)
		{
			char *text = json_dumps(x, JSON_COMPACT |
			                               JSON_REAL_PRECISION(17) |
			                               JSON_ENSURE_ASCII);
			free(text);
		}
		t_ser = now() - t0;
	}
	{
		double fit = c.fit_seconds / (double)G;
		double travel = (t_run - c.fit_seconds) / (double)G;
		double ser = t_ser / (double)G, assemble = travel - ser;
		double bytes = (double)strlen(dump) / (double)G;
		double mb = (double)used / 1e6;

		printf("measured, %zu groups of 8 rows (%.2f MB of CSV), one "
		       "thread:\n",
		       G, mb);
		printf("  read %.4f s (%.0f MB/s), bind %.4f s, split %.4f s\n",
		       t_read, mb / t_read, t_bind, t_split);
		printf("  per group: fit %.3f ms, serialise %.3f ms (on its "
		       "rank), assemble %.3f ms (parse and add, rank 0), %.0f "
		       "bytes of report\n",
		       1e3 * fit, 1e3 * ser, 1e3 * assemble, bytes);
		printf("  write %.3f s (%.0f MB/s)\n", t_write,
		       (double)strlen(dump) / 1e6 / t_write);
		printf("  one process: %.3f s of which fits %.0f%%\n",
		       t_read + t_bind + t_split + t_run + t_write,
		       100 * c.fit_seconds /
		           (t_read + t_bind + t_split + t_run + t_write));
		printf("model (assumed: mpirun start 0.3 s on one node, 3 s "
		       "on 64; counter latency 5 us on one node, 20 us across, "
		       "1 us "
		       "of rank 0's time per fetch; "
		       "10 Gb/s = 1.25 GB/s):\n");
		model("  this machine", (double)G, 1, 0, (double)used, t_read,
		      t_bind, t_split, fit + ser, bytes, assemble, t_write,
		      5e-6, 1e9);
		model("  this machine", (double)G, 2, 0.3, (double)used, t_read,
		      t_bind, t_split, fit + ser, bytes, assemble, t_write,
		      5e-6, 1e9);
		/* 10,000 groups: reading and binding grow with the rows. */
		model("  64 nodes x 32 cores", 1e4, 2048, 3,
		      (double)used * 1e4 / (double)G, t_read * 1e4 / (double)G,
		      t_bind * 1e4 / (double)G, t_split * 1e4 / (double)G,
		      fit + ser, bytes, assemble, t_write * 1e4 / (double)G,
		      20e-6, 1.25e9);
		model("  64 nodes x 1 rank", 1e4, 64, 3,
		      (double)used * 1e4 / (double)G, t_read * 1e4 / (double)G,
		      t_bind * 1e4 / (double)G, t_split * 1e4 / (double)G,
		      fit + ser, bytes, assemble, t_write * 1e4 / (double)G,
		      20e-6, 1.25e9);
	}
	free(dump);
	sf_fleet_free(fleet);
	sf_groups_free(g);
	sf_formula_free(f);
	sf_dataset_free(d);
	sf_table_free(t);
	sf_model_set_free(set);
	free(csv);
	return 0;
fail:
	fprintf(stderr, "bench_fleet: %s\n", err.message);
	return 1;
}
