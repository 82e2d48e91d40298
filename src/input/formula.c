/*
 * formula.c - compiling a formula, with errors placed in its file.
 *
 * One builder, sf_formula_build(), turns the names and texts a file gives
 * into a scope and three programs; the file's reader says, through the
 * source's place(), where each thing is written.  sf_formula_compile() is
 * that reader for a model file.
 */
#include "input/formula.h"
#include "base/text.h"

#include <stdio.h>
#include <stdlib.h>

/* The builder's state: the source, and what the scope is adding, for
 * warnings the engine raises without a position (a name shadowing pi or
 * e). */
typedef struct builder {
	const sf_formula_source *src;
	sf_formula_part part;
	size_t index;
	sf_warn_fn warn;
	void *warn_ctx;
} builder;

static void
place(const builder *b, sf_formula_part part, size_t index, sf_error *e)
{
	if (b->src->place != NULL && e->code != SF_ENOMEM)
		b->src->place(b->src->place_ctx, part, index, e);
}

static void
scope_warning(void *ctx, const sf_error *w)
{
	const builder *b = ctx;
	sf_error placed = *w;

	place(b, b->part, b->index, &placed);
	b->warn(b->warn_ctx, &placed);
}

static void
warn_about(const builder *b, sf_formula_part part, size_t index,
           const char *message)
{
	sf_error w;

	if (b->warn == NULL)
		return;
	sf_error_clear(&w);
	sf_error_set(&w, SF_OK, "%s", message);
	place(b, part, index, &w);
	b->warn(b->warn_ctx, &w);
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
	free(f->time);
	free(f->fitted);
	free(f->lower);
	free(f->upper);
	free(f);
}

/* Add name index of kind part to the scope; place a failure. */
static int
add_name(sf_formula *f, builder *b, sf_formula_part part, size_t index,
         sf_error *e)
{
	const sf_formula_source *src = b->src;
	int rc;

	b->part = part;
	b->index = index;
	if (part == SF_FORMULA_INPUT && src->inputs[index].levels != NULL)
		rc = sf_expr_scope_add_text_input(
		    f->scope, src->inputs[index].name,
		    src->inputs[index].levels, src->inputs[index].nlevels, e);
	else if (part == SF_FORMULA_INPUT)
		rc = sf_expr_scope_add_input(f->scope, src->inputs[index].name,
		                             e);
	else if (part == SF_FORMULA_PARAM && src->params[index].fixed)
		rc = sf_expr_scope_add_fixed(f->scope, src->params[index].name,
		                             src->params[index].value, e);
	else if (part == SF_FORMULA_PARAM)
		rc = sf_expr_scope_add_param(f->scope, src->params[index].name,
		                             e);
	else if (part == SF_FORMULA_TERM_NAME)
		rc = sf_expr_scope_declare_term(f->scope,
		                                src->terms[index].name, e);
	else
		rc = sf_expr_scope_add_term(f->scope, src->terms[index].name,
		                            src->terms[index].text, e);
	if (rc != SF_OK)
		place(b, part, index, e);
	return rc;
}

/* Add the source's names to the scope: inputs, fitted parameters (so
 * that theta_j is scope parameter j), fixed ones, then the terms in order
 * (each may use only earlier ones). */
static int
build_scope(sf_formula *f, builder *b, sf_error *e)
{
	const sf_formula_source *src = b->src;
	int rc = SF_OK;

	for (size_t i = 0; i < src->ninputs && rc == SF_OK; i++)
		rc = add_name(f, b, SF_FORMULA_INPUT, i, e);
	for (size_t i = 0; i < src->nparams && rc == SF_OK; i++) {
		if (src->params[i].fixed)
			continue;
		f->fitted[f->nparams] = i;
		f->lower[f->nparams] = src->params[i].min;
		f->upper[f->nparams] = src->params[i].max;
		f->nparams++;
		rc = add_name(f, b, SF_FORMULA_PARAM, i, e);
	}
	for (size_t i = 0; i < src->nparams && rc == SF_OK; i++)
		if (src->params[i].fixed)
			rc = add_name(f, b, SF_FORMULA_PARAM, i, e);
	for (size_t k = 0; k < src->nterms && rc == SF_OK; k++)
		rc = add_name(f, b, SF_FORMULA_TERM_NAME, k, e);
	for (size_t k = 0; k < src->nterms && rc == SF_OK; k++)
		rc = add_name(f, b, SF_FORMULA_TERM, k, e);
	return rc;
}

/* Compile texts[0..n) and place a failure in the source. */
static sf_program *
compile(const sf_formula *f, const builder *b, const char *const *texts,
        size_t n, unsigned flags, sf_error *e)
{
	int failed = -1;
	sf_program *p =
	    sf_program_compile(f->scope, texts, n, flags, &failed, e);

	if (p == NULL && failed == 0)
		place(b, SF_FORMULA_TIME, 0, e);
	else if (p == NULL && failed > 0)
		place(b, SF_FORMULA_TERM, (size_t)failed - 1, e);
	return p;
}

int
sf_formula_build(const sf_formula_source *src, sf_formula **out,
                 sf_warn_fn warn, void *warn_ctx, sf_error *err)
{
	builder b = {src, SF_FORMULA_INPUT, 0, warn, warn_ctx};
	const char **texts = NULL;
	sf_formula *f;
	sf_error e;
	int rc = SF_ENOMEM;

	*out = NULL;
	sf_error_clear(&e);
	f = calloc(1, sizeof *f);
	if (f == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	f->nterms = src->nterms;
	f->scope = sf_expr_scope_new();
	f->fitted = calloc(src->nparams + 1, sizeof *f->fitted);
	f->lower = calloc(src->nparams + 1, sizeof *f->lower);
	f->upper = calloc(src->nparams + 1, sizeof *f->upper);
	texts = calloc(src->nterms + 1, sizeof *texts);
	if (f->scope == NULL || f->fitted == NULL || f->lower == NULL ||
	    f->upper == NULL || texts == NULL) {
		sf_error_set(&e, SF_ENOMEM, "out of memory");
		goto done;
	}
	if (warn != NULL)
		sf_expr_scope_set_warning_handler(f->scope, scope_warning, &b);
	if ((rc = build_scope(f, &b, &e)) != SF_OK)
		goto done;
	if ((f->time = sf_text_dup(src->time != NULL ? src->time : "")) ==
	    NULL) {
		rc = sf_error_set(&e, SF_ENOMEM, "out of memory");
		goto done;
	}
	texts[0] = src->time;
	for (size_t k = 0; k < src->nterms; k++)
		texts[k + 1] = src->terms[k].name;
	if ((f->value = compile(f, &b, texts, 1, 0, &e)) == NULL ||
	    (f->gradient = compile(f, &b, texts, 1, SF_EXPR_DERIVATIVES, &e)) ==
	        NULL ||
	    (f->terms = compile(f, &b, texts, src->nterms + 1, 0, &e)) ==
	        NULL) {
		rc = e.code != SF_OK ? e.code : SF_EFAIL;
		goto done;
	}
	for (size_t j = 0; j < f->nparams; j++) {
		char message[SF_ERROR_MESSAGE_MAX];

		if (sf_program_uses_param(f->value, j))
			continue;
		snprintf(message, sizeof message,
		         "parameter '%s' is not used by the formula, so the "
		         "data cannot determine it",
		         src->params[f->fitted[j]].name);
		warn_about(&b, SF_FORMULA_PARAM, f->fitted[j], message);
	}
	for (size_t i = 0; i < src->ninputs; i++) {
		char message[SF_ERROR_MESSAGE_MAX];

		if (sf_program_uses_input(f->value, i))
			continue;
		snprintf(message, sizeof message,
		         "input '%s' is not used by the formula",
		         src->inputs[i].name);
		warn_about(&b, SF_FORMULA_INPUT, i, message);
	}
	rc = SF_OK;
done:
	/* The scope's handler points at this frame: detach it. */
	if (f->scope != NULL)
		sf_expr_scope_set_warning_handler(f->scope, NULL, NULL);
	free(texts);
	if (rc != SF_OK) {
		if (err != NULL)
			*err = e;
		sf_formula_free(f);
		return rc;
	}
	*out = f;
	return SF_OK;
}

/* ---- a model file ------------------------------------------------------ */

/* Where a name was written in the model file. */
static void
model_place_at(const sf_model *m, int line, int column, sf_error *e)
{
	snprintf(e->file, sizeof e->file, "%s", m->path);
	e->line = line;
	e->column = column;
	e->source[0] = '\0';
	e->source_column = 0;
	sf_error_quote(e, m->source, m->source_length);
}

static void
model_place(void *ctx, sf_formula_part part, size_t index, sf_error *e)
{
	const sf_model *m = ctx;

	switch (part) {
	case SF_FORMULA_INPUT:
		/* An input given on the command line (--input NAME=EXPR) is
		 * spoken of there, not at the file's line it replaced. */
		if (m->inputs[index].expr.origin != NULL) {
			snprintf(e->file, sizeof e->file, "%s",
			         m->inputs[index].expr.origin);
			e->line = e->column = 0;
			e->source[0] = '\0';
			e->source_column = 0;
		} else
			model_place_at(m, m->inputs[index].line,
			               m->inputs[index].column, e);
		break;
	case SF_FORMULA_PARAM:
		model_place_at(m, m->params[index].line,
		               m->params[index].column, e);
		break;
	case SF_FORMULA_TERM_NAME:
		model_place_at(m, m->terms[index].line, m->terms[index].column,
		               e);
		break;
	case SF_FORMULA_TERM:
		sf_model_locate(m, &m->terms[index].expr, e);
		break;
	case SF_FORMULA_TIME:
		sf_model_locate(m, &m->time, e);
		break;
	}
}

/* SF_OK when no derived input of m (a term, derived) uses a fitted
 * parameter of formula f, directly or through another term; else
 * SF_ENAME at its expression. */
static int
derived_inputs_only(const sf_model *m, const sf_formula *f, sf_error *err)
{
	for (size_t k = 0; k < m->nterms; k++) {
		if (!m->terms[k].derived ||
		    !sf_expr_scope_term_uses_params(f->scope, k))
			continue;
		sf_error_set(err, SF_ENAME,
		             "derived input '%s' uses a fitted parameter: a "
		             "derived input is an expression of the other "
		             "inputs (make it a term under terms:)",
		             m->terms[k].name);
		if (err != NULL)
			sf_model_locate(m, &m->terms[k].expr, err);
		return SF_ENAME;
	}
	return SF_OK;
}

int
sf_formula_compile(const sf_model *m, const sf_dataset *d, sf_formula **out,
                   sf_warn_fn warn, void *warn_ctx, sf_error *err)
{
	sf_formula_source src = {.time = m->time.text,
	                         .ninputs = d->ninputs,
	                         .nparams = m->nparams,
	                         .nterms = m->nterms,
	                         .place = model_place,
	                         .place_ctx = (void *)m};
	sf_formula_input *inputs = calloc(d->ninputs + 1, sizeof *inputs);
	sf_formula_param *params = calloc(m->nparams + 1, sizeof *params);
	sf_formula_term *terms = calloc(m->nterms + 1, sizeof *terms);
	int rc;

	*out = NULL;
	if (inputs == NULL || params == NULL || terms == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < d->ninputs; i++) {
		inputs[i].name = d->inputs[i].name;
		inputs[i].levels = (const char *const *)d->inputs[i].levels;
		inputs[i].nlevels = d->inputs[i].nlevels;
	}
	for (size_t i = 0; i < m->nparams; i++) {
		params[i].name = m->params[i].name;
		params[i].fixed = m->params[i].fixed;
		params[i].value = m->params[i].value;
		params[i].min = m->params[i].min;
		params[i].max = m->params[i].max;
	}
	for (size_t k = 0; k < m->nterms; k++) {
		terms[k].name = m->terms[k].name;
		terms[k].text = m->terms[k].expr.text;
	}
	src.inputs = inputs;
	src.params = params;
	src.terms = terms;
	rc = sf_formula_build(&src, out, warn, warn_ctx, err);
	if (rc == SF_OK && (rc = derived_inputs_only(m, *out, err)) != SF_OK) {
		sf_formula_free(*out);
		*out = NULL;
	}
done:
	free(inputs);
	free(params);
	free(terms);
	return rc;
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
