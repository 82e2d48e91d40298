/*
 * svg.h - a small writer of SVG documents, and the axis arithmetic of
 * charts: mapping data to pixels, and where ticks go.
 *
 * A document is built in memory, element by element, then written whole
 * and atomically (a temporary file beside the target, renamed over it), so
 * a failure never leaves half a picture.  Text is escaped; numbers are
 * written in the C locale's format (scalefit never changes LC_NUMERIC).
 * Points that are not finite break a polyline rather than corrupt it.
 *
 * Ticks: a linear axis gets steps of 1, 2 or 5 x 10^k; a log axis gets
 * decades (with 2..9 as minor ticks) when it spans 3 decades or more,
 * 1, 2, 5 x 10^k when it spans one to three, linear steps placed on the
 * log scale when it spans less than one, and powers of two when asked.
 * A log axis's outermost minor ticks beyond its first and last major ones
 * are labelled too (when their labels do not touch), so both ends show a
 * value.
 *
 * Ownership: sf_svg_new() returns a document the caller frees with
 * sf_svg_free().  An allocation failure is remembered and reported by
 * sf_svg_text_of() and sf_svg_save(); the drawing calls never fail.
 * Thread safety: a document belongs to one thread; the axis functions are
 * pure.
 */
#ifndef SF_SVG_H
#define SF_SVG_H

#include "base/error.h"

#include <stddef.h>

typedef struct sf_svg sf_svg;

/* A new document of width x height pixels (white background, a
 * sans-serif font), or NULL when out of memory. */
sf_svg *sf_svg_new(double width, double height);

/* Release s.  Accepts NULL. */
void sf_svg_free(sf_svg *s);

/* Append markup as is (printf-style); the caller escapes any text. */
void sf_svg_printf(sf_svg *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Append text (escaped) as a <text> at (x, y) with the given extra
 * attributes (markup, may be ""). */
void sf_svg_text(sf_svg *s, double x, double y, const char *attrs,
                 const char *text);

/* A <line> from (x1, y1) to (x2, y2) in pixels, drawn in colour stroke,
 * with the given extra attributes (markup, may be ""). */
void sf_svg_line(sf_svg *s, double x1, double y1, double x2, double y2,
                 const char *stroke, const char *attrs);

/* A path through the n points (x[k], y[k]) in pixels; a non-finite point
 * ends one piece and the next finite one starts another.  attrs are the
 * extra attributes (stroke, fill...). */
void sf_svg_polyline(sf_svg *s, const double *x, const double *y, size_t n,
                     const char *attrs);

/* A closed polygon through the n points (non-finite points skipped). */
void sf_svg_polygon(sf_svg *s, const double *x, const double *y, size_t n,
                    const char *attrs);

/* Append text escaped for XML (no element around it). */
void sf_svg_escaped(sf_svg *s, const char *text);

/* The finished document ("</svg>" appended once) and its length, or NULL
 * when an allocation failed.  The text belongs to s. */
const char *sf_svg_text_of(sf_svg *s, size_t *length);

/* Finish s and write it to path atomically.  Returns SF_OK, SF_ENOMEM or
 * SF_EIO (err names the file). */
int sf_svg_save(sf_svg *s, const char *path, sf_error *err);

/* ---- axes -----------------------------------------------------------------
 */

/* A data range [lo, hi] drawn from pixel `from` to pixel `to` (to < from
 * for a vertical axis, whose pixels grow downwards). */
typedef struct sf_axis {
	double lo, hi;
	int log;
	double from, to;
} sf_axis;

/* The pixel of data value v (not clamped). */
double sf_axis_map(const sf_axis *a, double v);

/*
 * The ticks of axis a: up to max_major major ticks (labelled) into major
 * and up to max_minor minor ones into minor, each increasing and inside
 * [lo, hi].  powers_of_two asks for 2^k majors on a log axis.  Returns the
 * number of major ticks; *nminor gets the number of minor ones.
 */
size_t sf_axis_ticks(const sf_axis *a, int powers_of_two, double *major,
                     size_t max_major, double *minor, size_t max_minor,
                     size_t *nminor);

/*
 * The label of tick value v as SVG text content: plain digits ("0.5",
 * "128", "2000") for values from 1e-3 to below 1e5, else a mantissa and
 * a superscript power of ten ("2×10<tspan ...>5</tspan>").  Escaped,
 * ready to go inside a <text>.  Writes at most size bytes to buf.
 */
void sf_axis_label(double v, char *buf, size_t size);

#endif /* SF_SVG_H */
