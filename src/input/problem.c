/*
 * problem.c - model file -> table -> dataset -> formula.
 */
#include "input/problem.h"

#include <string.h>

void
sf_problem_close(sf_problem *p)
{
	sf_formula_free(p->formula);
	sf_dataset_free(p->data);
	sf_table_free(p->table);
	memset(p, 0, sizeof *p);
}

int
sf_problem_open_table(const sf_model *m, const sf_table *t, sf_loss loss,
                      sf_warn_fn warn, void *warn_ctx, sf_problem *p,
                      sf_error *err)
{
	int rc;

	memset(p, 0, sizeof *p);
	p->model = m;
	if ((rc = sf_dataset_bind(m, t, sf_loss_needs_positive(loss), &p->data,
	                          warn, warn_ctx, err)) != SF_OK ||
	    (rc = sf_formula_compile(m, p->data, &p->formula, warn, warn_ctx,
	                             err)) != SF_OK) {
		sf_problem_close(p);
		return rc;
	}
	return SF_OK;
}

int
sf_problem_open(const sf_model *m, const char *data_path, sf_loss loss,
                sf_warn_fn warn, void *warn_ctx, sf_problem *p, sf_error *err)
{
	int rc;

	memset(p, 0, sizeof *p);
	p->model = m;
	if (data_path == NULL)
		data_path = m->data_file;
	if (data_path == NULL)
		return sf_error_at(err, SF_EUSAGE, m->path, 0, 0,
		                   "no data: give DATA.csv on the command line "
		                   "or data.file in the model");
	if ((rc = sf_table_load(data_path, NULL, &p->table, err)) != SF_OK ||
	    (rc = sf_dataset_bind(m, p->table, sf_loss_needs_positive(loss),
	                          &p->data, warn, warn_ctx, err)) != SF_OK ||
	    (rc = sf_formula_compile(m, p->data, &p->formula, warn, warn_ctx,
	                             err)) != SF_OK) {
		sf_problem_close(p);
		return rc;
	}
	return SF_OK;
}

/* The caller's warnings, each prefixed with the model's name. */
typedef struct named_warn {
	sf_warn_fn warn;
	void *ctx;
	const char *name;
} named_warn;

static void
warn_named(void *ctx, const sf_error *warning)
{
	const named_warn *nw = ctx;
	sf_error w = *warning;

	sf_error_prefix(&w, "model '%s': ", nw->name);
	nw->warn(nw->ctx, &w);
}

int
sf_problem_open_rows(const sf_model *m, const char *data_path,
                     const sf_table *t, sf_loss loss, int named,
                     sf_warn_fn warn, void *warn_ctx, sf_problem *p,
                     sf_error *err)
{
	named_warn nw = {warn, warn_ctx, m->name};

	if (named && warn != NULL) {
		warn = warn_named;
		warn_ctx = &nw;
	}
	if (t != NULL)
		return sf_problem_open_table(m, t, loss, warn, warn_ctx, p,
		                             err);
	return sf_problem_open(m, data_path, loss, warn, warn_ctx, p, err);
}

int
sf_problem_open_written(const char *who, const char *path, const char *text,
                        const sf_table *t, sf_model_set **set, sf_problem *p,
                        sf_error *err)
{
	sf_error e;
	int rc;

	sf_error_clear(&e);
	memset(p, 0, sizeof *p);
	rc = sf_model_parse(path, text, strlen(text), set, NULL, NULL, &e);
	if (rc == SF_OK &&
	    (rc = sf_problem_open_table((*set)->models[0], t,
	                                (*set)->models[0]->fit.loss, NULL, NULL,
	                                p, &e)) != SF_OK) {
		sf_model_set_free(*set);
		*set = NULL;
	}
	if (rc == SF_ENOMEM)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (rc != SF_OK)
		return sf_error_set(err, SF_EINTERNAL,
		                    "the model %s wrote does not check against "
		                    "%s (a bug): line %d: %s",
		                    who, sf_table_file(t), e.line, e.message);
	return SF_OK;
}
