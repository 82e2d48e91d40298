/*
 * schema.c - a YAML document opened, and typed access to its nodes with
 * every error at FILE:LINE:COL (schema.h).
 *
 * libyaml's marks count characters; our positions are lines and byte
 * columns as sf_error_quote() counts them, so every node's position is
 * walked from the nearest stop of an index of the text made at open.
 */
#include "input/schema.h"
#include "expr/expr.h"
#include "base/names.h"
#include "base/number.h"
#include "base/suggest.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Characters between two stops of the mark index. */
enum { MARK_STRIDE = 256 };

/* The place of a character: its byte offset, line, and where the line
 * starts. */
typedef struct sf_schema_stop {
	size_t offset, line_start;
	int line;
} mark_stop;

/* ---- positions and messages ------------------------------------------ */

/* The position of a libyaml mark.  Its index counts characters from the
 * start of the text, leaving out a byte order mark, and every YAML line
 * break ("\n", "\r\n", a lone "\r", U+0085, U+2028, U+2029) counts in it
 * like any other character: the byte offset follows from the index alone,
 * where libyaml's line and column (YAML's breaks, characters, no mark)
 * would not give it.  Lines and columns are then counted from the offset
 * as sf_error_quote() counts them: lines end at '\n', columns are bytes. */
/* Move *at forward by up to n characters (not past the end). */
static void
mark_walk(const sf_schema *s, mark_stop *at, size_t n)
{
	for (size_t i = 0; i < n && at->offset < s->length; i++) {
		if (s->text[at->offset] == '\n') {
			at->line++;
			at->line_start = at->offset + 1;
		}
		at->offset++;
		/* Skip UTF-8 continuation bytes: one character. */
		while (at->offset < s->length &&
		       ((unsigned char)s->text[at->offset] & 0xC0) == 0x80)
			at->offset++;
	}
}

/* Where character 0 is: after a byte order mark. */
static mark_stop
mark_start(const sf_schema *s)
{
	mark_stop at = {0, 0, 1};

	if (s->length >= 3 && memcmp(s->text, "\xEF\xBB\xBF", 3) == 0)
		at.offset = 3;
	return at;
}

/* Index the text's characters, one stop every MARK_STRIDE, so each mark
 * costs at most MARK_STRIDE steps: counted from the start of the text,
 * a file of 20,000 parameters took 19 s.  Without memory for the index,
 * marks are counted from the start. */
static void
mark_index(sf_schema *s)
{
	mark_stop at = mark_start(s);
	size_t cap = s->length / MARK_STRIDE + 1;

	s->stops = malloc(cap * sizeof *s->stops);
	if (s->stops == NULL)
		return;
	s->nstops = 0;
	while (s->nstops < cap) {
		s->stops[s->nstops++] = at;
		if (at.offset >= s->length)
			break;
		mark_walk(s, &at, MARK_STRIDE);
	}
}

sf_schema_position
sf_schema_mark(const sf_schema *s, yaml_mark_t mark)
{
	sf_schema_position p;
	mark_stop at = mark_start(s);
	size_t k = mark.index / MARK_STRIDE;

	if (s->stops != NULL && s->nstops > 0) {
		if (k >= s->nstops)
			k = s->nstops - 1;
		at = s->stops[k];
		mark_walk(s, &at, mark.index - k * MARK_STRIDE);
	} else {
		mark_walk(s, &at, mark.index);
	}
	p.line = at.line;
	p.column = (int)(at.offset - at.line_start) + 1;
	p.offset = at.offset;
	return p;
}

sf_schema_position
sf_schema_at(const sf_schema *s, const yaml_node_t *node)
{
	return sf_schema_mark(s, node->start_mark);
}

/* Record an error at node (or at the top of the file when NULL). */
/* The error at line and column, its message made of fmt and ap, the line
 * quoted. */
static int
fail_v(sf_schema *s, int line, int column, int code, const char *fmt,
       va_list ap)
{
	sf_error_at(s->err, code, s->path, line, column, "%s", "");
	if (s->err != NULL) {
		vsnprintf(s->err->message, sizeof s->err->message, fmt, ap);
		sf_error_quote(s->err, s->text, s->length);
	}
	return code;
}

int
sf_schema_fail(sf_schema *s, const yaml_node_t *node, int code, const char *fmt,
               ...)
{
	sf_schema_position p = {0, 0, 0};
	va_list ap;

	if (node != NULL)
		p = sf_schema_at(s, node);
	va_start(ap, fmt);
	code = fail_v(s, p.line, p.column, code, fmt, ap);
	va_end(ap);
	return code;
}

void
sf_schema_warn(sf_schema *s, const yaml_node_t *node, const char *fmt, ...)
{
	sf_schema_position p = sf_schema_at(s, node);
	sf_error w;
	va_list ap;

	if (s->warn == NULL)
		return;
	sf_error_at(&w, SF_OK, s->path, p.line, p.column, "%s", "");
	va_start(ap, fmt);
	vsnprintf(w.message, sizeof w.message, fmt, ap);
	va_end(ap);
	sf_error_quote(&w, s->text, s->length);
	s->warn(s->warn_ctx, &w);
}

const char *
sf_schema_kind(const yaml_node_t *node)
{
	switch (node->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "nothing";
	}
}

/* ---- typed access to nodes ------------------------------------------- */

yaml_node_t *
sf_schema_node(const sf_schema *s, int id)
{
	return yaml_document_get_node((yaml_document_t *)&s->doc, id);
}

const char *
sf_schema_scalar(const yaml_node_t *node)
{
	return (const char *)node->data.scalar.value;
}

/* A "\0" escape would end the C string early and silently cut what
 * follows ("s + q/p\0 + 1000*zz" read as "s + q/p"): refuse any scalar
 * holding a NUL, at its position. */
static int
refuse_nul(sf_schema *s)
{
	for (yaml_node_t *n = s->doc.nodes.start; n < s->doc.nodes.top; n++)
		if (n->type == YAML_SCALAR_NODE &&
		    memchr(n->data.scalar.value, '\0', n->data.scalar.length) !=
		        NULL)
			return sf_schema_fail(s, n, SF_ESYNTAX,
			                      "a NUL character (\\0) is not "
			                      "allowed in a string");
	return SF_OK;
}

int
sf_schema_expect(sf_schema *s, const yaml_node_t *node, yaml_node_type_t type,
                 const char *what)
{
	static const char *const names[] = {
	    [YAML_SCALAR_NODE] = "a scalar",
	    [YAML_SEQUENCE_NODE] = "a list",
	    [YAML_MAPPING_NODE] = "a mapping",
	};

	if (node->type == type)
		return SF_OK;
	return sf_schema_fail(s, node, SF_ETYPE, "%s must be %s, not %s", what,
	                      names[type], sf_schema_kind(node));
}

/* A scalar's value, or an error naming what was expected. */
int
sf_schema_text(sf_schema *s, const yaml_node_t *node, const char *what,
               const char **text)
{
	int rc = sf_schema_expect(s, node, YAML_SCALAR_NODE, what);

	if (rc != SF_OK)
		return rc;
	*text = sf_schema_scalar(node);
	return SF_OK;
}

int
sf_schema_number(sf_schema *s, const yaml_node_t *node, const char *what,
                 double *value)
{
	const char *text;
	int rc = sf_schema_text(s, node, what, &text);

	if (rc != SF_OK)
		return rc;
	rc = sf_parse_double(text, value);
	if (rc == SF_ESYNTAX)
		return sf_schema_fail(s, node, SF_ETYPE,
		                      "%s must be a number, not '%s'", what,
		                      text);
	if (rc != SF_OK)
		return sf_schema_fail(s, node, SF_EVALUE,
		                      "%s '%s' is out of the range of a double",
		                      what, text);
	return SF_OK;
}

int
sf_schema_count(sf_schema *s, const yaml_node_t *node, const char *what,
                size_t minimum, size_t *value)
{
	const char *text;
	uint64_t v;
	double x;
	int rc = sf_schema_text(s, node, what, &text);

	if (rc != SF_OK)
		return rc;
	rc = sf_parse_count(text, &v);
	if (rc == SF_ESYNTAX)
		return sf_schema_fail(s, node, SF_ETYPE,
		                      "%s must be a whole number, not '%s'",
		                      what, text);
	/* A whole number a double does not hold, or not exactly as written:
	 * refused, not rounded. */
	if (rc == SF_EVALUE && sf_parse_double(text, &x) == SF_OK && x >= 0 &&
	    x == floor(x))
		return sf_schema_fail(
		    s, node, SF_EVALUE,
		    "%s must be at most 9007199254740992 (2^53) "
		    "and written exactly (its digits, or at most "
		    "15 significant ones), not '%s'",
		    what, text);
	if (rc != SF_OK || v < minimum || v > SIZE_MAX)
		return sf_schema_fail(
		    s, node, SF_EVALUE,
		    "%s must be a whole number >= %zu, not '%s'", what, minimum,
		    text);
	*value = (size_t)v;
	return SF_OK;
}

/* A number within [lo, hi]. */
int
sf_schema_number_in(sf_schema *s, const yaml_node_t *node, const char *what,
                    double lo, double hi, double *value)
{
	int rc = sf_schema_number(s, node, what, value);

	if (rc != SF_OK)
		return rc;
	if (*value < lo || *value > hi) {
		if (isinf(hi))
			return sf_schema_fail(s, node, SF_EVALUE,
			                      "%s must be >= %g, not %s", what,
			                      lo, sf_schema_scalar(node));
		return sf_schema_fail(s, node, SF_EVALUE,
		                      "%s must be between %g and %g, not %s",
		                      what, lo, hi, sf_schema_scalar(node));
	}
	return SF_OK;
}

int
sf_schema_bool(sf_schema *s, const yaml_node_t *node, const char *what,
               int *value)
{
	static const char *const yes[] = {"true", "yes", "on"};
	static const char *const no[] = {"false", "no", "off"};
	const char *text;
	int rc = sf_schema_text(s, node, what, &text);

	if (rc != SF_OK)
		return rc;
	for (size_t i = 0; i < 3; i++) {
		if (strcasecmp(text, yes[i]) == 0)
			return *value = 1, SF_OK;
		if (strcasecmp(text, no[i]) == 0)
			return *value = 0, SF_OK;
	}
	return sf_schema_fail(s, node, SF_ETYPE,
	                      "%s must be true or false, not '%s'", what, text);
}

/* One of the names in choices; its index goes to *index. */
int
sf_schema_choice(sf_schema *s, const yaml_node_t *node, const char *what,
                 const char *const *choices, size_t n, int *index)
{
	const char *text, *near;
	char list[256] = "";
	int rc = sf_schema_text(s, node, what, &text);

	if (rc != SF_OK)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (choices[i] != NULL && strcmp(text, choices[i]) == 0)
			return *index = (int)i, SF_OK;
	}
	for (size_t i = 0; i < n; i++) {
		if (choices[i] == NULL)
			continue;
		if (list[0] != '\0')
			strncat(list, ", ", sizeof list - strlen(list) - 1);
		strncat(list, choices[i], sizeof list - strlen(list) - 1);
	}
	near = sf_suggest_nearest(text, choices, n);
	if (near != NULL)
		return sf_schema_fail(s, node, SF_EVALUE,
		                      "unknown %s '%s'; did you mean '%s'?",
		                      what, text, near);
	return sf_schema_fail(s, node, SF_EVALUE,
	                      "unknown %s '%s' (one of: %s)", what, text, list);
}

/* 1 when the flow mapping map has the key expr: a term or input whose
 * formula a comma may have cut. */
static int
flow_has_expr(sf_schema *s, const yaml_node_t *map)
{
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = sf_schema_node(s, pair->key);

		if (k != NULL && k->type == YAML_SCALAR_NODE &&
		    strcmp(sf_schema_scalar(k), "expr") == 0)
			return 1;
	}
	return 0;
}

/* A key of a section whose keys are fixed (allowed, n of them; NULL: any
 * name) must be one of them. */
static int
check_key_known(sf_schema *s, const yaml_node_t *map, const yaml_node_t *key,
                const char *name, const char *section,
                const char *const *allowed, size_t n)
{
	const char *near;

	if (allowed == NULL)
		return SF_OK;
	for (size_t i = 0; i < n; i++)
		if (strcmp(allowed[i], name) == 0)
			return SF_OK;
	near = sf_suggest_nearest(name, allowed, n);
	/* "{expr: max(a, b)}" makes "b)" a key: not a misspelling */
	if ((near == NULL || !sf_expr_is_name(name)) &&
	    map->data.mapping.style == YAML_FLOW_MAPPING_STYLE &&
	    flow_has_expr(s, map))
		return sf_schema_fail(
		    s, key, SF_ENAME,
		    "unknown key '%s' in %s; a comma inside {...} "
		    "ends the value: quote a formula with a comma, "
		    "{expr: \"max(a, b)\"}",
		    name, section);
	if (near != NULL)
		return sf_schema_fail(s, key, SF_ENAME,
		                      "unknown key '%s' in %s; did you "
		                      "mean '%s'?",
		                      name, section, near);
	return sf_schema_fail(s, key, SF_ENAME, "unknown key '%s' in %s", name,
	                      section);
}

/*
 * Check every key of a mapping: a scalar, known (with a suggestion when
 * not), and not given twice (libyaml accepts duplicates silently).
 */
int
sf_schema_keys(sf_schema *s, const yaml_node_t *map, const char *section,
               const char *const *allowed, size_t n)
{
	yaml_node_pair_t *pair;
	sf_names seen; /* the keys before pair, by their pair's index */
	int rc = SF_OK;

	sf_names_init(&seen);
	for (pair = map->data.mapping.pairs.start;
	     rc == SF_OK && pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *key = sf_schema_node(s, pair->key);
		const char *name;
		size_t first;

		if ((rc = sf_schema_text(s, key, "a key", &name)) != SF_OK)
			break;
		if (sf_names_add(&seen, name,
		                 (size_t)(pair - map->data.mapping.pairs.start),
		                 &first) != SF_OK) {
			rc = sf_schema_oom(s);
			break;
		}
		if (first != SF_NAMES_NONE) {
			yaml_node_t *k = sf_schema_node(
			    s, map->data.mapping.pairs.start[first].key);
			rc =
			    sf_schema_fail(s, key, SF_ENAME,
			                   "duplicate key '%s' (first given on "
			                   "line %d)",
			                   name, sf_schema_at(s, k).line);
			break;
		}
		rc = check_key_known(s, map, key, name, section, allowed, n);
	}
	sf_names_free(&seen);
	return rc;
}

/* The value of key in map, or NULL. */
yaml_node_t *
sf_schema_get(const sf_schema *s, const yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *pair;

	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = sf_schema_node(s, pair->key);
		if (k->type == YAML_SCALAR_NODE &&
		    strcmp(sf_schema_scalar(k), key) == 0)
			return sf_schema_node(s, pair->value);
	}
	return NULL;
}

int
sf_schema_oom(sf_schema *s)
{
	return sf_error_at(s->err, SF_ENOMEM, s->path, 0, 0,
	                   "out of memory while loading the %s", s->name);
}

/*
 * Text the commands print as it is (a name, a description, a file name)
 * may not hold a control character (line breaks may be allowed): a YAML
 * escape such as "\e]0;...\a" would reach the terminal.
 */
int
sf_schema_refuse_control(sf_schema *s, const yaml_node_t *node,
                         const char *what, const char *text, int line_breaks)
{
	for (const unsigned char *c = (const unsigned char *)text; *c != '\0';
	     c++)
		if ((*c < 0x20 && *c != '\t' && !(line_breaks && *c == '\n')) ||
		    *c == 0x7f)
			return sf_schema_fail(
			    s, node, SF_EVALUE,
			    "%s holds the control character "
			    "\\x%02X, which is printed as it is: "
			    "leave it out",
			    what, *c);
	return SF_OK;
}

/* A count from lo to hi. */
int
sf_schema_count_in(sf_schema *s, const yaml_node_t *node, const char *what,
                   size_t lo, size_t hi, size_t *value)
{
	int rc = sf_schema_count(s, node, what, lo, value);

	if (rc == SF_OK && *value > hi)
		return sf_schema_fail(
		    s, node, SF_EVALUE,
		    "%s must be a whole number from %zu to %zu, "
		    "not %s",
		    what, lo, hi, sf_schema_scalar(node));
	return rc;
}

/* Record an error at a position remembered from an earlier node. */
int
sf_schema_fail_at(sf_schema *s, int line, int column, int code, const char *fmt,
                  ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = fail_v(s, line, column, code, fmt, ap);
	va_end(ap);
	return code;
}

/* 1 when line (1-based) of the file starts with spaces and tabs of which
 * one is a tab; *column is then the first tab's (1-based). */
static int
tab_in_indent(const sf_schema *s, int line, int *column)
{
	size_t i = 0;

	for (int l = 1; l < line && i < s->length; i++)
		l += s->text[i] == '\n';
	for (size_t k = i; k < s->length; k++) {
		if (s->text[k] == '\t') {
			*column = (int)(k - i) + 1;
			return 1;
		}
		if (s->text[k] != ' ')
			return 0;
	}
	return 0;
}

/* Report a libyaml parser error at its position. */
static int
yaml_failure(sf_schema *s, const yaml_parser_t *parser)
{
	sf_schema_position p;
	yaml_mark_t mark = parser->problem_mark;

	if (parser->error == YAML_MEMORY_ERROR)
		return sf_schema_oom(s);
	if (parser->error == YAML_READER_ERROR) {
		/* The reader knows only a byte offset. */
		sf_error_position(s->text, s->length, parser->problem_offset,
		                  &p.line, &p.column);
		sf_error_at(s->err, SF_ESYNTAX, s->path, p.line, p.column,
		            "%s in the %s file", parser->problem, s->name);
		sf_error_quote(s->err, s->text, s->length);
		return SF_ESYNTAX;
	}
	p = sf_schema_mark(s, mark);
	if (tab_in_indent(s, p.line, &p.column)) {
		sf_error_at(s->err, SF_ESYNTAX, s->path, p.line, p.column,
		            "YAML syntax: a tab in the indentation: YAML "
		            "indents with spaces only (libyaml: %s)",
		            parser->problem);
		sf_error_quote(s->err, s->text, s->length);
		return SF_ESYNTAX;
	}
	sf_error_at(s->err, SF_ESYNTAX, s->path, p.line, p.column,
	            "YAML syntax: %s%s%s", parser->problem,
	            parser->context != NULL ? " " : "",
	            parser->context != NULL ? parser->context : "");
	sf_error_quote(s->err, s->text, s->length);
	return SF_ESYNTAX;
}

size_t
sf_schema_pairs(const yaml_node_t *map)
{
	return (size_t)(map->data.mapping.pairs.top -
	                map->data.mapping.pairs.start);
}

/* ---- the document -------------------------------------------------------- */

/* The text holds a NUL byte: libyaml would stop reading there. */
static int
refuse_nul_byte(sf_schema *s)
{
	const char *nul = memchr(s->text, '\0', s->length);
	int line, column;

	sf_error_position(s->text, s->length, (size_t)(nul - s->text), &line,
	                  &column);
	sf_error_at(s->err, SF_ESYNTAX, s->path, line, column,
	            "the %s file contains a NUL byte (is it a text file?)",
	            s->name);
	sf_error_quote(s->err, s->text, s->length);
	return SF_ESYNTAX;
}

/* Load the one document of the text into s->doc, and its root. */
static int
load_document(sf_schema *s, yaml_parser_t *parser, yaml_node_t **root)
{
	yaml_document_t extra;
	yaml_node_t *second;

	if (!yaml_parser_load(parser, &s->doc))
		return yaml_failure(s, parser);
	s->have_doc = 1;
	*root = yaml_document_get_root_node(&s->doc);
	if (*root == NULL)
		return sf_error_at(s->err, SF_ESYNTAX, s->path, 0, 0,
		                   "the %s file is empty", s->name);
	/* A second document would be silently ignored: refuse it. */
	if (!yaml_parser_load(parser, &extra))
		return yaml_failure(s, parser);
	second = yaml_document_get_root_node(&extra);
	if (second != NULL) {
		int rc = sf_schema_fail(s, second, SF_ESYNTAX,
		                        "a %s file holds one YAML document; "
		                        "this is a second one",
		                        s->name);
		yaml_document_delete(&extra);
		return rc;
	}
	yaml_document_delete(&extra);
	return refuse_nul(s);
}

int
sf_schema_open(sf_schema *s, const char *name, const char *path,
               const char *text, size_t length, sf_warn_fn warn, void *warn_ctx,
               sf_error *err, yaml_node_t **root)
{
	yaml_parser_t parser;
	int rc;

	memset(s, 0, sizeof *s);
	s->name = name;
	s->path = path;
	s->text = text;
	s->length = length;
	s->warn = warn;
	s->warn_ctx = warn_ctx;
	s->err = err;
	*root = NULL;
	if (memchr(text, '\0', length) != NULL)
		return refuse_nul_byte(s);
	mark_index(s);
	if (!yaml_parser_initialize(&parser))
		return sf_schema_oom(s);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
	                             length);
	rc = load_document(s, &parser, root);
	yaml_parser_delete(&parser);
	if (rc != SF_OK)
		*root = NULL;
	return rc;
}

void
sf_schema_close(sf_schema *s)
{
	if (s->have_doc)
		yaml_document_delete(&s->doc);
	s->have_doc = 0;
	free(s->stops);
	s->stops = NULL;
	s->nstops = 0;
}
