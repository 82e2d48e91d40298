/*
 * score.c - a formula's folds' fits and scores from per-level Gram
 * matrices, its fit on every row, and the non-linear variants fitted over
 * their one constant (score.h).
 */
#include "discover/score.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The Gram matrices' stride. */
enum { MAXC = SF_SCORE_MAXC };

/* Points of the grid over a non-linear constant, and golden-section steps
 * between the best point's neighbours. */
enum { PROFILE_GRID = 17, PROFILE_STEPS = 28 };

/* A ridge on the unit diagonal of the scaled normal equations: collinear
 * columns still give a (minimum-norm-like) solution, and no well-posed fit
 * moves by more than about 1e-10 relative. */
static const double ridge = 1e-10;

/* ---- non-negative least squares ---------------------------------------- */

/*
 * Minimise sum w (X c - y)^2 over c >= 0 given G = X^T W X (k x k,
 * symmetric, stride MAXC) and h = X^T W y: boxls's active-set method on
 * the normal equations with the ridge on the scaled diagonal.  A column
 * that is zero on these rows gets 0.  The Gram form because a formula's
 * Gram matrix for every fold is a sum of per-level ones, computed once
 * per formula.
 */
static void
nnls(sf_score_ws *ws, size_t k, const double *G, const double *h, double *c)
{
	sf_boxls_solve_gram(ws->ls, k, G, MAXC, h, ridge, NULL, NULL, c);
}

/* ---- scoring a formula ------------------------------------------------- */

void
sf_score_ws_free(sf_score_ws *w)
{
	free(w->G);
	free(w->h);
	free(w->z);
	free(w->z2);
	free(w->ape);
	free(w->cluster);
	free(w->touched);
	free(w->seen);
	sf_boxls_free(w->ls);
}

int
sf_score_ws_alloc(sf_score_ws *w, const sf_grammar *g)
{
	size_t L = g->ch.nlevels + 1;

	w->G = malloc(L * MAXC * MAXC * sizeof *w->G);
	w->h = malloc(L * MAXC * sizeof *w->h);
	w->z = malloc((g->rows + 1) * sizeof *w->z);
	w->z2 = malloc((g->rows + 1) * sizeof *w->z2);
	w->ape = malloc((g->rows + 1) * sizeof *w->ape);
	w->cluster = calloc(g->d->nconfigs + 1, sizeof *w->cluster);
	w->touched = malloc((g->d->nconfigs + 1) * sizeof *w->touched);
	w->seen = calloc(g->d->nconfigs + 1, sizeof *w->seen);
	w->ls = sf_boxls_alloc(MAXC);
	return w->G != NULL && w->h != NULL && w->z != NULL && w->z2 != NULL &&
	       w->ape != NULL && w->cluster != NULL && w->touched != NULL &&
	       w->seen != NULL && w->ls != NULL;
}

void
sf_score_level_grams(const sf_grammar *g, sf_score_ws *ws,
                     const double *const *cols, size_t k, size_t upto)
{
	for (size_t l = 0; l <= upto; l++) {
		double *G = ws->G + l * MAXC * MAXC, *h = ws->h + l * MAXC;

		for (size_t a = 0; a < k; a++) {
			h[a] = 0;
			for (size_t q = 0; q <= a; q++)
				G[a * MAXC + q] = 0;
		}
		for (size_t r = g->ch.start[l]; r < g->ch.start[l + 1]; r++) {
			double w = g->w[r], wy = w * g->y[r];
			for (size_t a = 0; a < k; a++) {
				double xa = cols[a][r], wxa = w * xa;
				h[a] += xa * wy;
				for (size_t q = 0; q <= a; q++)
					G[a * MAXC + q] += wxa * cols[q][r];
			}
		}
		for (size_t a = 0; a < k; a++)
			for (size_t q = a + 1; q < k; q++)
				G[a * MAXC + q] = G[q * MAXC + a];
	}
}

/* Add level l's matrices to the running sums S, t. */
static void
accumulate(const sf_score_ws *ws, size_t l, size_t k, double *S, double *t)
{
	const double *G = ws->G + l * MAXC * MAXC, *h = ws->h + l * MAXC;

	for (size_t a = 0; a < k; a++) {
		t[a] += h[a];
		for (size_t q = 0; q < k; q++)
			S[a * MAXC + q] += G[a * MAXC + q];
	}
}

/* The loss sum w (f - y)^2 of c from the sums: yy - 2 c.h + c^T S c. */
static double
gram_loss(size_t k, const double *S, const double *t, double yy,
          const double *c)
{
	double loss = yy;

	for (size_t a = 0; a < k; a++) {
		double Sc = 0;
		for (size_t q = 0; q < k; q++)
			Sc += S[a * MAXC + q] * c[q];
		loss += c[a] * (Sc - 2 * t[a]);
	}
	return loss;
}

double
sf_score_ape_mean(const sf_grammar *g, sf_score_ws *ws, size_t from, size_t to,
                  double *var)
{
	double sum = 0, mean, n = (double)(to - from), ss = 0;
	size_t nc = 0;

	for (size_t r = from; r < to; r++)
		sum += ws->ape[r];
	mean = to > from ? sum / n : NAN;
	if (var == NULL)
		return mean;
	for (size_t r = from; r < to; r++) {
		size_t q = g->cfg[r];
		if (!ws->seen[q])
			ws->seen[q] = 1, ws->touched[nc++] = q;
		ws->cluster[q] += ws->ape[r] - mean;
	}
	for (size_t i = 0; i < nc; i++) {
		size_t q = ws->touched[i];
		ss += ws->cluster[q] * ws->cluster[q];
		ws->cluster[q] = 0;
		ws->seen[q] = 0;
	}
	*var = nc > 1 ? (double)nc / (double)(nc - 1) * ss / (n * n) : 0;
	return mean;
}

/* Mean |f - y| / |y| of c over sorted rows [from, to), and its variance
 * (sf_score_ape_mean). */
static double
mean_ape(const sf_grammar *g, sf_score_ws *ws, const double *const *cols,
         size_t k, const double *c, size_t from, size_t to, double *var)
{
	for (size_t r = from; r < to; r++) {
		double f = 0;
		for (size_t a = 0; a < k; a++)
			f += c[a] * cols[a][r];
		ws->ape[r] = fabs(f - g->y[r]) / fabs(g->y[r]);
	}
	return sf_score_ape_mean(g, ws, from, to, var);
}

double
sf_score_aicc(double chisqr, size_t n, size_t k)
{
	double dn = (double)n, dk = (double)k;

	if (n <= k + 1)
		return INFINITY;
	if (!(chisqr > 1e-300))
		chisqr = 1e-300;
	return dn * log(chisqr / dn) + 2 * dk +
	       2 * dk * (dk + 1) / (dn - dk - 1);
}

/*
 * The score of a formula whose folds' MAPE sum to sum (percent) and
 * whose fit x on every row has loss chisqr, columns cols[0..k) and kp
 * constants.  se (0 unless the folds' MAPE are asked for) sums the
 * folds' standard errors of the mean: their standard error is their
 * mean, not the root mean square over F, because the folds predict
 * overlapping rows (the top level's in every fold).
 * With detail, the loss is recomputed row by row (the sum from the Gram
 * matrices is enough to rank) and the MAPE on every row found too.
 */
static sf_score
finish(const sf_grammar *g, const double *const *cols, size_t k, size_t kp,
       const double *x, double sum, double se, double chisqr, int detail)
{
	double ape = 0, F = sf_chain_fold_weights(&g->ch);
	sf_score sc = {INFINITY, NAN, NAN, INFINITY, NAN, 0, 0};

	for (size_t r = 0; detail && r < g->rows; r++) {
		double v = 0;
		if (r == 0)
			chisqr = 0;
		for (size_t a = 0; a < k; a++)
			v += x[a] * cols[a][r];
		chisqr += g->w[r] * (v - g->y[r]) * (v - g->y[r]);
		ape += fabs(v - g->y[r]) / fabs(g->y[r]);
	}
	sc.score = sum / F;
	sc.se = 100 * se / F;
	sc.mape = detail ? 100 * ape / (double)g->rows : NAN;
	sc.chisqr = chisqr;
	sc.aicc = sf_score_aicc(chisqr, g->rows, kp);
	sc.valid = isfinite(sc.score) && isfinite(chisqr);
	if (!sc.valid)
		sc.score = INFINITY;
	for (size_t a = 1; a < k; a++)
		sc.redundant |= x[a] == 0;
	return sc;
}

/* score_linear's work once the level Gram matrices are in ws. */
static sf_score
score_grams(const sf_grammar *g, sf_score_ws *ws, const double *const *cols,
            size_t k, double *fold, double *c)
{
	double S[MAXC * MAXC] = {0}, t[MAXC] = {0}, x[MAXC];
	double sum = 0, se = 0, yy = 0;
	size_t f = 0, L = g->ch.nlevels;

	for (size_t l = 0; l < L; l++) {
		accumulate(ws, l, k, S, t);
		if (f < g->ch.nfolds && g->ch.last[f] == l) {
			double e, v = 0;
			nnls(ws, k, S, t, x);
			e = 100 * mean_ape(g, ws, cols, k, x,
			                   g->ch.start[l + 1], g->rows,
			                   fold != NULL ? &v : NULL);
			if (fold != NULL)
				fold[f] = e;
			sum += sf_chain_fold_weight(&g->ch, f) * e;
			se += sf_chain_fold_weight(&g->ch, f) * sqrt(v);
			f++;
		}
	}
	nnls(ws, k, S, t, x);
	if (c != NULL)
		memcpy(c, x, k * sizeof *c);
	for (size_t l = 0; l < L; l++)
		yy += g->yy[l];
	return finish(g, cols, k, k, x, sum, se, gram_loss(k, S, t, yy, x),
	              c != NULL);
}

/*
 * Score the linear formula with columns cols[0..k): each fold's fit
 * (levels up to last[f]) predicts the rows above; then the fit on every
 * row.  fold (may be NULL) gets each fold's MAPE, c (may be NULL) the
 * constants of the fit on every row.
 */
static sf_score
score_linear(const sf_grammar *g, sf_score_ws *ws, const double *const *cols,
             size_t k, double *fold, double *c)
{
	sf_score_level_grams(g, ws, cols, k, g->ch.nlevels - 1);
	return score_grams(g, ws, cols, k, fold, c);
}

/* ---- formulas: linear ones and their variants -------------------------- */

size_t
sf_entry_columns(const sf_grammar *g, const sf_entry *e, const double **cols)
{
	size_t k = 0;

	cols[k++] = g->ones;
	for (size_t q = 0; q < e->nterms; q++) {
		if (e->variant == SF_VARIANT_OVERLAP &&
		    (q == e->a || q == e->b))
			continue;
		if (e->variant == SF_VARIANT_EXPONENT && q == e->a)
			continue;
		cols[k++] = g->col + (size_t)e->atom[q] * g->rows;
	}
	if (e->variant != SF_VARIANT_NONE)
		cols[k++] = NULL;
	return k;
}

void
sf_entry_variant_column(const sf_grammar *g, const sf_entry *e, double theta,
                        double *out, size_t rows)
{
	const double *u = g->col + (size_t)e->atom[e->a] * g->rows;

	if (e->variant == SF_VARIANT_OVERLAP) {
		const double *v = g->col + (size_t)e->atom[e->b] * g->rows;
		for (size_t r = 0; r < rows; r++)
			out[r] = u[r] > theta * v[r] ? u[r] : theta * v[r];
	} else {
		const sf_factor *f = &g->shapes[e->atom[e->a]].f[e->b];
		const double *x = g->x + (size_t)f->input * g->rows;
		for (size_t r = 0; r < rows; r++)
			out[r] = u[r] * pow(x[r], theta - f->i);
	}
}

/* Border the Gram matrix G (stride MAXC) and h of the kp columns cols
 * with a last column x, over sorted rows [from, to): its products with
 * the others, with itself and with the output. */
static void
border(const sf_grammar *g, const double *const *cols, size_t kp,
       const double *x, size_t from, size_t to, double *G, double *h)
{
	double row[MAXC] = {0}, hx = 0;

	for (size_t r = from; r < to; r++) {
		double wx = g->w[r] * x[r];
		for (size_t a = 0; a < kp; a++)
			row[a] += wx * cols[a][r];
		row[kp] += wx * x[r];
		hx += wx * g->y[r];
	}
	for (size_t a = 0; a < kp; a++)
		G[kp * MAXC + a] = G[a * MAXC + kp] = row[a];
	G[kp * MAXC + kp] = row[kp];
	h[kp] = hx;
}

/*
 * Fit the variant at theta on levels 0..L: constants into c, the loss
 * returned, cols[k - 1] pointing at its column, computed for rows
 * [0, rows) (at least those levels).  ws->G holds the level Gram
 * matrices of the other columns (score_variant computes them once), so
 * only the variant's column's products are summed here.
 */
static double
variant_fit(const sf_grammar *g, sf_score_ws *ws, const sf_entry *e,
            const double **cols, size_t k, double theta, size_t L, size_t rows,
            double *c)
{
	double S[MAXC * MAXC] = {0}, t[MAXC] = {0}, yy = 0, loss;
	size_t kp = k - 1, end = g->ch.start[L + 1];

	sf_entry_variant_column(g, e, theta, ws->z, rows);
	cols[kp] = ws->z;
	for (size_t l = 0; l <= L; l++) {
		accumulate(ws, l, kp, S, t);
		yy += g->yy[l];
	}
	border(g, cols, kp, ws->z, 0, end, S, t);
	nnls(ws, k, S, t, c);
	loss = gram_loss(k, S, t, yy, c);
	return isfinite(loss) ? loss : INFINITY;
}

/* The theta in [lo, hi] that fits levels 0..L best: the best of a grid
 * (geometric for an overlap's ratio), refined by golden sections between
 * its neighbours. */
static double
variant_best(const sf_grammar *g, sf_score_ws *ws, const sf_entry *e,
             const double **cols, size_t k, size_t L)
{
	const int geometric = e->variant == SF_VARIANT_OVERLAP;
	const double lo = geometric ? log(e->lo) : e->lo;
	const double hi = geometric ? log(e->hi) : e->hi;
	const double phi = (sqrt(5.0) - 1) / 2;
	double c[MAXC], best = INFINITY, at = lo, a, b, x1, x2, f1, f2;
	const size_t end = g->ch.start[L + 1];
	size_t bi = 0;

#define THETA(u) (geometric ? exp(u) : (u))
	for (size_t q = 0; q < PROFILE_GRID; q++) {
		double u = lo + (hi - lo) * (double)q / (PROFILE_GRID - 1);
		double loss =
		    variant_fit(g, ws, e, cols, k, THETA(u), L, end, c);
		if (loss < best)
			best = loss, at = u, bi = q;
	}
	a = lo + (hi - lo) * (double)(bi > 0 ? bi - 1 : 0) / (PROFILE_GRID - 1);
	b = lo + (hi - lo) * (double)(bi + 1 < PROFILE_GRID ? bi + 1 : bi) /
	             (PROFILE_GRID - 1);
	x1 = b - phi * (b - a);
	x2 = a + phi * (b - a);
	f1 = variant_fit(g, ws, e, cols, k, THETA(x1), L, end, c);
	f2 = variant_fit(g, ws, e, cols, k, THETA(x2), L, end, c);
	for (size_t q = 0; q < PROFILE_STEPS; q++) {
		if (f1 < f2) {
			b = x2, x2 = x1, f2 = f1;
			x1 = b - phi * (b - a);
			f1 = variant_fit(g, ws, e, cols, k, THETA(x1), L, end,
			                 c);
		} else {
			a = x1, x1 = x2, f1 = f2;
			x2 = a + phi * (b - a);
			f2 = variant_fit(g, ws, e, cols, k, THETA(x2), L, end,
			                 c);
		}
	}
	if (f1 < best)
		best = f1, at = x1;
	if (f2 < best)
		at = x2;
	return THETA(at);
#undef THETA
}

/* Score a variant as score_linear does a linear formula, its constant
 * fitted anew for every fold; theta (may be NULL) gets the value on every
 * row. */
static sf_score
score_variant(const sf_grammar *g, sf_score_ws *ws, const sf_entry *e,
              double *fold, double *c, double *theta)
{
	const double *cols[MAXC];
	size_t k = sf_entry_columns(g, e, cols), L = g->ch.nlevels;
	double x[MAXC], sum = 0, se = 0, th, loss;
	sf_score sc;

	sf_score_level_grams(g, ws, cols, k - 1, L - 1);
	for (size_t f = 0; f < g->ch.nfolds; f++) {
		size_t l = g->ch.last[f];
		double err, v = 0;

		th = variant_best(g, ws, e, cols, k, l);
		variant_fit(g, ws, e, cols, k, th, l, g->rows, x);
		err = 100 * mean_ape(g, ws, cols, k, x, g->ch.start[l + 1],
		                     g->rows, fold != NULL ? &v : NULL);
		if (fold != NULL)
			fold[f] = err;
		sum += sf_chain_fold_weight(&g->ch, f) * err;
		se += sf_chain_fold_weight(&g->ch, f) * sqrt(v);
	}
	th = variant_best(g, ws, e, cols, k, L - 1);
	loss = variant_fit(g, ws, e, cols, k, th, L - 1, g->rows, x);
	if (c != NULL)
		memcpy(c, x, k * sizeof *c);
	if (theta != NULL)
		*theta = th;
	sc = finish(g, cols, k, e->k, x, sum, se, loss, c != NULL);
	if (e->variant == SF_VARIANT_OVERLAP) {
		/* one side never wins: the max is the other term alone */
		const double *u = g->col + (size_t)e->atom[e->a] * g->rows;
		const double *v = g->col + (size_t)e->atom[e->b] * g->rows;
		size_t first = 0, second = 0;

		for (size_t r = 0; r < g->rows; r++) {
			first += u[r] > th * v[r];
			second += th * v[r] > u[r];
		}
		sc.redundant |= first == 0 || second == 0;
	}
	return sc;
}

void
sf_score_entry(const sf_grammar *g, sf_score_ws *ws, sf_entry *e, double *fold,
               double *c, double *theta)
{
	const double *cols[MAXC];
	size_t k;

	if (e->variant != SF_VARIANT_NONE) {
		e->sc = score_variant(g, ws, e, fold, c, theta);
		return;
	}
	k = sf_entry_columns(g, e, cols);
	e->sc = score_linear(g, ws, cols, k, fold, c);
	/* The AICc counts the constants, which the columns are here. */
}

void
sf_score_child(const sf_grammar *g, sf_score_ws *ws, const sf_score_ws *P,
               const double *const *pcols, size_t kp, sf_entry *e)
{
	const double *cols[MAXC], *x;
	size_t L = g->ch.nlevels;

	memcpy(cols, pcols, kp * sizeof *cols);
	x = cols[kp] = g->col + (size_t)e->added * g->rows;
	for (size_t l = 0; l < L; l++) {
		const double *PG = P->G + l * MAXC * MAXC,
		             *ph = P->h + l * MAXC;
		double *G = ws->G + l * MAXC * MAXC, *h = ws->h + l * MAXC;

		for (size_t a = 0; a < kp; a++) {
			memcpy(G + a * MAXC, PG + a * MAXC, kp * sizeof *G);
			h[a] = ph[a];
		}
		border(g, pcols, kp, x, g->ch.start[l], g->ch.start[l + 1], G,
		       h);
	}
	e->sc = score_grams(g, ws, cols, kp + 1, NULL, NULL);
}
