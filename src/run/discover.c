/*
 * discover.c (run/) - the pipeline of `scalefit discover`: the rows, the
 * file's own formulas, the search or every group's, the winner's model
 * file and the reports.
 */
#include "run/discover.h"
#include "base/atomic.h"
#include "base/escape.h"
#include "base/names.h"
#include "base/number.h"
#include "base/text.h"
#include "base/yaml_out.h"
#include "discover/report.h"
#include "expr/expr.h"
#include "input/groups.h"
#include "input/library.h"

#include <ctype.h>
#include <math.h>

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
	for (size_t i = 0; i < r->nfiles; i++) {
		free(r->files[i].path);
		free(r->files[i].text);
		free(r->files[i].label);
	}
	free(r->files);
	sf_run_output_clear(&r->out);
	free(r);
}

/* What a run reads: the rows and the formulas given on them. */
typedef struct rows {
	sf_table *table;
	sf_dataset *data;
	sf_problem *given; /* the models of the file with a formula, then the
	                      library's that take its inputs */
	size_t ngiven;
	sf_model_set **library; /* the library's files read */
	size_t nlibrary;
	sf_model **grafts; /* the library's formulas on the file's rows */
	size_t ngrafts;
} rows;

static void
rows_close(rows *w)
{
	for (size_t i = 0; i < w->ngiven; i++)
		sf_problem_close(&w->given[i]);
	free(w->given);
	for (size_t i = 0; i < w->ngrafts; i++) {
		free(w->grafts[i]->name);
		free(w->grafts[i]);
	}
	free(w->grafts);
	for (size_t i = 0; i < w->nlibrary; i++)
		sf_model_set_free(w->library[i]);
	free(w->library);
	sf_dataset_free(w->data);
	sf_table_free(w->table);
}

/* Library formula f (of a file of count formulas, named name) on m's
 * rows: a new model with f's constants, terms and time and m's data,
 * inputs and fit settings (borrowed: both models outlive it), named
 * "@NAME" or, in a models: file, "@NAME/MODEL".  NULL when out of
 * memory. */
static sf_model *
graft(const sf_model *f, size_t count, const char *name, const sf_model *m)
{
	sf_model *g = malloc(sizeof *g);
	sf_text label = SF_TEXT_INIT;

	if (g == NULL)
		return NULL;
	*g = *f;
	sf_text_printf(&label, "%c%s", SF_LIBRARY_PREFIX, name);
	if (count > 1)
		sf_text_printf(&label, "/%s", f->name);
	if ((g->name = sf_text_take(&label)) == NULL) {
		free(g);
		return NULL;
	}
	g->data_file = m->data_file;
	g->data_file_at = m->data_file_at;
	g->where = m->where;
	g->by = m->by;
	g->output = m->output;
	g->unit = m->unit;
	g->weight = m->weight;
	g->inputs = m->inputs;
	g->ninputs = m->ninputs;
	g->fit = m->fit;
	return g;
}

/* Library file set's formulas that take m's inputs, opened on w's rows
 * with the loss o gives m, onto w->given.  A formula that does not bind
 * or compile there (a constant named as one of m's inputs) is left out.
 * Returns SF_OK or SF_ENOMEM. */
static int
graft_file(const sf_model_set *set, const char *name, const sf_model *m,
           const sf_fit_options *o, rows *w, sf_error *err)
{
	size_t more = w->ngiven + set->count + 1;
	sf_problem *given = realloc(w->given, more * sizeof *given);
	sf_model **grafts;

	if (given != NULL)
		w->given = given;
	grafts =
	    realloc(w->grafts, (w->ngrafts + set->count + 1) * sizeof *grafts);
	if (grafts != NULL)
		w->grafts = grafts;
	if (given == NULL || grafts == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < set->count; i++) {
		const sf_model *f = set->models[i];
		sf_model *g;
		sf_error e;
		int rc;

		if (f->time.text == NULL || !sf_model_inputs_within(f, m))
			continue;
		if ((g = graft(f, set->count, name, m)) == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		w->grafts[w->ngrafts++] = g;
		rc = sf_problem_open_table(g, w->table, sf_fit_loss(m, o), NULL,
		                           NULL, &w->given[w->ngiven], &e);
		if (rc == SF_ENOMEM)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		w->ngiven += rc == SF_OK;
	}
	return SF_OK;
}

/* A warning that what (cause: the error, where it was) leaves the
 * library's formulas, or one of them, off the board. */
static void
warn_library(const sf_run_discover_settings *s, const sf_error *cause,
             const char *what)
{
	sf_error w;

	if (s->warn == NULL)
		return;
	sf_error_clear(&w);
	sf_error_at(&w, SF_OK, cause->file, cause->line, cause->column,
	            "%s, so it is not scored beside the found formulas: %s",
	            what, cause->message);
	s->warn(s->warn_ctx, &w);
}

/* The formulas of the library at dir that take m's inputs (by name: p
 * the workers, b the batch, n the count, as discover reads them), on w's
 * rows after the file's own.  (When m's file is the library's, its copy
 * fits the rows exactly as m's own formula: the board shows it once.)
 * A library that cannot be read, or a file of it that does not load, is
 * warned about and left out.  Returns SF_OK or SF_ENOMEM. */
static int
library_open(const sf_model *m, const char *dir,
             const sf_run_discover_settings *s, rows *w, sf_error *err)
{
	sf_library_entry *e = NULL;
	size_t n = 0;
	sf_error lerr;
	int rc = sf_library_list(dir, s->warn, s->warn_ctx, &e, &n, &lerr);

	if (rc == SF_ENOMEM)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (rc != SF_OK) {
		warn_library(s, &lerr, "the formula library cannot be read");
		return SF_OK;
	}
	if ((w->library = calloc(n + 1, sizeof *w->library)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && rc == SF_OK; i++) {
		sf_model_set *set = NULL;

		rc = sf_model_load(e[i].path, &set, NULL, NULL, &lerr);
		if (rc == SF_OK) {
			w->library[w->nlibrary++] = set;
			rc = graft_file(set, e[i].name, m, &s->options.fit, w,
			                err);
		} else if (rc == SF_ENOMEM) {
			sf_error_set(err, SF_ENOMEM, "out of memory");
		} else {
			warn_library(s, &lerr,
			             "a library formula does not load");
			rc = SF_OK;
		}
	}
	sf_library_entries_free(e, n);
	return rc;
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
	struct stat st;

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
	/* A fleet's output is the directory of its files. */
	if (s->output != NULL && sf_run_data_grouped(m, &s->data) &&
	    !(stat(s->output, &st) == 0 && S_ISDIR(st.st_mode)))
		return sf_run_request(
		    err,
		    "-o %s: with groups, -o names a directory "
		    "of model files, and this is none",
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
	sf_loss loss = sf_fit_loss(m, o);
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
		         g, w->table, sf_fit_loss(g, o), NULL, NULL,
		         &w->given[w->ngiven], err)) != SF_OK)
			return rc;
		w->ngiven++;
	}
	/* the shapes alone score nothing */
	if (s->library != NULL && !s->shapes &&
	    sf_discover_uses_library(&set->discover))
		return library_open(m, s->library, s, w, err);
	return SF_OK;
}

/* ---- the shapes, the winner's model file ------------------------------- */

/* The grammar's shapes, the text that lists them one a line and, when
 * asked, the JSON {"shapes": [...]} (the command line prints the text). */
static int
list_shapes(const sf_model_set *set, const sf_run_discover_settings *s,
            const rows *w, sf_run_discover_result *r, sf_error *err)
{
	sf_text out = SF_TEXT_INIT;
	json_t *list;
	int rc;

	if ((rc = sf_discover_shapes(set->models[0], &set->discover, w->data,
	                             &s->options, &r->shapes, &r->nshapes,
	                             err)) != SF_OK)
		return rc;
	for (size_t i = 0; i < r->nshapes; i++)
		sf_text_printf(&out, "%s\n", r->shapes[i]);
	if ((r->out.text = sf_text_take(&out)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (!s->json)
		return SF_OK;
	if ((list = json_array()) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < r->nshapes; i++)
		if (json_array_append_new(list, json_string(r->shapes[i])) !=
		    0) {
			json_decref(list);
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		}
	if ((r->out.json = json_pack("{s:o}", "shapes", list)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

/* The most bytes of a model's name (a group's label) a file name
 * keeps. */
enum { NAME_KEPT = 100 };

/* name's first NAME_KEPT bytes appended to path, each byte a file name
 * should not hold as '_': all but letters, digits, '_', '-' and a '.'
 * that does not start it (a name is not a path: "sub/dir" gives
 * sub_dir). */
static void
put_safe(sf_text *path, const char *name)
{
	for (size_t i = 0; name[i] != '\0' && i < NAME_KEPT; i++) {
		char c = name[i];
		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		           (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		           (c == '.' && i > 0);
		sf_text_putc(path, keep ? c : '_');
	}
}

/* The path the winner's file is written to: the output, or (without one)
 * beside the model file, named after the model made safe (put_safe):
 * sub_dir-discovered.yaml.  data.file is made relative to it. */
static char *
output_path(const sf_run_discover_settings *s, const sf_model *m)
{
	const char *slash = strrchr(m->path, '/');
	int dir = slash != NULL ? (int)(slash - m->path) + 1 : 0;
	sf_text path = SF_TEXT_INIT;

	if (s->output != NULL)
		return sf_text_dup(s->output);
	sf_text_printf(&path, "%.*s", dir, m->path);
	put_safe(&path, m->name);
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

/* Search d's winner as model m's file at path (its data data_path):
 * written, fitted through the pipeline with options o, then written
 * again with those constants in its comments, into *text. */
static int
winner_text(const sf_discover_options *o, sf_discover_result *d,
            const sf_model *m, const char *path, const char *data_path,
            char **text, sf_error *err)
{
	int rc;

	if ((rc = sf_discover_model_text(d, d->winner, m, path, data_path, text,
	                                 err)) != SF_OK ||
	    (rc = sf_discover_refit(d, d->winner, path, *text, o, NULL, err)) !=
	        SF_OK)
		return rc;
	free(*text);
	*text = NULL;
	if ((rc = sf_discover_model_text(d, d->winner, m, path, data_path, text,
	                                 err)) != SF_OK)
		return rc;
	return loads(path, *text, err);
}

/* The winner's model file, where it goes. */
static int
winner_file(const sf_run_discover_settings *s, const sf_model *m,
            sf_run_discover_result *r, sf_error *err)
{
	if ((r->model_path = output_path(s, m)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return winner_text(&s->options, r->search, m, r->model_path,
	                   r->data_path, &r->model_text, err);
}

/* ---- a fleet's model files -------------------------------------------- */

/* The where: of group gr's rows (groups gs): where (m's, may be NULL) and
 * each by column equal to the group's value, a text's quotes doubled, a
 * number as the shortest text that reads back the same, an empty numeric
 * cell as `x != x` (NaN alone is unequal to itself).  NULL when out of
 * memory. */
static char *
group_where(const sf_groups *gs, const sf_group *gr, const char *where)
{
	sf_text b = SF_TEXT_INIT;

	if (where != NULL)
		sf_text_printf(&b, "(%s)", where);
	for (size_t c = 0; c < gs->ncolumns; c++) {
		const sf_group_value *v = &gr->key[c];
		const char *col = gs->columns[c];
		char num[32];

		sf_text_puts(&b, b.length > 0 ? " && " : "");
		if (v->is_text) {
			sf_text_printf(&b, "%s == '", col);
			for (const char *t = v->text; *t != '\0'; t++) {
				if (*t == '\'')
					sf_text_putc(&b, '\'');
				sf_text_putc(&b, *t);
			}
			sf_text_putc(&b, '\'');
		} else if (isnan(v->number)) {
			sf_text_printf(&b, "%s != %s", col, col);
		} else {
			sf_text_printf(
			    &b, "%s == %s", col,
			    sf_format_double(num, sizeof num, v->number));
		}
	}
	return sf_text_take(&b);
}

/* Each group's file in directory dir, into files[0..count): its label
 * made safe (put_safe), ".yaml"; a name an earlier group's has (compared
 * lower-cased: a file system may not tell case apart) gets "-2", "-3",
 * ... until it is new.  Returns SF_OK or SF_ENOMEM (files then partly
 * filled: the caller frees them). */
static int
group_files(const sf_groups *gs, const char *dir, char **files, sf_error *err)
{
	size_t ndir = strlen(dir);
	char **folded = calloc(gs->count + 1, sizeof *folded);
	sf_names seen;
	int rc = folded != NULL ? SF_OK : SF_ENOMEM;

	sf_names_init(&seen);
	for (size_t i = 0; i < gs->count && rc == SF_OK; i++) {
		sf_text name = SF_TEXT_INIT, path = SF_TEXT_INIT;
		size_t existing = 0;

		put_safe(&name, gs->groups[i].label);
		for (size_t k = 1; rc == SF_OK && existing != SF_NAMES_NONE;
		     k++) {
			sf_text_free(&path);
			sf_text_printf(&path, "%s%s%s", dir,
			               ndir > 0 && dir[ndir - 1] != '/' ? "/"
			                                                : "",
			               name.length > 0 ? name.data : "_");
			if (k > 1)
				sf_text_printf(&path, "-%zu", k);
			sf_text_puts(&path, ".yaml");
			free(folded[i]);
			if ((folded[i] = sf_text_dup(
			         path.data != NULL ? path.data + ndir : "")) ==
			        NULL ||
			    path.failed) {
				rc = SF_ENOMEM;
				break;
			}
			sf_text_lower(folded[i], folded[i],
			              strlen(folded[i]) + 1);
			rc = sf_names_add(&seen, folded[i], i, &existing);
		}
		sf_text_free(&name);
		files[i] = rc == SF_OK ? sf_text_take(&path) : NULL;
		if (rc == SF_OK && files[i] == NULL)
			rc = SF_ENOMEM;
		sf_text_free(&path);
	}
	sf_names_free(&seen);
	for (size_t i = 0; folded != NULL && i < gs->count; i++)
		free(folded[i]);
	free(folded);
	return rc == SF_OK ? SF_OK
	                   : sf_error_set(err, SF_ENOMEM, "out of memory");
}

/*
 * SF_OK when model file text (read as if at path) loads and binds to
 * table t as `scalefit check` binds it, its where: keeping exactly the
 * rows the group gr's split kept (its usable and its skipped ones).
 * Otherwise the writer has a bug: SF_EINTERNAL (SF_ENOMEM as itself).
 */
static int
binds_group(const char *path, const char *text, const sf_table *t,
            const sf_group *gr, sf_error *err)
{
	sf_model_set *set = NULL;
	sf_problem p;
	size_t kept;
	int rc =
	    sf_problem_open_written("discover", path, text, t, &set, &p, err);

	if (rc != SF_OK)
		return rc;
	kept = p.data->table_rows - p.data->filtered_out;
	sf_problem_close(&p);
	sf_model_set_free(set);
	if (kept != gr->nrows + gr->skipped)
		return sf_error_set(
		    err, SF_EINTERNAL,
		    "the model file discover wrote for %s keeps "
		    "%zu rows, its group %zu (a bug)",
		    path, kept, gr->nrows + gr->skipped);
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
	uint64_t seed;         /* the run's */
	const sf_table *table; /* the rows' table */
	char **files;          /* with an output: each group's model file */
} group_ctx;

/* Group index's model file (search d, options o) into *text: m's with a
 * where: that keeps the group's rows, checked against the rows. */
static int
group_file(const group_ctx *g, size_t index, const sf_discover_options *o,
           sf_discover_result *d, char **text, sf_error *err)
{
	const char *path = g->files[index];
	const sf_group *gr = &g->groups->groups[index];
	sf_model gm = *g->m;
	int rc;

	if (sf_file_same(path, g->m->path) || sf_file_same(path, g->data_path))
		return sf_run_request(err,
		                      "-o: %s would overwrite an input; choose "
		                      "another directory",
		                      path);
	gm.where.text = group_where(g->groups, gr, g->m->where.text);
	if (gm.where.text == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	/* YAML would read such a byte back as another character */
	if (sf_yaml_out_invalid_utf8(gm.where.text) >= 0) {
		free(gm.where.text);
		return sf_error_set(err, SF_EVALUE,
		                    "its key holds a byte that is not UTF-8, "
		                    "which a model file cannot name: no model "
		                    "file");
	}
	rc = winner_text(o, d, &gm, path, g->data_path, text, err);
	if (rc == SF_OK)
		rc = binds_group(path, *text, g->table, gr, err);
	free(gm.where.text);
	return rc;
}

/* Group index's reports of search d (and its model file's text under
 * "model_text", which discover_fleet takes out). */
static int
group_reports(const group_ctx *g, size_t index, const sf_discover_options *o,
              sf_discover_result *d, json_t **report, char **text,
              sf_error *err)
{
	const char *path = g->files != NULL ? g->files[index] : NULL;
	char *model = NULL;
	int rc = SF_OK;

	if (path != NULL &&
	    (rc = group_file(g, index, o, d, &model, err)) != SF_OK)
		return rc;
	if ((*report = sf_discover_report_json(g->m, g->data_path, d, path)) ==
	        NULL ||
	    (*text = sf_discover_report_text(g->m, g->data_path, d, path)) ==
	        NULL ||
	    (model != NULL && json_object_set_new(*report, "model_text",
	                                          json_string(model)) != 0))
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	free(model);
	return rc;
}

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
	if (rc == SF_OK && (rc = sf_discover_run(g->m, g->grammar, group, given,
	                                         ngiven, &o, &r, err)) == SF_OK)
		rc = group_reports(g, index, &o, r, report, text, err);
	for (size_t i = 0; i < ngiven; i++)
		sf_dataset_free(given[i].data);
	free(given);
	sf_discover_result_free(r);
	return rc;
}

/* The model files of r's fleet taken out of its groups' JSON into
 * r->files (files: each group's path), and a line for each added to the
 * text: "wrote PATH (group LABEL)". */
static int
take_files(sf_run_discover_result *r, char *const *files, sf_error *err)
{
	json_t *groups = json_object_get(r->fleet->json, "groups");
	sf_text text = SF_TEXT_INIT;
	json_t *group;
	size_t i;

	r->files = calloc(json_array_size(groups) + 1, sizeof *r->files);
	if (r->files == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	sf_text_puts(&text, r->out.text != NULL ? r->out.text : "");
	json_array_foreach(groups, i, group)
	{
		json_t *model = json_object_get(group, "model_text");
		sf_run_discover_file *f = &r->files[r->nfiles];

		if (!json_is_string(model))
			continue;
		r->nfiles++;
		f->path = sf_text_dup(files[i]);
		f->text = sf_text_dup(json_string_value(model));
		f->label = sf_text_dup(
		    json_string_value(json_object_get(group, "label")));
		json_object_del(group, "model_text");
		if (f->path == NULL || f->text == NULL || f->label == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		sf_text_puts(&text, "wrote ");
		sf_text_escaped(&text, f->path);
		sf_text_puts(&text, " (group ");
		sf_text_escaped(&text, f->label);
		sf_text_puts(&text, ")\n");
	}
	free(r->out.text);
	if ((r->out.text = sf_text_take(&text)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

/* With an output, g's files: each group's in the directory, the by
 * columns being names a where: can use. */
static int
fleet_files(const sf_run_discover_settings *s, group_ctx *g, sf_error *err)
{
	if (s->output == NULL)
		return SF_OK;
	for (size_t c = 0; c < g->groups->ncolumns; c++)
		if (!sf_expr_is_name(g->groups->columns[c]))
			return sf_run_request(
			    err,
			    "-o: column '%s' of --by is not a name, so a "
			    "model's where: cannot pick its groups' rows; "
			    "rename the column",
			    g->groups->columns[c]);
	if ((g->files = calloc(g->groups->count + 1, sizeof *g->files)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return group_files(g->groups, s->output, g->files, err);
}

/* Search every group of w's rows (split as s->data or data.by says)
 * alone into r->fleet, each winner's model file into r->files with an
 * output. */
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
	               sf_fit_settings_effective(m, &s->options.fit).seed,
	               w->table,
	               NULL};
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
	rc = fleet_files(s, &g, err);
	for (size_t i = 0; i < w->ngiven && rc == SF_OK; i++)
		rc = sf_groups_split(
		    w->given[i].table != NULL ? w->given[i].table : w->table,
		    w->given[i].data, by, m->path, at, &g.given_groups[i], err);
	if (rc == SF_OK)
		rc = sf_run_fleet(m, &p, &s->data, discover_group, &g, s->warn,
		                  s->warn_ctx, &r->fleet, &r->out, err);
	if (rc == SF_OK && g.files != NULL)
		rc = take_files(r, g.files, err);
done:
	for (size_t i = 0; i < w->ngiven; i++)
		sf_groups_free(g.given_groups[i]);
	free(g.given_groups);
	for (size_t i = 0; g.files != NULL && i < groups->count; i++)
		free(g.files[i]);
	free(g.files);
	sf_groups_free(groups);
	return rc;
}

/* ---- one search -------------------------------------------------------- */

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
		if (s->shapes)
			rc = sf_run_request(err,
			                    "%s reports each group's board: it "
			                    "takes no --shapes",
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
