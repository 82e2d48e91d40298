/*
 * expr_lex.c - the tokens of the expression language.
 *
 * Numbers are decimal: digits with an optional fraction and exponent, or a
 * fraction alone (.5).  Anything glued to a number that would make it
 * something else (1.2.3, 1e, 2x, 0x10) is one malformed token, reported at
 * the number's first byte, rather than a number followed by a puzzling
 * name.  Numbers are read by sf_parse_decimal(), as every number scalefit
 * reads is: one too large for a double is an error; one too small becomes 0
 * or a subnormal.  Strings are single-quoted with '' for a quote.
 * Whitespace is space, tab, CR and LF.
 */
#include "expr/internal.h"
#include "base/number.h"

#include <ctype.h>
#include <string.h>

static int
lex_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
lex_is_name_start(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int
lex_is_name_char(int c)
{
	return lex_is_name_start(c) || lex_is_digit(c);
}

int
sf_expr_is_name(const char *name)
{
	if (name == NULL || !lex_is_name_start((unsigned char)name[0]))
		return 0;
	for (const char *c = name + 1; *c != '\0'; c++)
		if (!lex_is_name_char((unsigned char)*c))
			return 0;
	return 1;
}

int
sf_expr_mentions(const char *text, const char *name)
{
	size_t len = strlen(name);
	sf_lexer lx = {text, 0, {SF_TOK_END, 0, 0, 0.0}};

	while (sf_lex_next(&lx, NULL) == SF_OK && lx.tok.type != SF_TOK_END)
		if (lx.tok.type == SF_TOK_NAME && lx.tok.len == len &&
		    memcmp(text + lx.tok.pos, name, len) == 0)
			return 1;
	return 0;
}

const char *
sf_lex_describe(sf_tok_type t)
{
	static const char *const names[] = {
	    [SF_TOK_END] = "end of expression",
	    [SF_TOK_NUMBER] = "number",
	    [SF_TOK_NAME] = "name",
	    [SF_TOK_STRING] = "string",
	    [SF_TOK_PLUS] = "'+'",
	    [SF_TOK_MINUS] = "'-'",
	    [SF_TOK_STAR] = "'*'",
	    [SF_TOK_SLASH] = "'/'",
	    [SF_TOK_POW] = "'^'",
	    [SF_TOK_LT] = "'<'",
	    [SF_TOK_LE] = "'<='",
	    [SF_TOK_GT] = "'>'",
	    [SF_TOK_GE] = "'>='",
	    [SF_TOK_EQ] = "'=='",
	    [SF_TOK_NE] = "'!='",
	    [SF_TOK_AND] = "'&&'",
	    [SF_TOK_OR] = "'||'",
	    [SF_TOK_NOT] = "'!'",
	    [SF_TOK_LPAREN] = "'('",
	    [SF_TOK_RPAREN] = "')'",
	    [SF_TOK_COMMA] = "','",
	};
	return names[t];
}

/*
 * The length of the decimal number at s, or 0 when s does not start with
 * one:  number = digits ["." [digits]] [exp] | "." digits [exp];
 * exp = ("e"|"E") ["+"|"-"] digits.
 */
static size_t
lex_number_length(const char *s)
{
	size_t i = 0, digits = 0;

	while (lex_is_digit((unsigned char)s[i]))
		i++, digits++;
	if (s[i] == '.') {
		i++;
		while (lex_is_digit((unsigned char)s[i]))
			i++, digits++;
	}
	if (digits == 0)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t j = i + 1;

		if (s[j] == '+' || s[j] == '-')
			j++;
		if (!lex_is_digit((unsigned char)s[j]))
			return i; /* the caller sees the dangling 'e' */
		while (lex_is_digit((unsigned char)s[j]))
			j++;
		i = j;
	}
	return i;
}

/*
 * The extent of the "word" a number starts: the longest run of name
 * characters and dots, with a sign allowed right after an e or E.
 */
static size_t
lex_word_length(const char *s)
{
	size_t i = 0;

	for (;;) {
		int c = (unsigned char)s[i];

		if (lex_is_name_char(c) || c == '.') {
			i++;
		} else if ((c == '+' || c == '-') && i > 0 &&
		           (s[i - 1] == 'e' || s[i - 1] == 'E') &&
		           lex_is_digit((unsigned char)s[i + 1]) &&
		           lex_is_digit((unsigned char)s[0])) {
			i++;
		} else {
			return i;
		}
	}
}

static int
lex_number(sf_lexer *lx, sf_error *err)
{
	const char *s = lx->text + lx->pos;
	size_t n = lex_number_length(s), w = lex_word_length(s);
	int column = (int)lx->pos + 1;

	if (n == 0)
		w = w > 0 ? w : 1;
	if (n == 0 || w > n) {
		size_t shown = w > 40 ? 40 : w;

		if (n > 0 && lex_is_name_start((unsigned char)s[n]) &&
		    !(s[n] == 'e' || s[n] == 'E') && s[0] != '0')
			return sf_error_at(err, SF_ESYNTAX, NULL, 1, column,
			                   "malformed number '%.*s'; write "
			                   "'%.*s * %.*s' to multiply",
			                   (int)shown, s, (int)n, s,
			                   (int)(shown - n), s + n);
		if (n > 0 && (s[n] == 'e' || s[n] == 'E') &&
		    !lex_is_name_char((unsigned char)s[n + 1]) &&
		    s[n + 1] != '.')
			return sf_error_at(err, SF_ESYNTAX, NULL, 1, column,
			                   "malformed number '%.*s': the "
			                   "exponent has no digits",
			                   (int)shown, s);
		return sf_error_at(err, SF_ESYNTAX, NULL, 1, column,
		                   "malformed number '%.*s'", (int)shown, s);
	}
	lx->tok.type = SF_TOK_NUMBER;
	lx->tok.len = n;
	/* The shape is checked: a decimal literal, finite or too large. */
	if (sf_parse_decimal(s, n, &lx->tok.value) != SF_NUMBER_FINITE)
		return sf_error_at(err, SF_EVALUE, NULL, 1, column,
		                   "number '%.*s' is too large for a double",
		                   (int)(n > 40 ? 40 : n), s);
	return SF_OK;
}

static int
lex_string(sf_lexer *lx, sf_error *err)
{
	const char *s = lx->text + lx->pos;
	size_t i = 1;

	for (;;) {
		if (s[i] == '\0')
			return sf_error_at(err, SF_ESYNTAX, NULL, 1,
			                   (int)lx->pos + 1,
			                   "unterminated string: no closing "
			                   "quote (')");
		if (s[i] == '\'') {
			if (s[i + 1] != '\'')
				break;
			i++; /* '' is a quote */
		}
		i++;
	}
	lx->tok.type = SF_TOK_STRING;
	lx->tok.len = i + 1;
	return SF_OK;
}

/* Set a token of len bytes (an operator's one or two). */
static int
lex_op(sf_lexer *lx, sf_tok_type type, size_t len)
{
	lx->tok.type = type;
	lx->tok.len = len;
	return SF_OK;
}

/*
 * The operators, by their first byte: the token the byte makes alone, and
 * the token it makes followed by `second` ('<' and "<="); where it makes
 * none alone (SF_TOK_END), the hint that says what was meant.
 */
static const struct lex_operator {
	char first, second;
	sf_tok_type alone, pair;
	const char *hint;
} lex_operators[] = {
    {'+', '\0', SF_TOK_PLUS, SF_TOK_END, NULL},
    {'-', '\0', SF_TOK_MINUS, SF_TOK_END, NULL},
    {'*', '*', SF_TOK_STAR, SF_TOK_POW, NULL},
    {'/', '\0', SF_TOK_SLASH, SF_TOK_END, NULL},
    {'^', '\0', SF_TOK_POW, SF_TOK_END, NULL},
    {'(', '\0', SF_TOK_LPAREN, SF_TOK_END, NULL},
    {')', '\0', SF_TOK_RPAREN, SF_TOK_END, NULL},
    {',', '\0', SF_TOK_COMMA, SF_TOK_END, NULL},
    {'<', '=', SF_TOK_LT, SF_TOK_LE, NULL},
    {'>', '=', SF_TOK_GT, SF_TOK_GE, NULL},
    {'=', '=', SF_TOK_END, SF_TOK_EQ, "unexpected '='; did you mean '=='?"},
    {'!', '=', SF_TOK_NOT, SF_TOK_NE, NULL},
    {'&', '&', SF_TOK_END, SF_TOK_AND, "unexpected '&'; did you mean '&&'?"},
    {'|', '|', SF_TOK_END, SF_TOK_OR, "unexpected '|'; did you mean '||'?"},
};

/* The operator token at byte c (c1 the next byte), or the error of a
 * byte that starts no token. */
static int
lex_operator(sf_lexer *lx, int c, int c1, int column, sf_error *err)
{
	for (size_t k = 0; k < sizeof lex_operators / sizeof lex_operators[0];
	     k++) {
		const struct lex_operator *o = &lex_operators[k];

		if ((unsigned char)o->first != c)
			continue;
		if (o->second != '\0' && (unsigned char)o->second == c1)
			return lex_op(lx, o->pair, 2);
		if (o->alone != SF_TOK_END)
			return lex_op(lx, o->alone, 1);
		return sf_error_at(err, SF_ESYNTAX, NULL, 1, column, "%s",
		                   o->hint);
	}
	if (c == '"')
		return sf_error_at(err, SF_ESYNTAX, NULL, 1, column,
		                   "unexpected '\"'; strings are written in "
		                   "single quotes");
	if (isprint(c) && c < 128)
		return sf_error_at(err, SF_ESYNTAX, NULL, 1, column,
		                   "unexpected character '%c'", c);
	return sf_error_at(err, SF_ESYNTAX, NULL, 1, column,
	                   "unexpected byte 0x%02X", (unsigned)c);
}

int
sf_lex_next(sf_lexer *lx, sf_error *err)
{
	const char *t = lx->text;
	size_t p = lx->pos;
	int c, c1, rc;

	while (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r')
		p++;
	lx->tok.pos = p;
	lx->tok.len = 0;
	lx->tok.value = 0.0;
	lx->pos = p;
	c = (unsigned char)t[p];
	c1 = c != '\0' ? (unsigned char)t[p + 1] : '\0';
	if (c == '\0') {
		lx->tok.type = SF_TOK_END;
		return SF_OK;
	}
	if (lex_is_digit(c) || c == '.') {
		rc = lex_number(lx, err);
	} else if (lex_is_name_start(c)) {
		size_t n = 1;

		while (lex_is_name_char((unsigned char)t[p + n]))
			n++;
		rc = lex_op(lx, SF_TOK_NAME, n);
	} else if (c == '\'') {
		rc = lex_string(lx, err);
	} else {
		rc = lex_operator(lx, c, c1, (int)p + 1, err);
		if (rc != SF_OK)
			return rc;
	}
	lx->pos += lx->tok.len;
	return rc;
}
