/*
 * library.c - the shipped model files, listed and found by name.
 */
#include "input/library.h"
#include "base/file.h"
#include "base/suggest.h"
#include "base/units.h"
#include "input/model.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A model file is read whole only up to this size for its description. */
enum { LIBRARY_HEAD_MAX = 1 << 16 };

static char *
copy(const char *s)
{
	char *t = malloc(strlen(s) + 1);

	if (t != NULL)
		strcpy(t, s);
	return t;
}

/* Copy the n bytes at s, trimmed of spaces and one pair of quotes. */
static void
trimmed(const char *s, size_t n, char *buf, size_t size)
{
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0])
		s++, n -= 2;
	snprintf(buf, size, "%.*s", (int)n, s);
}

void
sf_library_description(const char *text, char *buf, size_t size)
{
	const char *line = text, *first_comment = NULL;

	buf[0] = '\0';
	while (*line != '\0') {
		size_t n = strcspn(line, "\n");

		if (strncmp(line, "description:", 12) == 0) {
			trimmed(line + 12, n - 12, buf, size);
			return;
		}
		if (first_comment == NULL && line[0] == '#') {
			const char *c = line + 1;
			size_t k = n - 1;

			while (k > 0 && *c == ' ')
				c++, k--;
			if (k > 0)
				first_comment = line;
		}
		line += n + (line[n] == '\n');
	}
	if (first_comment != NULL) {
		size_t n = strcspn(first_comment, "\n");

		trimmed(first_comment + 1, n - 1, buf, size);
	}
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const sf_library_entry *)a)->name,
	              ((const sf_library_entry *)b)->name);
}

void
sf_library_entries_free(sf_library_entry *e, size_t n)
{
	if (e == NULL)
		return;
	for (size_t i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].path);
		free(e[i].description);
	}
	free(e);
}

/* A .yaml file of the folder: its entry, and why it is no formula (a
 * FIFO, a directory: its open would block or fail), or NULL. */
typedef struct found {
	sf_library_entry e;
	char *skip;
} found;

static void
found_free(found *f, size_t n)
{
	for (size_t i = 0; f != NULL && i < n; i++) {
		free(f[i].e.name);
		free(f[i].e.path);
		free(f[i].e.description);
		free(f[i].skip);
	}
	free(f);
}

static int
found_by_name(const void *a, const void *b)
{
	return by_name(&((const found *)a)->e, &((const found *)b)->e);
}

/* Fill f from the file dir/expressions/file (name: file without .yaml):
 * its description, or, when it is not a regular file, why it is
 * skipped. */
static int
entry_load(found *f, const char *dir, const char *file)
{
	sf_library_entry *e = &f->e;
	size_t len = strlen(dir) + strlen(file) + 16, got = 0;
	char description[256];
	char *text = malloc(LIBRARY_HEAD_MAX + 1);
	struct stat st;
	sf_error why;
	int fd;

	e->path = malloc(len);
	e->name = copy(file);
	if (text == NULL || e->path == NULL || e->name == NULL) {
		free(text);
		return SF_ENOMEM;
	}
	e->name[strlen(file) - 5] = '\0';
	snprintf(e->path, len, "%s/expressions/%s", dir, file);
	sf_error_clear(&why);
	/* Regular files only: a FIFO would block here for ever. */
	if (sf_file_open(e->path, &fd, &st, &why) == SF_OK) {
		ssize_t r;

		while (got < LIBRARY_HEAD_MAX &&
		       (r = read(fd, text + got, LIBRARY_HEAD_MAX - got)) > 0)
			got += (size_t)r;
		close(fd);
	} else if (st.st_mode != 0 && (f->skip = copy(why.message)) == NULL) {
		free(text);
		return SF_ENOMEM;
	}
	text[got] = '\0';
	sf_library_description(text, description, sizeof description);
	free(text);
	e->description = copy(description);
	return e->description != NULL ? SF_OK : SF_ENOMEM;
}

/* The .yaml files of the library at dir, as this process finds them,
 * sorted by name. */
static int
list_here(const char *dir, found **out, size_t *n, sf_error *err)
{
	size_t len = strlen(dir) + 16, cap = 0, count = 0;
	found *f = NULL;
	char *where = malloc(len);
	struct dirent *ent;
	DIR *d;
	int rc = SF_OK;

	*out = NULL;
	*n = 0;
	if (where == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	snprintf(where, len, "%s/expressions", dir);
	if ((d = opendir(where)) == NULL) {
		sf_error_at(err, SF_EIO, where, 0, 0,
		            "no formula library here (set SCALEFIT_LIBRARY to "
		            "the directory that holds expressions/ and "
		            "datasets/)");
		free(where);
		return SF_EIO;
	}
	free(where);
	while (rc == SF_OK && (ent = readdir(d)) != NULL) {
		size_t k = strlen(ent->d_name);

		if (k <= 5 || strcmp(ent->d_name + k - 5, ".yaml") != 0 ||
		    ent->d_name[0] == '.')
			continue;
		if (count == cap) {
			found *more;

			cap = cap > 0 ? 2 * cap : 16;
			if ((more = realloc(f, cap * sizeof *f)) == NULL) {
				rc = SF_ENOMEM;
				break;
			}
			f = more;
		}
		memset(&f[count], 0, sizeof f[count]);
		rc = entry_load(&f[count++], dir, ent->d_name);
	}
	closedir(d);
	if (rc != SF_OK) {
		found_free(f, count);
		return sf_error_set(err, rc, "out of memory");
	}
	if (count > 0)
		qsort(f, count, sizeof *f, found_by_name);
	*out = f;
	*n = count;
	return SF_OK;
}

/* The library at ctx (its directory) listed as text of *size bytes in
 * *out: each file's name, path, description and why it is skipped ("" for
 * a formula), each ended by a NUL.  An sf_read_fn, since it reads the
 * library's folder. */
static int
list_text(void *ctx, char **out, size_t *size, sf_error *err)
{
	found *f;
	size_t n, length = 0;
	char *text;
	int rc;

	*out = NULL;
	*size = 0;
	if ((rc = list_here(ctx, &f, &n, err)) != SF_OK)
		return rc;
	for (size_t i = 0; i < n; i++)
		length += strlen(f[i].e.name) + strlen(f[i].e.path) +
		          strlen(f[i].e.description) +
		          (f[i].skip != NULL ? strlen(f[i].skip) : 0) + 4;
	if ((text = malloc(length + 1)) == NULL) {
		found_free(f, n);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	length = 0;
	for (size_t i = 0; i < n; i++) {
		const char *field[4] = {f[i].e.name, f[i].e.path,
		                        f[i].e.description,
		                        f[i].skip != NULL ? f[i].skip : ""};

		for (int k = 0; k < 4; k++) {
			size_t m = strlen(field[k]) + 1;

			memcpy(text + length, field[k], m);
			length += m;
		}
	}
	found_free(f, n);
	*out = text;
	*size = length;
	return SF_OK;
}

/* Warn through warn (when not NULL) that the file at path is skipped. */
static void
warn_skipped(const char *path, const char *why, sf_warn_fn warn, void *ctx)
{
	sf_error w;

	if (warn == NULL)
		return;
	sf_error_clear(&w);
	sf_error_at(&w, SF_OK, path, 0, 0, "%s: skipped, not a formula", why);
	warn(ctx, &w);
}

int
sf_library_list(const char *dir, sf_warn_fn warn, void *warn_ctx,
                sf_library_entry **out, size_t *n, sf_error *err)
{
	sf_library_entry *e = NULL;
	size_t size, count = 0, at;
	char *text;
	int rc;

	*out = NULL;
	*n = 0;
	/* Under MPI rank 0 reads the folder, every rank gets its list. */
	if ((rc = sf_units_read(list_text, (void *)dir, &text, &size, err)) !=
	    SF_OK)
		return rc;
	for (at = 0; at < size; at++)
		count += text[at] == '\0';
	count /= 4;
	if (count > 0 && (e = calloc(count, sizeof *e)) == NULL) {
		free(text);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	at = 0;
	for (size_t i = 0; i < count; i++) {
		const char *field[4];

		for (int k = 0; k < 4; k++) {
			field[k] = text + at;
			at += strlen(text + at) + 1;
		}
		if (field[3][0] != '\0') {
			warn_skipped(field[1], field[3], warn, warn_ctx);
			continue;
		}
		if ((e[*n].name = copy(field[0])) == NULL ||
		    (e[*n].path = copy(field[1])) == NULL ||
		    (e[*n].description = copy(field[2])) == NULL) {
			sf_library_entries_free(e, *n + 1);
			*n = 0;
			free(text);
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		}
		(*n)++;
	}
	free(text);
	*out = e;
	return SF_OK;
}

/* 1 when an input before input i of model k of set (in the models' order)
 * has input i's name. */
static int
input_seen(const sf_model_set *set, size_t k, size_t i)
{
	const char *name = set->models[k]->inputs[i].name;

	for (size_t j = 0; j <= k; j++)
		for (size_t q = 0; q < (j < k ? set->models[j]->ninputs : i);
		     q++)
			if (strcmp(set->models[j]->inputs[q].name, name) == 0)
				return 1;
	return 0;
}

void
sf_library_inputs(const char *path, char *buf, size_t size)
{
	sf_model_set *set = NULL;
	size_t used = 0;
	sf_error err;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (sf_model_load(path, &set, NULL, NULL, &err) != SF_OK)
		return;
	for (size_t k = 0; k < set->count; k++)
		for (size_t i = 0; i < set->models[k]->ninputs; i++) {
			int w;

			if (used >= size || input_seen(set, k, i))
				continue;
			w = snprintf(buf + used, size - used, "%s%s",
			             used > 0 ? ", " : "",
			             set->models[k]->inputs[i].name);
			used += w > 0 ? (size_t)w : 0;
		}
	sf_model_set_free(set);
}

int
sf_library_path(const char *dir, const char *name, char **path, sf_error *err)
{
	return sf_library_find(dir, name, NULL, NULL, path, err);
}

int
sf_library_find(const char *dir, const char *name, sf_warn_fn warn,
                void *warn_ctx, char **path, sf_error *err)
{
	const char *names[128], *near;
	sf_library_entry *e;
	size_t n, k = 0;
	int rc;

	*path = NULL;
	if ((rc = sf_library_list(dir, warn, warn_ctx, &e, &n, err)) != SF_OK)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(e[i].name, name) == 0) {
			*path = copy(e[i].path);
			sf_library_entries_free(e, n);
			return *path != NULL ? SF_OK
			                     : sf_error_set(err, SF_ENOMEM,
			                                    "out of memory");
		}
		if (k < 128)
			names[k++] = e[i].name;
	}
	near = sf_suggest_nearest(name, names, k);
	sf_error_at(err, SF_ENAME, NULL, 0, 0,
	            "the formula library (%s/expressions) has no formula "
	            "'%s'%s%s%s; 'scalefit formulas' lists them",
	            dir, name, near != NULL ? "; did you mean '@" : "",
	            near != NULL ? near : "", near != NULL ? "'?" : "");
	sf_library_entries_free(e, n);
	return SF_ENAME;
}
