/*
 * codegen.h - the DAG the compiler builds (compile.c) and the generation
 * of a program's code from it (codegen.c).  Private to those two files.
 *
 * Every node of the DAG is an operator on earlier nodes (ids grow from
 * operands to users), with its class: whether it depends on data, on
 * parameters, on both (a row node) or on neither (a constant).
 *
 * Ownership: sf_codegen_generate() fills the caller's program; the DAG
 * and the roots stay the caller's.
 */
#ifndef SF_EXPR_CODEGEN_H
#define SF_EXPR_CODEGEN_H

#include "expr/internal.h"

#include <stddef.h>
#include <stdint.h>

/* Node classes: what a node depends on. */
enum { CLS_CONST = 0, CLS_DATA = 1, CLS_PARAM = 2, CLS_ROW = 3 };

typedef struct dnode {
	uint8_t op;
	uint8_t cls;
	int32_t a, b, c;
	uint32_t index; /* input slot or parameter */
	double value;   /* constants */
} dnode;

typedef struct dag {
	dnode *nodes;
	size_t n, cap;
	int32_t *table; /* hash table of node ids, -1 when empty */
	size_t tcap;
	int simplify;
	int failed; /* out of memory: results are garbage, node 0 */
} dag;

/* Node id of g. */
static inline const dnode *
N(const dag *g, int32_t id)
{
	return &g->nodes[id];
}

/*
 * Generate p's code from g: the nroots roots are p's outputs, the first
 * nvalues of them the values (the rest their derivatives).  Fills what p
 * uses, its constants, its columns and its three stages, then plans its
 * tables (sf_level_plan).  p's per-input and per-parameter tables must be
 * allocated.  Returns SF_OK or SF_ENOMEM.
 */
int sf_codegen_generate(dag *g, sf_program *p, const int32_t *roots,
                        size_t nroots, size_t nvalues);

#endif /* SF_EXPR_CODEGEN_H */
