/*
 * fleet.c - one command's work for every group of rows.
 */
#include "run/fleet.h"
#include "base/escape.h"
#include "base/units.h"
#include "use/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The stream of the groups' seeds (base/units.h). */
static const uint64_t fleet_seed_stream = 0x666c656574ULL; /* "fleet" */

/* What travels from the rank that ran a group: compact JSON, numbers with
 * 17 digits (they read back to the same doubles). */
static const size_t unit_flags =
    JSON_COMPACT | JSON_REAL_PRECISION(17) | JSON_ENSURE_ASCII;

uint64_t
sf_fleet_seed(uint64_t seed, size_t index)
{
	return sf_units_seed(seed, fleet_seed_stream, index);
}

sf_fit_options
sf_fleet_options(const sf_fleet_job *job, const sf_fit_options *o, size_t index)
{
	sf_fit_options g = *o;

	g.has_seed = 1;
	g.seed = sf_fleet_seed(job->seed, index);
	g.progress = NULL;
	return g;
}

typedef struct fleet_ctx {
	const sf_groups *g;
	const sf_dataset *d;
	size_t min_rows;
	sf_fleet_fn fn;
	void *ctx;
} fleet_ctx;

/* A group's warnings, collected for rank 0 to print in group order. */
typedef struct warn_sink {
	const char *label;
	json_t *lines;
	int oom;
} warn_sink;

static void
collect_warning(void *ctx, const sf_error *w)
{
	warn_sink *s = ctx;
	sf_error copy = *w;
	json_t *o;

	sf_error_prefix(&copy, "group %s: ", s->label);
	o = json_pack("{s:i, s:s, s:i, s:i, s:i, s:s, s:s}", "code", copy.code,
	              "file", copy.file, "line", copy.line, "column",
	              copy.column, "source_column", copy.source_column,
	              "message", copy.message, "source", copy.source);
	if (o == NULL || json_array_append_new(s->lines, o) != 0)
		s->oom = 1;
}

/* A warning of collect_warning() read back. */
static void
warning_of(const json_t *o, sf_error *w)
{
	sf_error_clear(w);
	w->code = (int)json_integer_value(json_object_get(o, "code"));
	w->line = (int)json_integer_value(json_object_get(o, "line"));
	w->column = (int)json_integer_value(json_object_get(o, "column"));
	w->source_column =
	    (int)json_integer_value(json_object_get(o, "source_column"));
	snprintf(w->file, sizeof w->file, "%s",
	         json_string_value(json_object_get(o, "file")));
	snprintf(w->message, sizeof w->message, "%s",
	         json_string_value(json_object_get(o, "message")));
	snprintf(w->source, sizeof w->source, "%s",
	         json_string_value(json_object_get(o, "source")));
}

/* Group index's result: {"report", "text", "warnings", "error"}. */
static int
fleet_unit(void *vctx, size_t index, char **out, size_t *size, sf_error *err)
{
	const fleet_ctx *c = vctx;
	const sf_group *gr = &c->g->groups[index];
	warn_sink sink = {gr->label, json_array(), 0};
	json_t *report = NULL, *msg = NULL;
	char *text = NULL, error[SF_ERROR_MESSAGE_MAX + 64] = "";
	sf_dataset *sub = NULL;
	sf_error e;
	int rc = SF_OK;

	sf_error_clear(&e);
	if (sink.lines == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (gr->nrows == 0) {
		snprintf(error, sizeof error,
		         "no usable row: its %zu rows were all skipped",
		         gr->skipped);
	} else if (gr->nrows < c->min_rows) {
		snprintf(error, sizeof error,
		         "too few rows: %zu usable for %zu fitted constants",
		         gr->nrows, c->min_rows);
	} else if ((rc = sf_dataset_select(c->d, gr->rows, gr->nrows, &sub,
	                                   &e)) != SF_OK) {
		*err = e;
		goto done;
	} else {
		rc = c->fn(c->ctx, sub, index, collect_warning, &sink, &report,
		           &text, &e);
		/* What the group's rows decide fails the group; a bad
		 * setting or input would fail every group: the run. */
		if (rc != SF_OK && rc != SF_EFAIL && rc != SF_EVALUE) {
			*err = e;
			goto done;
		}
		if (rc != SF_OK) {
			json_decref(report);
			report = NULL;
			snprintf(error, sizeof error, "%s", e.message);
		}
		rc = SF_OK;
	}
	msg = json_pack("{s:o?, s:s?, s:O, s:s?}", "report", report, "text",
	                text, "warnings", sink.lines, "error",
	                error[0] != '\0' ? error : NULL);
	report = NULL;
	if (msg == NULL || sink.oom ||
	    (*out = json_dumps(msg, unit_flags)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	*size = strlen(*out);
done:
	json_decref(report);
	json_decref(msg);
	json_decref(sink.lines);
	free(text);
	sf_dataset_free(sub);
	return rc;
}

void
sf_fleet_free(sf_fleet *f)
{
	if (f == NULL)
		return;
	for (size_t i = 0; i < f->count; i++) {
		free(f->labels[i]);
		free(f->texts[i]);
		free(f->errors[i]);
		free(f->warnings[i]);
	}
	free(f->labels);
	free(f->texts);
	free(f->errors);
	free(f->warnings);
	free(f->nwarnings);
	json_decref(f->json);
	free(f);
}

/* The key of group gr: {"column": value, ...}. */
static json_t *
group_key(const sf_groups *g, const sf_group *gr)
{
	json_t *key = json_object();

	for (size_t c = 0; key != NULL && c < g->ncolumns; c++) {
		const sf_group_value *v = &gr->key[c];
		json_t *x = v->is_text ? json_string(v->text)
		                       : sf_json_number(v->number);
		if (x == NULL || json_object_set_new(key, g->columns[c], x)) {
			json_decref(key);
			return NULL;
		}
	}
	return key;
}

/* A copy of text, or NULL for NULL (and *oom set when it fails). */
static char *
copy_or_null(const char *text, int *oom)
{
	char *s;

	if (text == NULL)
		return NULL;
	if ((s = strdup(text)) == NULL)
		*oom = 1;
	return s;
}

/* Unit i's result into the fleet's group i. */
static int
add_group(sf_fleet *f, json_t *array, const sf_groups *g, size_t i,
          const char *bytes, size_t size)
{
	const sf_group *gr = &g->groups[i];
	json_t *msg = json_loadb(bytes, size, 0, NULL), *group;
	const char *error;
	size_t k;
	int oom = 0;

	if (msg == NULL)
		return SF_EINTERNAL;
	group = json_pack("{s:o, s:s, s:I}", "key", group_key(g, gr), "label",
	                  gr->label, "rows", (json_int_t)gr->nrows);
	error = json_string_value(json_object_get(msg, "error"));
	if (group == NULL) {
		json_decref(msg);
		return SF_ENOMEM;
	}
	if (error != NULL) {
		f->failed++;
		oom |= json_object_set_new(
		    group, "skipped", json_integer((json_int_t)gr->skipped));
		oom |= json_object_set_new(group, "error", json_string(error));
	} else {
		oom |=
		    json_object_update(group, json_object_get(msg, "report"));
	}
	f->labels[i] = copy_or_null(gr->label, &oom);
	f->errors[i] = copy_or_null(error, &oom);
	f->texts[i] =
	    copy_or_null(json_string_value(json_object_get(msg, "text")), &oom);
	{
		const json_t *lines = json_object_get(msg, "warnings");
		size_t n = json_array_size(lines);

		if (n > 0 &&
		    (f->warnings[i] = calloc(n, sizeof **f->warnings)) == NULL)
			oom = 1;
		for (k = 0; k < n && !oom; k++)
			warning_of(json_array_get(lines, k),
			           &f->warnings[i][k]);
		f->nwarnings[i] = oom ? 0 : n;
	}
	oom |= json_array_append_new(array, group);
	json_decref(msg);
	return oom ? SF_ENOMEM : SF_OK;
}

int
sf_fleet_run(const sf_groups *g, const sf_dataset *d, size_t min_rows,
             sf_fleet_fn fn, void *ctx, sf_fleet **out, sf_error *err)
{
	fleet_ctx c = {g, d, min_rows, fn, ctx};
	char **results = calloc(g->count + 1, sizeof *results);
	size_t *sizes = calloc(g->count + 1, sizeof *sizes);
	sf_fleet *f = calloc(1, sizeof *f);
	json_t *by = json_array(), *array = json_array();
	int rc;

	*out = NULL;
	if (results == NULL || sizes == NULL || f == NULL || by == NULL ||
	    array == NULL ||
	    (f->labels = calloc(g->count + 1, sizeof *f->labels)) == NULL ||
	    (f->texts = calloc(g->count + 1, sizeof *f->texts)) == NULL ||
	    (f->errors = calloc(g->count + 1, sizeof *f->errors)) == NULL ||
	    (f->warnings = calloc(g->count + 1, sizeof *f->warnings)) == NULL ||
	    (f->nwarnings = calloc(g->count + 1, sizeof *f->nwarnings)) ==
	        NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	f->count = g->count;
	for (size_t i = 0; i < g->ncolumns; i++)
		if (json_array_append_new(by, json_string(g->columns[i])) !=
		    0) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			goto done;
		}
	/* Only rank 0 prints and writes: only it gathers the reports. */
	if ((rc = sf_units_run_to_root(g->count, fleet_unit, &c, results, sizes,
	                               err)) != SF_OK)
		goto done;
	if (!sf_units_root()) {
		f->count = 0;
		*out = f;
		f = NULL;
		goto done;
	}
	for (size_t i = 0; i < g->count; i++)
		if ((rc = add_group(f, array, g, i, results[i], sizes[i])) !=
		    SF_OK) {
			sf_error_set(err, rc,
			             rc == SF_ENOMEM
			                 ? "out of memory"
			                 : "a group's report did not "
			                   "read back");
			goto done;
		}
	f->json = json_pack("{s:O, s:O, s:I, s:i}", "by", by, "groups", array,
	                    "failed", (json_int_t)f->failed, "ranks",
	                    sf_units_ranks());
	if (f->json == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	*out = f;
	f = NULL;
done:
	for (size_t i = 0; i < g->count && results != NULL; i++)
		free(results[i]);
	free(results);
	free(sizes);
	json_decref(by);
	json_decref(array);
	sf_fleet_free(f);
	return rc;
}

/* "a=1.2 b=3.4" from a report's parameters, at most four. */
static void
constants_text(const json_t *report, char *buf, size_t n)
{
	const char *name;
	json_t *p;
	size_t used = 0, shown = 0;

	buf[0] = '\0';
	json_object_foreach((json_t *)json_object_get(report, "parameters"),
	                    name, p)
	{
		json_t *v = json_object_get(p, "value");
		if (!json_is_number(v) || used >= n)
			continue;
		if (shown++ == 4) {
			snprintf(buf + used, n - used, " ...");
			break;
		}
		used += (size_t)snprintf(buf + used, n - used, "%s%s=%.4g",
		                         used > 0 ? " " : "", name,
		                         json_number_value(v));
	}
	if (buf[0] == '\0')
		snprintf(buf, n, "-");
}

void
sf_fleet_print_summary(const sf_fleet *f, FILE *out)
{
	const json_t *groups = json_object_get(f->json, "groups");
	size_t width = 5;

	/* Labels hold the data's values: escaped (base/escape.h). */
	for (size_t i = 0; i < f->count; i++)
		if (sf_escape_length(f->labels[i], 0) > width)
			width = sf_escape_length(f->labels[i], 0);
	fprintf(out, "%-*s %7s  %-8s %-10s %s\n", (int)width, "group", "rows",
	        "MAPE", "stop", "constants");
	for (size_t i = 0; i < f->count; i++) {
		const json_t *r = json_array_get(groups, i);
		json_t *mape =
		    json_object_get(json_object_get(r, "metrics"), "mape");
		const json_t *best = json_array_get(
		    json_object_get(json_object_get(r, "comparison"),
		                    "candidates"),
		    0);
		const json_t *search = json_object_get(r, "discover");
		/* discover's answer: the ensemble's first formula */
		const json_t *found = json_array_get(
		    json_object_get(search, "board"),
		    (size_t)json_integer_value(json_array_get(
		        json_object_get(search, "ensemble"), 0)) -
		        1);
		if (mape == NULL) /* validate: the held-out rows' */
			mape = json_object_get(json_object_get(r, "validation"),
			                       "mape");
		const char *stop = json_string_value(json_object_get(
		    json_object_get(r, "optimizer"), "stop_reason"));
		char constants[256], m[32];

		if (f->errors[i] != NULL) {
			sf_escape_print(out, f->labels[i], -(int)width);
			fprintf(out, " %7lld  failed: ",
			        (long long)json_integer_value(
			            json_object_get(r, "rows")));
			sf_escape_print(out, f->errors[i], 0);
			fputc('\n', out);
			continue;
		}
		constants_text(r, constants, sizeof constants);
		if (best != NULL) { /* compare: the best-ranked candidate */
			const char *name =
			    json_string_value(json_object_get(best, "model"));
			mape = json_object_get(best, "mape");
			snprintf(constants, sizeof constants,
			         "best: %s (Akaike weight %.3g)",
			         name != NULL ? name : "-",
			         json_number_value(
			             json_object_get(best, "akaike_weight")));
		}
		if (found != NULL) { /* discover: the winner, or the file's */
			const char *formula = json_string_value(
			    json_object_get(found, "formula"));
			int kept = json_string_value(
			               json_object_get(found, "model")) != NULL;

			mape = json_object_get(found, "mape");
			snprintf(
			    constants, sizeof constants,
			    kept ? "kept: the model file's %s (extrapolation "
			           "MAPE %.3g%%; the search lost the "
			           "held-back check)"
			         : "best: %s (extrapolation MAPE %.3g%%)",
			    formula != NULL ? formula : "-",
			    json_number_value(
			        json_object_get(found, "extrapolation_mape")));
		}
		if (json_is_number(mape))
			snprintf(m, sizeof m, "%.2f%%",
			         json_number_value(mape));
		else
			snprintf(m, sizeof m, "-");
		sf_escape_print(out, f->labels[i], -(int)width);
		fprintf(
		    out, " %7lld  %-8s %-10s ",
		    (long long)json_integer_value(json_object_get(r, "rows")),
		    m, stop != NULL ? stop : "-");
		sf_escape_print(out, constants, 0);
		fputc('\n', out);
	}
	fprintf(out, "%zu groups, %zu failed\n", f->count, f->failed);
}

/* The fleet's text: the summary, and each group's report when asked. */
typedef struct fleet_text {
	const sf_fleet *f;
	int details;
} fleet_text;

static int
print_fleet(FILE *out, const void *arg)
{
	const fleet_text *t = arg;

	sf_fleet_print_summary(t->f, out);
	for (size_t i = 0; i < t->f->count && t->details; i++)
		if (t->f->texts[i] != NULL) {
			fputs("\n== group ", out);
			sf_escape_print(out, t->f->labels[i], 0);
			fprintf(out, " ==\n%s", t->f->texts[i]);
		}
	return SF_OK;
}

int
sf_run_fleet(const sf_model *m, const sf_problem *p, const sf_run_data *d,
             sf_fleet_fn fn, void *ctx, sf_warn_fn warn, void *warn_ctx,
             sf_fleet **fleet, sf_run_output *out, sf_error *err)
{
	const char *by = d->by != NULL ? d->by : m->by.text;
	const sf_table *table = p->table != NULL ? p->table : d->table;
	sf_groups *g = NULL;
	sf_fleet *f = NULL;
	fleet_text t;
	int rc;

	*fleet = NULL;
	if ((rc = sf_groups_split(table, p->data, by, m->path,
	                          d->by != NULL ? NULL : &m->by, &g, err)) !=
	    SF_OK) {
		if (d->by == NULL)
			sf_error_quote(err, m->source, m->source_length);
		return rc;
	}
	if (g->count == 1 && warn != NULL) {
		sf_error w;

		sf_error_clear(&w);
		sf_error_set(&w, SF_OK,
		             "%s %s makes one group only (%s): its report is "
		             "the groups file of one group",
		             d->by != NULL ? "--by" : "data.by", by,
		             g->groups[0].label);
		warn(warn_ctx, &w);
	}
	rc = sf_fleet_run(g, p->data,
	                  p->formula != NULL ? p->formula->nparams : 1, fn, ctx,
	                  &f, err);
	sf_groups_free(g);
	if (rc != SF_OK)
		return rc;
	/* Only rank 0 has the groups (sf_fleet_run): it reports. */
	for (size_t i = 0; i < f->count && warn != NULL; i++)
		for (size_t k = 0; k < f->nwarnings[i]; k++)
			warn(warn_ctx, &f->warnings[i][k]);
	t = (fleet_text){f, d->details};
	if (sf_units_root() &&
	    (rc = sf_run_text(print_fleet, &t, &out->text, err)) != SF_OK) {
		sf_fleet_free(f);
		return rc;
	}
	out->json = json_incref(f->json);
	*fleet = f;
	return SF_OK;
}
