/*
 * fuzz_model.c - fuzz target for the YAML model loader (sf_model_parse).
 *
 * With libFuzzer (tests/fuzz/libfuzzer.sh does this):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *       -Isrc src/error.c src/suggest.c src/number.c src/expr_*.c \
 *       src/model.c tests/fuzz/fuzz_model.c -lyaml -lm -o fuzz_model
 *   ./fuzz_model -dict=tests/fuzz/yaml.dict tests/fuzz/corpus_model
 * Without it (any C compiler, for CI smoke runs), tests/fuzz/standalone.c
 * gives it a main() that runs the target once on every file named on the
 * command line or found in the directories named there; make check
 * builds it and tests/fuzz/smoke.sh runs it:
 *   tests/fuzz/fuzz_model tests/fuzz/corpus_model
 *
 * The whole input is the model file's text, so every seed is a plain YAML
 * file.  Beyond "no crash, no hang, no leak", the target checks what
 * callers (main.c, problem.c, the reports) rely on:
 * - a failure leaves *out NULL, the status in err.code, a message, the
 *   file name, and a position inside the text (line 0 and column 0 for a
 *   whole-file error), with (a window of) that line quoted;
 * - a success gives at least one model, models with distinct names, each
 *   with a copy of the text, a non-empty time formula, at least one fitted
 *   parameter, bounds min < max (finite), an init within them, finite
 *   fixed values, valid names that mean one thing, settings in range, and
 *   formulas whose recorded offset, line and column agree and point at the
 *   scalar in the text;
 * - sf_model_locate() maps a column inside a formula to a position inside
 *   the file, the formula's own position for column 1;
 * - warnings carry SF_OK, a message and a position inside the text.
 * A broken invariant aborts, which the fuzzer reports.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "expr/expr.h"
#include "input/model.h"

/* The model's path: a directory, so data.file is resolved against it. */
#define FUZZ_PATH "models/fuzz.yaml"
#define FUZZ_DIR "models/"

/* The text being loaded, as the checks see it. */
typedef struct fuzz_text {
	const char *text;
	size_t length;
} fuzz_text;

/* The length of 1-based line `line` of t (without its '\n'), or -1 when
 * t has fewer lines.  Lines end at '\n' only, as sf_error_quote counts. */
static long
line_length(const fuzz_text *t, int line)
{
	size_t start = 0, end;

	for (int l = 1; l < line; l++) {
		const char *nl =
		    memchr(t->text + start, '\n', t->length - start);

		if (nl == NULL)
			return -1;
		start = (size_t)(nl - t->text) + 1;
	}
	end = start;
	while (end < t->length && t->text[end] != '\n')
		end++;
	return (long)(end - start);
}

/* line and column (1-based, bytes) of a byte offset of t. */
static void
offset_position(const fuzz_text *t, size_t offset, int *line, int *column)
{
	size_t start = 0;

	*line = 1;
	for (size_t i = 0; i < offset && i < t->length; i++)
		if (t->text[i] == '\n')
			(*line)++, start = i + 1;
	*column = (int)(offset - start) + 1;
}

/* A position of an error or warning: whole file, whole line, or a byte of
 * a line (one past its end at most), with a caret inside the quote. */
static void
check_error_position(const fuzz_text *t, const sf_error *e)
{
	long width;

	FUZZ_CHECK(e->line >= 0 && e->column >= 0);
	if (e->line == 0) {
		FUZZ_CHECK(e->column == 0);
		return;
	}
	width = line_length(t, e->line);
	FUZZ_CHECK(width >= 0);
	FUZZ_CHECK(e->column <= width + 1);
	/* The quote is (a window of) that line, so it is no longer, and the
	 * caret moves left with the window. */
	FUZZ_CHECK(memchr(e->source, '\0', sizeof e->source) != NULL);
	FUZZ_CHECK((long)strlen(e->source) <= width);
	FUZZ_CHECK(e->source_column >= 0 && e->source_column <= e->column);
}

static void
fuzz_warn(void *ctx, const sf_error *w)
{
	char msg[2048];

	FUZZ_CHECK(w->code == SF_OK);
	FUZZ_CHECK(w->message[0] != '\0');
	FUZZ_CHECK(strcmp(w->file, FUZZ_PATH) == 0);
	FUZZ_CHECK(w->line >= 1);
	check_error_position(ctx, w);
	sf_error_format(w, "warning", msg, sizeof msg);
}

/* A formula's recorded position: offset, line and column agree, and the
 * offset is where the scalar starts (its first byte, a quote, a block
 * indicator, or the anchor or tag written before it). */
static void
check_text_at(const fuzz_text *t, const sf_model *m, const sf_model_text *at)
{
	static const char openers[] = "\"'|>&!";
	size_t len;
	int line, column;
	char c;

	if (at->text == NULL)
		return;
	len = strlen(at->text);
	FUZZ_CHECK(at->offset < t->length);
	offset_position(t, at->offset, &line, &column);
	FUZZ_CHECK(at->line == line && at->column == column);
	c = t->text[at->offset];
	FUZZ_CHECK((len > 0 && c == at->text[0]) || strchr(openers, c) != NULL);

	/* sf_model_locate: column 1 is the scalar's own position; any
	 * column lands inside the file. */
	{
		const int columns[] = {0,           1,
		                       2,           (int)(len / 2) + 1,
		                       (int)len,    (int)len + 1,
		                       (int)len + 7};

		for (size_t i = 0; i < sizeof columns / sizeof columns[0];
		     i++) {
			sf_error e;
			long width;

			sf_error_clear(&e);
			e.code = SF_ESYNTAX;
			e.line = 1;
			e.column = columns[i];
			sf_model_locate(m, at, &e);
			FUZZ_CHECK(strcmp(e.file, FUZZ_PATH) == 0);
			if (columns[i] <= 1)
				FUZZ_CHECK(e.line == at->line &&
				           e.column == at->column);
			FUZZ_CHECK(e.line >= 1 && e.column >= 1);
			width = line_length(t, e.line);
			FUZZ_CHECK(width >= 0 && e.column <= width + 1);
			/* A plain one-line scalar is its own text. */
			if (columns[i] >= 1 && (size_t)columns[i] <= len &&
			    at->offset + len <= t->length &&
			    memcmp(t->text + at->offset, at->text, len) == 0 &&
			    memchr(at->text, '\n', len) == NULL)
				FUZZ_CHECK(e.line == at->line &&
				           e.column ==
				               at->column + columns[i] - 1);
		}
	}
}

/* A formula the loader accepted: present, not blank, positioned. */
static void
check_formula(const fuzz_text *t, const sf_model *m, const sf_model_text *at)
{
	const char *s = at->text;

	FUZZ_CHECK(s != NULL);
	s += strspn(s, " \t\r\n\f\v");
	FUZZ_CHECK(*s != '\0');
	check_text_at(t, m, at);
}

/* A name's position: inside the text. */
static void
check_name_at(const fuzz_text *t, const char *name, int line, int column)
{
	long width;

	FUZZ_CHECK(sf_expr_is_name(name));
	FUZZ_CHECK(line >= 1 && column >= 1);
	width = line_length(t, line);
	FUZZ_CHECK(width >= 0 && column <= width + 1);
}

/* The k-th name of m: inputs, then parameters, then terms. */
static const char *
model_name(const sf_model *m, size_t k)
{
	if (k < m->ninputs)
		return m->inputs[k].name;
	k -= m->ninputs;
	if (k < m->nparams)
		return m->params[k].name;
	return m->terms[k - m->nparams].name;
}

/* Inputs, parameters and terms: distinct names, one meaning each. */
static void
check_names(const sf_model *m)
{
	size_t n = m->ninputs + m->nparams + m->nterms;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(model_name(m, i), model_name(m, j)) !=
			           0);
}

static void
check_settings(const sf_fit_settings *s)
{
	FUZZ_CHECK(sf_loss_get(s->loss) != NULL);
	FUZZ_CHECK(s->penalty >= SF_PENALTY_NONE &&
	           s->penalty <= SF_PENALTY_L1);
	FUZZ_CHECK(sf_penalty_name(s->penalty) != NULL);
	FUZZ_CHECK(sf_de_method_get(s->algorithm) != NULL);
	FUZZ_CHECK(s->scale >= SF_SCALE_AUTO && s->scale <= SF_SCALE_LOG);
	FUZZ_CHECK(sf_search_scale_name(s->scale) != NULL);
	FUZZ_CHECK(s->init == SF_INIT_LATIN || s->init == SF_INIT_UNIFORM);
	FUZZ_CHECK(s->weighting >= SF_WEIGHTS_NONE &&
	           s->weighting <= SF_WEIGHTS_INVERSE_VARIANCE);
	FUZZ_CHECK(isfinite(s->huber_delta) && s->huber_delta > 0);
	FUZZ_CHECK(isfinite(s->lambda) && s->lambda >= 0);
	FUZZ_CHECK(memchr(s->strategy, '\0', sizeof s->strategy) != NULL);
	FUZZ_CHECK(s->population == 0 || s->population >= 4);
	FUZZ_CHECK(s->population == 0 || s->popsize == 0);
	FUZZ_CHECK(s->popsize == 0 || (s->popsize >= 1 && s->popsize <= 1e6));
	FUZZ_CHECK(isfinite(s->tol) && isfinite(s->atol));
	FUZZ_CHECK(s->mutation_lo == 0 ||
	           (s->mutation_lo > 0 && s->mutation_lo <= s->mutation_hi &&
	            s->mutation_hi <= 2));
	FUZZ_CHECK(s->mutation_lo < 2);
	FUZZ_CHECK(s->recombination < 0 ||
	           (s->recombination >= 0 && s->recombination <= 1));
	FUZZ_CHECK(isfinite(s->time_limit) && s->time_limit >= 0);
	FUZZ_CHECK(s->polish == 0 || s->polish == 1);
	FUZZ_CHECK(s->separable == 0 || s->separable == 1);
	FUZZ_CHECK(s->has_seed == 0 || s->has_seed == 1);
}

static void
check_model(const fuzz_text *t, const sf_model *m)
{
	size_t fitted = 0;

	FUZZ_CHECK(m->name != NULL && m->description != NULL);
	FUZZ_CHECK(strcmp(m->path, FUZZ_PATH) == 0);
	FUZZ_CHECK(m->source_length == t->length);
	FUZZ_CHECK(memcmp(m->source, t->text, t->length) == 0);
	FUZZ_CHECK(m->source[m->source_length] == '\0');

	if (m->data_file_at.text != NULL) {
		const char *f = m->data_file_at.text;

		check_formula(t, m, &m->data_file_at);
		FUZZ_CHECK(m->data_file != NULL);
		if (f[0] == '/')
			FUZZ_CHECK(strcmp(m->data_file, f) == 0);
		else
			FUZZ_CHECK(
			    strncmp(m->data_file, FUZZ_DIR, strlen(FUZZ_DIR)) ==
			        0 &&
			    strcmp(m->data_file + strlen(FUZZ_DIR), f) == 0);
	} else {
		FUZZ_CHECK(m->data_file == NULL);
	}
	if (m->where.text != NULL)
		check_formula(t, m, &m->where);
	if (m->output.text != NULL)
		check_formula(t, m, &m->output);
	if (m->weight.text != NULL) {
		check_formula(t, m, &m->weight);
		FUZZ_CHECK(m->fit.weighting == SF_WEIGHTS_COLUMN);
	}
	check_formula(t, m, &m->time);

	FUZZ_CHECK(m->ninputs == 0 || m->inputs != NULL);
	for (size_t i = 0; i < m->ninputs; i++) {
		const sf_model_input *in = &m->inputs[i];

		check_name_at(t, in->name, in->line, in->column);
		check_formula(t, m, &in->expr);
	}
	FUZZ_CHECK(m->nparams > 0 && m->params != NULL);
	for (size_t i = 0; i < m->nparams; i++) {
		const sf_model_param *p = &m->params[i];

		check_name_at(t, p->name, p->line, p->column);
		FUZZ_CHECK(p->fixed == 0 || p->fixed == 1);
		if (p->fixed) {
			FUZZ_CHECK(isfinite(p->value));
			FUZZ_CHECK(!p->has_init);
			continue;
		}
		fitted++;
		FUZZ_CHECK(isfinite(p->min) && isfinite(p->max));
		FUZZ_CHECK(p->min < p->max);
		FUZZ_CHECK(p->has_init == 0 || p->has_init == 1);
		if (p->has_init)
			FUZZ_CHECK(p->init >= p->min && p->init <= p->max);
	}
	FUZZ_CHECK(fitted > 0 && fitted == sf_model_fitted_count(m));
	FUZZ_CHECK(m->nterms == 0 || m->terms != NULL);
	for (size_t i = 0; i < m->nterms; i++) {
		const sf_model_term *term = &m->terms[i];

		check_name_at(t, term->name, term->line, term->column);
		check_formula(t, m, &term->expr);
		FUZZ_CHECK(term->kind >= SF_TERM_OTHER &&
		           term->kind <= SF_TERM_OVERHEAD);
		FUZZ_CHECK(sf_term_kind_name(term->kind) != NULL);
	}
	check_names(m);
	check_settings(&m->fit);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes, so ASan sees any read past it. */
	char *text = malloc(size > 0 ? size : 1);
	fuzz_text t;
	sf_model_set *set = (sf_model_set *)&t; /* must come back NULL */
	sf_error err;
	int status;

	if (text == NULL)
		return 0;
	if (size > 0)
		memcpy(text, data, size);
	t.text = text;
	t.length = size;
	sf_error_clear(&err);
	status =
	    sf_model_parse(FUZZ_PATH, text, size, &set, fuzz_warn, &t, &err);
	if (status != SF_OK) {
		char msg[2048];

		FUZZ_CHECK(set == NULL);
		FUZZ_CHECK(err.code == status);
		FUZZ_CHECK(status != SF_EINTERNAL);
		FUZZ_CHECK(err.message[0] != '\0');
		FUZZ_CHECK(strcmp(err.file, FUZZ_PATH) == 0);
		check_error_position(&t, &err);
		sf_error_format(&err, "error", msg, sizeof msg);
		free(text);
		return 0;
	}
	FUZZ_CHECK(set != NULL && set->count >= 1 && set->models != NULL);
	for (size_t i = 0; i < set->count; i++) {
		check_model(&t, set->models[i]);
		for (size_t j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(set->models[i]->name,
			                  set->models[j]->name) != 0);
	}
	sf_model_set_free(set);
	free(text);
	return 0;
}
