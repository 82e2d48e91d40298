/*
 * formula.c - compiling a model's formula, with errors placed in its file.
 */
#include "input/formula.h"

#include <stdio.h>
#include <stdlib.h>

/* Where the name being added to the scope was written, for warnings the
 * engine raises without a position (a name shadowing pi or e). */
typedef struct warn_context {
	const sf_model *m;
	int line, column;
	sf_warn_fn warn;
	void *ctx;
} warn_context;

static void
place_warning(void *ctx, const sf_error *w)
{
	warn_context *wc = ctx;
	sf_error placed = *w;

	snprintf(placed.file, sizeof placed.file, "%s", wc->m->path);
	placed.line = wc->line;
	placed.column = wc->column;
	placed.source[0] = '\0';
	sf_error_quote(&placed, wc->m->source, wc->m->source_length);
	wc->warn(wc->ctx, &placed);
}

static void
warn_at(const sf_model *m, int line, int column, sf_warn_fn warn, void *ctx,
        const char *message)
{
	sf_error w;

	if (warn == NULL)
		return;
	sf_error_at(&w, SF_OK, m->path, line, column, "%s", message);
	sf_error_quote(&w, m->source, m->source_length);
	warn(ctx, &w);
}

void
sf_formula_free(sf_formula *f)
{
	if (f == NULL)
		return;
	sf_program_free(f->value);
	sf_program_free(f->gradient);
	sf_program_free(f->terms);
	sf_expr_scope_free(f->scope);
	free(f->fitted);
	free(f->lower);
	free(f->upper);
	free(f);
}

/* Add the model's names to the scope: inputs, parameters, fixed values,
 * then the terms in order (each may use only earlier ones). */
static int
build_scope(sf_formula *f, const sf_model *m, const sf_dataset *d,
            warn_context *wc, sf_error *err)
{
	sf_expr_scope *s = f->scope;
	int rc = SF_OK;

	for (size_t i = 0; i < d->ninputs && rc == SF_OK; i++) {
		const sf_dataset_input *in = &d->inputs[i];

		wc->line = m->inputs[i].line;
		wc->column = m->inputs[i].column;
		if (in->levels != NULL)
			rc = sf_expr_scope_add_text_input(
			    s, in->name, (const char *const *)in->levels,
			    in->nlevels, err);
		else
			rc = sf_expr_scope_add_input(s, in->name, err);
	}
	for (size_t i = 0; i < m->nparams && rc == SF_OK; i++) {
		const sf_model_param *p = &m->params[i];

		wc->line = p->line;
		wc->column = p->column;
		if (p->fixed)
			continue;
		f->fitted[f->nparams] = i;
		f->lower[f->nparams] = p->min;
		f->upper[f->nparams] = p->max;
		f->nparams++;
		rc = sf_expr_scope_add_param(s, p->name, err);
	}
	for (size_t i = 0; i < m->nparams && rc == SF_OK; i++) {
		const sf_model_param *p = &m->params[i];

		wc->line = p->line;
		wc->column = p->column;
		if (p->fixed)
			rc = sf_expr_scope_add_fixed(s, p->name, p->value, err);
	}
	for (size_t i = 0; i < m->nterms && rc == SF_OK; i++)
		rc = sf_expr_scope_declare_term(s, m->terms[i].name, err);
	for (size_t i = 0; i < m->nterms && rc == SF_OK; i++) {
		rc = sf_expr_scope_add_term(s, m->terms[i].name,
		                            m->terms[i].expr.text, err);
		if (rc != SF_OK && rc != SF_ENOMEM)
			sf_model_locate(m, &m->terms[i].expr, err);
	}
	return rc;
}

/* Compile texts[0..n) and place a failure in the model file. */
static sf_program *
compile(const sf_formula *f, const sf_model *m, const char *const *texts,
        size_t n, unsigned flags, sf_error *err)
{
	int failed = -1;
	sf_program *p =
	    sf_program_compile(f->scope, texts, n, flags, &failed, err);

	if (p == NULL && failed == 0)
		sf_model_locate(m, &m->time, err);
	else if (p == NULL && failed > 0)
		sf_model_locate(m, &m->terms[failed - 1].expr, err);
	return p;
}

int
sf_formula_compile(const sf_model *m, const sf_dataset *d, sf_formula **out,
                   sf_warn_fn warn, void *warn_ctx, sf_error *err)
{
	warn_context wc = {m, 0, 0, warn, warn_ctx};
	const char **texts = NULL;
	sf_formula *f;
	int rc = SF_ENOMEM;

	*out = NULL;
	f = calloc(1, sizeof *f);
	if (f == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	f->nterms = m->nterms;
	f->scope = sf_expr_scope_new();
	f->fitted = calloc(m->nparams + 1, sizeof *f->fitted);
	f->lower = calloc(m->nparams + 1, sizeof *f->lower);
	f->upper = calloc(m->nparams + 1, sizeof *f->upper);
	texts = calloc(m->nterms + 1, sizeof *texts);
	if (f->scope == NULL || f->fitted == NULL || f->lower == NULL ||
	    f->upper == NULL || texts == NULL) {
		sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if (warn != NULL)
		sf_expr_scope_set_warning_handler(f->scope, place_warning, &wc);
	if ((rc = build_scope(f, m, d, &wc, err)) != SF_OK)
		goto done;
	texts[0] = m->time.text;
	for (size_t k = 0; k < m->nterms; k++)
		texts[k + 1] = m->terms[k].name;
	rc = SF_ENOMEM;
	if ((f->value = compile(f, m, texts, 1, 0, err)) == NULL ||
	    (f->gradient = compile(f, m, texts, 1, SF_EXPR_DERIVATIVES, err)) ==
	        NULL ||
	    (f->terms = compile(f, m, texts, m->nterms + 1, 0, err)) == NULL) {
		rc = err != NULL ? err->code : SF_EFAIL;
		goto done;
	}
	for (size_t j = 0; j < f->nparams; j++) {
		const sf_model_param *p = &m->params[f->fitted[j]];
		char message[SF_ERROR_MESSAGE_MAX];

		if (sf_program_uses_param(f->value, j))
			continue;
		snprintf(message, sizeof message,
		         "parameter '%s' is not used by the formula, so the "
		         "data cannot determine it",
		         p->name);
		warn_at(m, p->line, p->column, warn, warn_ctx, message);
	}
	for (size_t i = 0; i < m->ninputs; i++) {
		char message[SF_ERROR_MESSAGE_MAX];

		if (sf_program_uses_input(f->value, i))
			continue;
		snprintf(message, sizeof message,
		         "input '%s' is not used by the formula",
		         m->inputs[i].name);
		warn_at(m, m->inputs[i].line, m->inputs[i].column, warn,
		        warn_ctx, message);
	}
	rc = SF_OK;
done:
	/* The scope's handler points at this frame: detach it. */
	if (f->scope != NULL)
		sf_expr_scope_set_warning_handler(f->scope, NULL, NULL);
	free(texts);
	if (rc != SF_OK) {
		sf_formula_free(f);
		return rc;
	}
	*out = f;
	return SF_OK;
}

char *
sf_formula_canonical_time(const sf_formula *f, const sf_model *m)
{
	return sf_expr_canonical(f->scope, m->time.text, NULL);
}

char *
sf_formula_canonical_term(const sf_formula *f, const sf_model *m, size_t k)
{
	return sf_expr_term_canonical(f->scope, m->terms[k].name, NULL);
}
