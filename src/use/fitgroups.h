/*
 * fitgroups.h - the fits of a fit file that may hold groups: a plain
 * FIT.json (fitfile.h) or the groups file of a --by fit ({"by", "groups":
 * [...]}, scalefit(1); run/fleet.h writes it), each group's report a fit
 * file of its own.  predict and scale read their fits through it, with
 * --group choosing groups.
 *
 * The file is read once; a plain fit file never becomes a whole jansson
 * tree here (its rows may be millions): only a groups file is parsed as
 * one, and each selected group's report parsed again as a fit file whose
 * messages name "FILE[LABEL]" and count positions within the group.
 *
 * Ownership: a set owns its fits, labels and keys (sf_fitfile_set_free).
 * Thread safety: a loaded set is read-only and may be shared.
 */
#ifndef SF_FITGROUPS_H
#define SF_FITGROUPS_H

#include "base/error.h"
#include "use/fitfile.h"

#include <jansson.h>
#include <stddef.h>

/*
 * The fits of a file that may hold groups (a --by fit: {"by", "groups":
 * [...]}, scalefit(1)).  For a plain fit file: its one fit, labels[0]
 * NULL.  For a groups file: the groups that fitted and match selector
 * (NULL: every group that fitted; "model=cnn" or "model=cnn,gpu=v100":
 * those whose key has these values, numbers compared as numbers; or a
 * label as the summary prints it), in file order, with their labels and
 * keys.  A selector that names a failed group is an error.  An
 * ensemble's file ({"ensemble": {"members": [{"model", "weight"}]},
 * "fits": [...]}, run/fit.h) is one fit, whose members are its fits
 * (fitfile.h; a selector is refused).
 */
typedef struct sf_fitfile_set {
	sf_fitfile **fits;
	char **labels; /* each fit's group label; NULL for a plain file */
	json_t *keys;  /* the groups' keys, an array; NULL for a plain file */
	size_t count;
	int grouped; /* 1: the file is a groups file */
} sf_fitfile_set;

/*
 * Read the fits of the file at path, as above, into a new set (free with
 * sf_fitfile_set_free).  Returns SF_OK, an error of sf_fitfile_load(),
 * SF_EUSAGE (a selector for a plain file), SF_ENAME (no group matches:
 * with the nearest label), SF_EFAIL (the selected group failed to fit, or
 * every group did).
 */
int sf_fitfile_load_groups(const char *path, const char *selector,
                           sf_fitfile_set **out, sf_error *err);

/* The same with flags (enum sf_fitfile_flag) for a plain file's fit. */
int sf_fitfile_load_groups_flags(const char *path, const char *selector,
                                 unsigned flags, sf_fitfile_set **out,
                                 sf_error *err);

/*
 * The same for a file whose text (NUL-terminated) is already in memory,
 * such as a fit just made: path names it in messages and the file is not
 * read.  With text NULL, sf_fitfile_load_groups_flags().  Nothing is kept
 * of text.
 */
int sf_fitfile_load_groups_text(const char *path, const char *text,
                                const char *selector, unsigned flags,
                                sf_fitfile_set **out, sf_error *err);

/* One fit file's fit (fitfile.h) from its text in memory, named path;
 * with text NULL, sf_fitfile_load_flags() of path. */
int sf_fitfile_load_text(const char *path, const char *text, unsigned flags,
                         sf_fitfile **out, sf_error *err);

/*
 * One ensemble's fit (fitfile.h) of the k >= 1 fits with weights (>= 0,
 * summing to 1), at path and called name: what they share, their first's
 * inputs, output, unit, loss and rows.  The fits and weights are moved
 * into it, also on failure (SF_ENOMEM: all freed).  A member may hold the
 * inputs in another order than the first (sf_fitfile_member_columns).
 */
int sf_fitfile_ensemble(const char *path, const char *name, sf_fitfile **fits,
                        double *weights, size_t k, sf_fitfile **out,
                        sf_error *err);

/* Release s.  Accepts NULL. */
void sf_fitfile_set_free(sf_fitfile_set *s);

/* Whether one group object of a groups file matches selector (above). */
int sf_fitfile_group_matches(const json_t *group, const char *selector);

#endif /* SF_FITGROUPS_H */
