/*
 * discover.c (run/) - the pipeline of `scalefit discover`: the rows, the
 * file's own formulas, the search or every group's, the winner's model
 * file and the reports.
 */
#include "run/discover.h"
#include "base/atomic.h"
#include "base/text.h"
#include "discover/report.h"
#include "input/groups.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void
sf_run_discover_settings_init(sf_run_discover_settings *s)
{
	memset(s, 0, sizeof *s);
	sf_discover_options_init(&s->options);
}

void
sf_run_discover_result_free(sf_run_discover_result *r)
{
	if (r == NULL)
		return;
	sf_discover_result_free(r->search);
	free(r->model_text);
	free(r->model_path);
	for (size_t i = 0; i < r->nshapes; i++)
		free(r->shapes[i]);
	free(r->shapes);
	sf_fleet_free(r->fleet);
	sf_run_output_clear(&r->out);
	free(r);
}

/* What a run reads: the rows and the file's own formulas on them. */
typedef struct rows {
	sf_table *table;
	sf_dataset *data;
	sf_problem *given; /* the models of the file with a formula */
	size_t ngiven;
} rows;

static void
rows_close(rows *w)
{
	for (size_t i = 0; i < w->ngiven; i++)
		sf_problem_close(&w->given[i]);
	free(w->given);
	sf_dataset_free(w->data);
	sf_table_free(w->table);
}

/* 1 when the directory of path exists. */
static int
directory_exists(const char *path)
{
	const char *slash = strrchr(path, '/');
	sf_text dir = SF_TEXT_INIT;
	struct stat st;
	int yes;

	if (slash == NULL)
		return 1;
	sf_text_printf(&dir, "%.*s", (int)(slash - path) + 1, path);
	yes = sf_text_str(&dir) != NULL && stat(dir.data, &st) == 0 &&
	      S_ISDIR(st.st_mode);
	sf_text_free(&dir);
	return yes;
}

/* The data file of model m under s into r->data_path, refusing what the
 * model file the search writes could not name or would overwrite. */
static int
data_path_of(const sf_model *m, const sf_run_discover_settings *s,
             sf_run_discover_result *r, sf_error *err)
{
	const char *path = s->data.path != NULL ? s->data.path : m->data_file;

	if (path == NULL && s->data.table == NULL)
		return sf_error_at(err, SF_EUSAGE, m->path, 0, 0,
		                   "no data: give DATA.csv on the command line "
		                   "or data.file in the model");
	/* Never clobber an input. */
	if (s->output != NULL &&
	    (sf_file_same(s->output, m->path) ||
	     (path != NULL && sf_file_same(s->output, path))))
		return sf_run_request(err,
		                      "-o %s would overwrite an input; choose "
		                      "another file",
		                      s->output);
	/* It names its data relative to its directory. */
	if (s->output != NULL && !directory_exists(s->output))
		return sf_run_request(err,
		                      "-o %s: no directory to write it in; "
		                      "create the directory first",
		                      s->output);
	/* The winner's model file names its data, and its refit reads it. */
	if (s->data.table != NULL || strcmp(path, "-") == 0)
		return sf_run_request(err,
		                      "discover writes a model that names its "
		                      "data file: give DATA.csv, not standard "
		                      "input");
	r->data_path = path;
	return SF_OK;
}

/* The rows of set's first model and its formulas' problems on them. */
static int
rows_open(const sf_model_set *set, const sf_run_discover_settings *s,
          const char *path, rows *w, sf_error *err)
{
	const sf_model *m = set->models[0];
	const sf_fit_options *o = &s->options.fit;
	sf_loss loss = o->has_loss ? o->loss : m->fit.loss;
	int rc;

	memset(w, 0, sizeof *w);
	if ((rc = sf_table_load(path, NULL, &w->table, err)) != SF_OK ||
	    (rc = sf_dataset_bind(m, w->table, sf_loss_needs_positive(loss),
	                          &w->data, s->warn, s->warn_ctx, err)) !=
	        SF_OK)
		return rc;
	/* The file's own formulas go on the board beside the found ones. */
	if ((w->given = calloc(set->count + 1, sizeof *w->given)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < set->count; i++) {
		const sf_model *g = set->models[i];

		if (g->time.text == NULL)
			continue;
		if ((rc = sf_problem_open_table(
		         g, w->table, o->has_loss ? o->loss : g->fit.loss, NULL,
		         NULL, &w->given[w->ngiven], err)) != SF_OK)
			return rc;
		w->ngiven++;
	}
	return SF_OK;
}

/* ---- a fleet: every group searched alone ------------------------------- */

typedef struct group_ctx {
	const sf_run_discover_settings *s;
	const sf_model *m;
	const sf_model_discover *grammar;
	const char *data_path;
	const sf_groups *groups;  /* the rows split (as sf_run_fleet splits) */
	const sf_problem *given;  /* the file's own formulas, all rows */
	sf_groups **given_groups; /* their rows split alike */
	size_t ngiven;
	uint64_t seed; /* the run's */
} group_ctx;

/* Group index's search and reports: an sf_fleet_fn. */
static int
discover_group(void *ctx, const sf_dataset *group, size_t index,
               sf_warn_fn warn, void *warn_ctx, json_t **report, char **text,
               sf_error *err)
{
	const group_ctx *g = ctx;
	const char *label = g->groups->groups[index].label;
	sf_discover_options o = g->s->options;
	sf_problem *given = calloc(g->ngiven + 1, sizeof *given);
	sf_discover_result *r = NULL;
	size_t ngiven = 0;
	int rc = SF_OK;

	(void)warn;
	(void)warn_ctx;
	if (given == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	o.fit.has_seed = 1;
	o.fit.seed = sf_fleet_seed(g->seed, index);
	/* The file's formulas on this group's rows, where they have some:
	 * their own tables and formulas, the group's rows. */
	for (size_t i = 0; i < g->ngiven && rc == SF_OK; i++) {
		size_t k = sf_groups_find(g->given_groups[i], label);
		const sf_group *gr =
		    k == SIZE_MAX ? NULL : &g->given_groups[i]->groups[k];

		if (gr == NULL || gr->nrows == 0)
			continue;
		given[ngiven] = g->given[i];
		rc = sf_dataset_select(g->given[i].data, gr->rows, gr->nrows,
		                       &given[ngiven].data, err);
		ngiven += rc == SF_OK;
	}
	if (rc != SF_OK || (rc = sf_discover_run(g->m, g->grammar, group, given,
	                                         ngiven, &o, &r, err)) != SF_OK)
		goto done;
	if ((*report = sf_discover_report_json(g->m, g->data_path, r, NULL)) ==
	        NULL ||
	    (*text = sf_discover_report_text(g->m, g->data_path, r, NULL)) ==
	        NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	for (size_t i = 0; i < ngiven; i++)
		sf_dataset_free(given[i].data);
	free(given);
	sf_discover_result_free(r);
	return rc;
}

/* Search every group of w's rows (split as s->data or data.by says)
 * alone into r->fleet. */
static int
discover_fleet(const sf_model_set *set, const sf_run_discover_settings *s,
               const rows *w, sf_run_discover_result *r, sf_error *err)
{
	const sf_model *m = set->models[0];
	const char *by = s->data.by != NULL ? s->data.by : m->by.text;
	const sf_model_text *at = s->data.by != NULL ? NULL : &m->by;
	sf_problem p = {m, w->table, w->data, NULL};
	sf_groups *groups = NULL;
	group_ctx g = {s,
	               m,
	               &set->discover,
	               r->data_path,
	               NULL,
	               w->given,
	               calloc(w->ngiven + 1, sizeof *g.given_groups),
	               w->ngiven,
	               sf_fit_settings_effective(m, &s->options.fit).seed};
	int rc;

	if (g.given_groups == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((rc = sf_groups_split(w->table, w->data, by, m->path, at, &groups,
	                          err)) != SF_OK) {
		if (at != NULL)
			sf_error_quote(err, m->source, m->source_length);
		goto done;
	}
	g.groups = groups;
	for (size_t i = 0; i < w->ngiven && rc == SF_OK; i++)
		rc = sf_groups_split(
		    w->given[i].table != NULL ? w->given[i].table : w->table,
		    w->given[i].data, by, m->path, at, &g.given_groups[i], err);
	if (rc == SF_OK)
		rc = sf_run_fleet(m, &p, &s->data, discover_group, &g, s->warn,
		                  s->warn_ctx, &r->fleet, &r->out, err);
done:
	for (size_t i = 0; i < w->ngiven; i++)
		sf_groups_free(g.given_groups[i]);
	free(g.given_groups);
	sf_groups_free(groups);
	return rc;
}

/* ---- one search -------------------------------------------------------- */

/* The grammar's shapes, and the text that lists them one a line. */
static int
list_shapes(const sf_model_set *set, const sf_run_discover_settings *s,
            const rows *w, sf_run_discover_result *r, sf_error *err)
{
	sf_text out = SF_TEXT_INIT;
	int rc;

	if ((rc = sf_discover_shapes(set->models[0], &set->discover, w->data,
	                             &s->options, &r->shapes, &r->nshapes,
	                             err)) != SF_OK)
		return rc;
	for (size_t i = 0; i < r->nshapes; i++)
		sf_text_printf(&out, "%s\n", r->shapes[i]);
	if ((r->out.text = sf_text_take(&out)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

/* The most bytes of a model's name the file name without an output
 * keeps. */
enum { NAME_KEPT = 100 };

/* The path the winner's file is written to: the output, or (without one)
 * beside the model file, named after the model with each byte a file
 * name should not hold as '_' (a name is not a path: "sub/dir" gives
 * sub_dir-discovered.yaml).  data.file is made relative to it. */
static char *
output_path(const sf_run_discover_settings *s, const sf_model *m)
{
	const char *slash = strrchr(m->path, '/');
	int dir = slash != NULL ? (int)(slash - m->path) + 1 : 0;
	sf_text path = SF_TEXT_INIT;

	if (s->output != NULL)
		return sf_text_dup(s->output);
	sf_text_printf(&path, "%.*s", dir, m->path);
	for (size_t i = 0; m->name[i] != '\0' && i < NAME_KEPT; i++) {
		char c = m->name[i];
		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		           (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		           (c == '.' && i > 0);
		sf_text_putc(&path, keep ? c : '_');
	}
	sf_text_puts(&path, m->name[0] == '\0' ? "model-discovered.yaml"
	                                       : "-discovered.yaml");
	return sf_text_take(&path);
}

/* SF_OK when the model file text (at path) loads; the refit read the
 * same file but for its comments, so anything else is a bug of the
 * writer (SF_EINTERNAL), never a file check would refuse. */
static int
loads(const char *path, const char *text, sf_error *err)
{
	sf_model_set *set = NULL;
	sf_error e;
	int rc = sf_model_parse(path, text, strlen(text), &set, NULL, NULL, &e);

	sf_model_set_free(set);
	if (rc == SF_ENOMEM)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (rc != SF_OK)
		return sf_error_set(err, SF_EINTERNAL,
		                    "the model file discover wrote does not "
		                    "load (a bug): line %d: %s",
		                    e.line, e.message);
	return SF_OK;
}

/* The winner's model file: written, fitted through the pipeline, then
 * written again with those constants in its comments. */
static int
winner_file(const sf_run_discover_settings *s, const sf_model *m,
            sf_run_discover_result *r, sf_error *err)
{
	sf_discover_result *d = r->search;
	int rc;

	if ((r->model_path = output_path(s, m)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((rc = sf_discover_model_text(d, d->winner, m, r->model_path,
	                                 r->data_path, &r->model_text, err)) !=
	        SF_OK ||
	    (rc = sf_discover_refit(d, d->winner, r->model_path, r->model_text,
	                            &s->options, NULL, err)) != SF_OK)
		return rc;
	free(r->model_text);
	r->model_text = NULL;
	if ((rc = sf_discover_model_text(d, d->winner, m, r->model_path,
	                                 r->data_path, &r->model_text, err)) !=
	    SF_OK)
		return rc;
	return loads(r->model_path, r->model_text, err);
}

/* The search of the rows w, the winner's file and the reports. */
static int
discover_one(const sf_model_set *set, const sf_run_discover_settings *s,
             const rows *w, sf_run_discover_result *r, sf_error *err)
{
	const sf_model *m = set->models[0];
	int rc;

	if ((rc = sf_discover_run(m, &set->discover, w->data, w->given,
	                          w->ngiven, &s->options, &r->search, err)) !=
	    SF_OK) {
		if (err != NULL && err->file[0] == '\0' && err->column > 0 &&
		    s->options.train != NULL)
			snprintf(err->file, sizeof err->file, "--train");
		return rc;
	}
	if ((rc = winner_file(s, m, r, err)) != SF_OK)
		return rc;
	if (s->json && (r->out.json = sf_discover_report_json(
	                    m, r->data_path, r->search, s->output)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((r->out.text = sf_discover_report_text(m, r->data_path, r->search,
	                                           s->output)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

int
sf_run_discover(const sf_model_set *set, const sf_run_discover_settings *s,
                sf_run_discover_result **out, sf_error *err)
{
	sf_run_discover_result *r = calloc(1, sizeof *r);
	rows w = {0};
	int rc;

	*out = NULL;
	if (r == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	r->model = set->models[0];
	if ((rc = data_path_of(r->model, s, r, err)) != SF_OK ||
	    (rc = rows_open(set, s, r->data_path, &w, err)) != SF_OK)
		goto done;
	if (sf_run_data_grouped(r->model, &s->data)) {
		if (s->output != NULL || s->shapes)
			rc = sf_run_request(err,
			                    "%s reports each group's board: it "
			                    "takes neither -o nor --shapes",
			                    s->data.by != NULL ? "--by"
			                                       : "data.by");
		else
			rc = discover_fleet(set, s, &w, r, err);
	} else if (s->shapes) {
		rc = list_shapes(set, s, &w, r, err);
	} else {
		rc = discover_one(set, s, &w, r, err);
	}
done:
	rows_close(&w);
	if (rc != SF_OK) {
		sf_run_discover_result_free(r);
		return rc;
	}
	*out = r;
	return SF_OK;
}
