/*
 * fitgroups.c - the fits of a plain fit file or of a groups file.
 */
#include "use/fitgroups.h"
#include "base/number.h"
#include "base/suggest.h"
#include "use/jsonpath.h"
#include "fit/ensemble.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
sf_fitfile_set_free(sf_fitfile_set *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->count; i++) {
		sf_fitfile_free(s->fits[i]);
		free(s->labels[i]);
	}
	free(s->fits);
	free(s->labels);
	json_decref(s->keys);
	free(s);
}

/* Whether value text (length n) is key value v. */
static int
key_value_matches(const json_t *v, const char *text, size_t n)
{
	char buf[128];
	double x;

	if (json_is_string(v))
		return strlen(json_string_value(v)) == n &&
		       memcmp(json_string_value(v), text, n) == 0;
	if (json_is_null(v))
		return n == 0;
	if (!json_is_number(v) || n == 0 || n >= sizeof buf)
		return 0;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return sf_parse_double(buf, &x) == SF_OK && x == json_number_value(v);
}

int
sf_fitfile_group_matches(const json_t *group, const char *selector)
{
	const json_t *key = json_object_get(group, "key");
	const char *label = json_string_value(json_object_get(group, "label"));
	const char *p = selector;

	if (label != NULL && strcmp(label, selector) == 0)
		return 1;
	if (!json_is_object(key))
		return 0;
	for (;;) {
		const char *end = p + strcspn(p, ",");
		const char *eq = memchr(p, '=', (size_t)(end - p));
		char column[256];
		const json_t *v;

		if (eq == NULL || (size_t)(eq - p) >= sizeof column)
			return 0;
		memcpy(column, p, (size_t)(eq - p));
		column[eq - p] = '\0';
		if ((v = json_object_get(key, column)) == NULL ||
		    !key_value_matches(v, eq + 1, (size_t)(end - eq - 1)))
			return 0;
		if (*end == '\0')
			return 1;
		p = end + 1;
	}
}

/* Read the group report g of the file at path into *out. */
static int
load_group(const char *path, const json_t *g, const char *label,
           sf_fitfile **out, sf_error *err)
{
	static const size_t flags = JSON_INDENT(2) | JSON_REAL_PRECISION(17);
	char name[SF_ERROR_FILE_MAX];
	char *text = json_dumps(g, flags);
	int rc;

	if (text == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	/* Positions count within the group's report. */
	snprintf(name, sizeof name, "%s[%s]", path, label);
	rc = sf_fitfile_parse(text, strlen(text), name, out, err);
	free(text);
	return rc;
}

int
sf_fitfile_load_groups(const char *path, const char *selector,
                       sf_fitfile_set **out, sf_error *err)
{
	return sf_fitfile_load_groups_flags(path, selector, 0, out, err);
}

/* A plain fit file's text (or a broken one: its parser says why): the
 * set of its one fit.  Frees text. */
static int
load_plain(const char *path, const char *selector, unsigned flags, char *text,
           size_t length, sf_fitfile_set *s, sf_error *err)
{
	int rc;

	if (selector != NULL) {
		free(text);
		return sf_error_at(
		    err, SF_EUSAGE, path, 0, 0,
		    "--group %s: this is the fit of one selection "
		    "of rows, not of groups (a --by fit)",
		    selector);
	}
	s->fits = calloc(1, sizeof *s->fits);
	s->labels = calloc(1, sizeof *s->labels);
	if (s->fits == NULL || s->labels == NULL) {
		free(text);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	rc =
	    sf_fitfile_parse_flags(text, length, path, flags, &s->fits[0], err);
	free(text);
	if (rc == SF_OK)
		s->count = 1;
	return rc;
}

/* No group was selected: say why, with the nearest of the nnames labels
 * names when a selector matched none. */
static int
none_selected(const char *path, const char *selector, const char *const *names,
              size_t nnames, sf_error *err)
{
	const char *near = selector != NULL
	                       ? sf_suggest_nearest(selector, names, nnames)
	                       : NULL;

	if (selector == NULL)
		return sf_error_at(err, SF_EFAIL, path, 0, 0,
		                   "every group of this --by fit failed");
	if (near != NULL)
		return sf_error_at(err, SF_ENAME, path, 0, 0,
		                   "no group matches --group %s; did you mean "
		                   "'%s'?",
		                   selector, near);
	return sf_error_at(err, SF_ENAME, path, 0, 0,
	                   "no group matches --group %s (give COLUMN=VALUE, "
	                   "e.g. %s)",
	                   selector, nnames > 0 ? names[0] : "");
}

/* Group g (index i) into s when selector chooses it; its label among the
 * nnames labels seen (64 kept). */
static int
add_group(const char *path, const char *selector, const json_t *g, size_t i,
          sf_fitfile_set *s, const char **names, size_t *nnames, sf_error *err)
{
	const char *label = json_string_value(json_object_get(g, "label"));
	const char *error = json_string_value(json_object_get(g, "error"));
	int rc;

	if (label == NULL)
		return sf_error_at(err, SF_ETYPE, path, 0, 0,
		                   "group %zu has no label", i + 1);
	if (*nnames < 64)
		names[(*nnames)++] = label;
	if (selector != NULL && !sf_fitfile_group_matches(g, selector))
		return SF_OK;
	if (error != NULL) {
		/* A failed group: skipped among all, refused alone. */
		if (selector == NULL)
			return SF_OK;
		return sf_error_at(err, SF_EFAIL, path, 0, 0,
		                   "group %s did not fit: %s", label, error);
	}
	if ((s->labels[s->count] = strdup(label)) == NULL ||
	    json_array_append(s->keys, json_object_get(g, "key")) != 0)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((rc = load_group(path, g, label, &s->fits[s->count], err)) !=
	    SF_OK) {
		free(s->labels[s->count]);
		s->labels[s->count] = NULL;
		return rc;
	}
	s->count++;
	return SF_OK;
}

/* A groups file's groups array: the selected groups' fits into s. */
static int
load_grouped(const char *path, const char *selector, const json_t *groups,
             sf_fitfile_set *s, sf_error *err)
{
	const char *names[64];
	size_t i, nnames = 0;
	json_t *g;
	int rc;

	s->grouped = 1;
	s->fits = calloc(json_array_size(groups) + 1, sizeof *s->fits);
	s->labels = calloc(json_array_size(groups) + 1, sizeof *s->labels);
	s->keys = json_array();
	if (s->fits == NULL || s->labels == NULL || s->keys == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	json_array_foreach(groups, i, g)
	{
		if ((rc = add_group(path, selector, g, i, s, names, &nnames,
		                    err)) != SF_OK)
			return rc;
	}
	if (s->count == 0)
		return none_selected(path, selector, names, nnames, err);
	return SF_OK;
}

/* A copy of input in; SF_OK or SF_ENOMEM. */
static int
copy_input(const sf_fitfile_input *in, sf_fitfile_input *out)
{
	memset(out, 0, sizeof *out);
	out->lo = in->lo;
	out->hi = in->hi;
	if ((out->name = strdup(in->name)) == NULL ||
	    (out->column = strdup(in->column != NULL ? in->column : "")) ==
	        NULL)
		return SF_ENOMEM;
	if (in->levels == NULL)
		return SF_OK;
	if ((out->levels = calloc(in->nlevels + 1, sizeof *out->levels)) ==
	    NULL)
		return SF_ENOMEM;
	for (; out->nlevels < in->nlevels; out->nlevels++)
		if ((out->levels[out->nlevels] =
		         strdup(in->levels[out->nlevels])) == NULL)
			return SF_ENOMEM;
	return SF_OK;
}

/* The ensemble's own fit e: what its members share (their first's
 * inputs, output, unit, loss and rows), the members moved in.  SF_OK or
 * SF_ENOMEM. */
static int
ensemble_fit(const char *path, const char *name, sf_fitfile **members,
             double *weights, size_t k, sf_fitfile *e)
{
	const sf_fitfile *a = members[0];

	e->members = members;
	e->weights = weights;
	e->nmembers = k;
	e->unit = a->unit;
	e->dof = a->dof;
	e->aicc = NAN;
	e->data_rows = a->data_rows;
	e->has_interval = 1;
	e->interval.multiplicative = a->interval.multiplicative;
	for (size_t i = 0; i < k; i++)
		e->has_interval &= members[i]->has_interval;
	snprintf(e->version, sizeof e->version, "%s", a->version);
	e->version_newer = a->version_newer;
	if ((e->path = strdup(path)) == NULL ||
	    (e->name = strdup(name)) == NULL ||
	    (e->time = strdup("the mixture of its members")) == NULL ||
	    (e->output = strdup(a->output)) == NULL ||
	    (a->data_sha256 != NULL &&
	     (e->data_sha256 = strdup(a->data_sha256)) == NULL) ||
	    (a->data_where != NULL &&
	     (e->data_where = strdup(a->data_where)) == NULL) ||
	    (a->loss != NULL && (e->loss = strdup(a->loss)) == NULL) ||
	    (e->inputs = calloc(a->ninputs + 1, sizeof *e->inputs)) == NULL)
		return SF_ENOMEM;
	for (; e->ninputs < a->ninputs; e->ninputs++)
		if (copy_input(&a->inputs[e->ninputs],
		               &e->inputs[e->ninputs]) != SF_OK) {
			e->ninputs++; /* what was copied of it is freed */
			return SF_ENOMEM;
		}
	return SF_OK;
}

int
sf_fitfile_ensemble(const char *path, const char *name, sf_fitfile **fits,
                    double *weights, size_t k, sf_fitfile **out, sf_error *err)
{
	sf_fitfile *e = calloc(1, sizeof *e);

	*out = NULL;
	if (e == NULL) {
		for (size_t i = 0; i < k; i++)
			sf_fitfile_free(fits[i]);
		free(fits);
		free(weights);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	if (ensemble_fit(path, name, fits, weights, k, e) != SF_OK) {
		sf_fitfile_free(e); /* and the members moved in */
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	*out = e;
	return SF_OK;
}

/* SF_OK when member i's errors are of the kind of the first of f[0..i)
 * with an error model (a member without one, whose calibration failed,
 * has none to mix): their mixture is on one scale, log or time. */
static int
one_kind(const char *path, sf_fitfile *const *f, size_t i, sf_error *err)
{
	for (size_t j = 0; j < i; j++)
		if (f[j]->has_interval) {
			if (f[j]->interval.multiplicative ==
			    f[i]->interval.multiplicative)
				return SF_OK;
			return sf_error_at(
			    err, SF_EVALUE, path, 0, 0,
			    "the members of an ensemble must have errors of "
			    "one kind: '%s' has %s errors, '%s' %s",
			    f[j]->name,
			    f[j]->interval.multiplicative ? "multiplicative"
			                                  : "additive",
			    f[i]->name,
			    f[i]->interval.multiplicative ? "multiplicative"
			                                  : "additive");
		}
	return SF_OK;
}

/* Whether fit b reads the same inputs as a, in the same slots. */
static int
same_inputs(const sf_fitfile *a, const sf_fitfile *b)
{
	if (a->ninputs != b->ninputs)
		return 0;
	for (size_t i = 0; i < a->ninputs; i++)
		if (strcmp(a->inputs[i].name, b->inputs[i].name) != 0 ||
		    (a->inputs[i].levels == NULL) !=
		        (b->inputs[i].levels == NULL))
			return 0;
	return 1;
}

/* An ensemble's file: one fit whose members are its fits, into s. */
static int
load_ensemble(const char *path, const char *selector, const json_t *root,
              sf_fitfile_set *s, sf_error *err)
{
	const json_t *fits = json_object_get(root, "fits");
	const json_t *members =
	    json_object_get(json_object_get(root, "ensemble"), "members");
	size_t k = json_array_size(fits), i;
	sf_fitfile **f = NULL;
	double *w = NULL;
	json_t *m;
	int rc = SF_OK;

	if (selector != NULL)
		return sf_error_at(err, SF_EUSAGE, path, 0, 0,
		                   "--group %s: this is an ensemble's fit, "
		                   "not a --by fit's groups",
		                   selector);
	if (!json_is_array(fits) || !json_is_array(members) || k == 0 ||
	    json_array_size(members) != k)
		return sf_error_at(err, SF_ETYPE, path, 0, 0,
		                   "an ensemble's fit file needs \"fits\" and "
		                   "\"ensemble\".\"members\", arrays of the "
		                   "same length");
	s->fits = calloc(1, sizeof *s->fits);
	s->labels = calloc(1, sizeof *s->labels);
	f = calloc(k + 1, sizeof *f);
	w = calloc(k + 1, sizeof *w);
	if (s->fits == NULL || s->labels == NULL || f == NULL || w == NULL) {
		free(f);
		free(w);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	json_array_foreach(members, i, m)
	{
		const json_t *x = json_object_get(m, "weight");
		const char *name =
		    json_string_value(json_object_get(m, "model"));

		w[i] = json_is_number(x) ? json_number_value(x) : NAN;
		if (!(w[i] >= 0) || !isfinite(w[i]) || name == NULL)
			rc = sf_error_at(err, SF_EVALUE, path, 0, 0,
			                 "ensemble.members[%zu] needs a model "
			                 "name and a finite weight >= 0",
			                 i);
		else
			rc = load_group(path, json_array_get(fits, i), name,
			                &f[i], err);
		if (rc == SF_OK && !same_inputs(f[0], f[i]))
			rc =
			    sf_error_at(err, SF_EVALUE, path, 0, 0,
			                "the members of an ensemble must have "
			                "the same inputs: '%s' and '%s' differ",
			                f[0]->name, f[i]->name);
		if (rc == SF_OK && f[i]->has_interval)
			rc = one_kind(path, f, i, err);
		if (rc != SF_OK)
			break;
	}
	if (rc == SF_OK && !sf_ensemble_normalise(w, k))
		rc = sf_error_at(err, SF_EVALUE, path, 0, 0,
		                 "every weight of the ensemble is 0");
	if (rc != SF_OK) {
		for (i = 0; i < k; i++)
			sf_fitfile_free(f[i]);
		free(f);
		free(w);
		return rc;
	}
	if ((rc = sf_fitfile_ensemble(path, "ensemble", f, w, k, &s->fits[0],
	                              err)) == SF_OK)
		s->count = 1;
	return rc;
}

/* The fits of the fit file at path, from its text (length bytes, which
 * this frees): an ensemble's, a groups file's selected groups, or a plain
 * file's fit. */
static int
groups_from_text(const char *path, char *text, size_t length,
                 const char *selector, unsigned flags, sf_fitfile_set **out,
                 sf_error *err)
{
	sf_fitfile_set *s = calloc(1, sizeof *s);
	json_t *root = NULL, *groups;
	json_error_t jerr;
	int rc;

	*out = NULL;
	if (s == NULL) {
		free(text);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	/* The text is read once; a plain fit file never becomes a whole
	 * jansson tree here (its rows may be millions). */
	if (sf_jsonpath_member(text, length, "groups") < length ||
	    sf_jsonpath_member(text, length, "ensemble") < length)
		root = json_loadb(text, length, JSON_REJECT_DUPLICATES, &jerr);
	groups = json_object_get(root, "groups");
	if (json_is_object(json_object_get(root, "ensemble"))) {
		free(text);
		rc = load_ensemble(path, selector, root, s, err);
	} else if (root == NULL || !json_is_array(groups)) {
		json_decref(root);
		root = NULL;
		rc = load_plain(path, selector, flags, text, length, s, err);
	} else {
		free(text);
		rc = load_grouped(path, selector, groups, s, err);
	}
	json_decref(root);
	if (rc != SF_OK) {
		sf_fitfile_set_free(s);
		return rc;
	}
	*out = s;
	return SF_OK;
}

/* A copy of text in *copy (*length bytes, NUL-terminated), or SF_ENOMEM. */
static int
copy_text(const char *text, char **copy, size_t *length, sf_error *err)
{
	*length = strlen(text);
	if ((*copy = malloc(*length + 1)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	memcpy(*copy, text, *length + 1);
	return SF_OK;
}

int
sf_fitfile_load_groups_flags(const char *path, const char *selector,
                             unsigned flags, sf_fitfile_set **out,
                             sf_error *err)
{
	return sf_fitfile_load_groups_text(path, NULL, selector, flags, out,
	                                   err);
}

int
sf_fitfile_load_groups_text(const char *path, const char *text,
                            const char *selector, unsigned flags,
                            sf_fitfile_set **out, sf_error *err)
{
	char *bytes = NULL;
	size_t length;
	int rc;

	*out = NULL;
	rc = text != NULL ? copy_text(text, &bytes, &length, err)
	                  : sf_fitfile_read(path, &bytes, &length, err);
	if (rc != SF_OK)
		return rc;
	return groups_from_text(path, bytes, length, selector, flags, out, err);
}

int
sf_fitfile_load_text(const char *path, const char *text, unsigned flags,
                     sf_fitfile **out, sf_error *err)
{
	char *bytes;
	size_t length;
	int rc;

	*out = NULL;
	if (text == NULL)
		return sf_fitfile_load_flags(path, flags, out, err);
	if ((rc = copy_text(text, &bytes, &length, err)) != SF_OK)
		return rc;
	rc = sf_fitfile_parse_flags(bytes, length, path, flags, out, err);
	free(bytes);
	return rc;
}
