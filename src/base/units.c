/*
 * units.c - units of work over the ranks of an MPI job, or in a loop.
 *
 * The MPI protocol.  Every collective step starts with an agreement: each
 * rank contributes a token (0: "I am in sf_units_run"; 1 + status: "I am
 * at the end of the run with this exit status") and all learn the largest
 * and smallest.  When they differ, some rank stopped early (an input it
 * could not read, say) while others went on: the ranks in sf_units_run
 * return an error instead of waiting for a partner that will never come,
 * and the run ends on every rank with an error status.  So a failing rank
 * never leaves the others hanging.
 */
#include "base/units.h"
#include "base/rng.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#ifdef SF_WITH_MPI
#include <mpi.h>
#endif

/* The stream of the PCG32 generator that derives units' seeds. */
static const uint64_t units_seed_stream = 0x756e697473ULL; /* "units" */

uint64_t
sf_units_seed(uint64_t seed, uint64_t stream, size_t index)
{
	sf_rng rng;
	uint64_t hi, lo;

	sf_rng_seed(&rng, seed ^ (stream * 0x9e3779b97f4a7c15ULL),
	            units_seed_stream + (uint64_t)index);
	hi = sf_rng_next(&rng);
	lo = sf_rng_next(&rng);
	return hi << 32 | lo;
}

/*
 * Thread state: how deep the calling thread is in units of work.  Units
 * nest (a group's fit runs its bootstrap replicates, a fold's fit its
 * lambda search); only the outermost level is spread over the ranks, since
 * an inner level runs on one rank while the others are busy elsewhere.
 * Per thread, so that two threads of a program running fits through the
 * C API at once each count their own.
 */
static _Thread_local int units_depth;

/* Run unit index of fn, counting the depth. */
static int
run_unit(sf_unit_fn fn, void *ctx, size_t index, char **out, size_t *size,
         sf_error *err)
{
	int rc;

	units_depth++;
	rc = fn(ctx, index, out, size, err);
	units_depth--;
	return rc;
}

/* The units of this process, one after the other. */
static int
run_serial(size_t n, sf_unit_fn fn, void *ctx, char **results, size_t *sizes,
           sf_error *err)
{
	for (size_t i = 0; i < n; i++)
		results[i] = NULL;
	for (size_t i = 0; i < n; i++) {
		int rc = run_unit(fn, ctx, i, &results[i], &sizes[i], err);
		if (rc != SF_OK) {
			for (size_t k = 0; k <= i; k++) {
				free(results[k]);
				results[k] = NULL;
			}
			return rc;
		}
	}
	return SF_OK;
}

/*
 * Open MPI 4.1 talks to its daemon on this machine (PMIx) over a TCP
 * connection to the loopback address, without TCP_NODELAY: in
 * MPI_Finalize a rank sends a few small messages in a row, the second
 * waits (Nagle) for the acknowledgement of the first, and the daemon
 * delays that by 40 ms (Linux's delayed ACK) - measured with strace, the
 * messages sat 40 ms in the rank's socket, and MPI_Finalize took 45 ms of
 * a two-rank run's 0.13 s of start and end (3-10 ms with this).  Setting
 * TCP_NODELAY on this process's TCP connections to the loopback address
 * changes only how their bytes are cut into segments, never what they
 * carry; connections to other machines (a network transport's, which sets
 * it itself) are left alone.  The descriptors are this process's own, so
 * a low bound finds them: MPI opens them right after the standard ones.
 */
void
sf_units_loopback_nodelay(void)
{
	for (int fd = 3; fd < 256; fd++) {
		struct sockaddr_storage peer;
		socklen_t length = sizeof peer, tl = sizeof(int);
		int type = 0, one = 1, loopback = 0;

		if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0 ||
		    type != SOCK_STREAM ||
		    getpeername(fd, (struct sockaddr *)&peer, &length) != 0)
			continue;
		if (peer.ss_family == AF_INET) {
			const struct sockaddr_in *a =
			    (const struct sockaddr_in *)&peer;
			loopback = (ntohl(a->sin_addr.s_addr) >> 24) == 127;
		} else if (peer.ss_family == AF_INET6) {
			const struct sockaddr_in6 *a =
			    (const struct sockaddr_in6 *)&peer;
			loopback = IN6_IS_ADDR_LOOPBACK(&a->sin6_addr);
		}
		if (loopback)
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
			           sizeof one);
	}
}

#ifndef SF_WITH_MPI

int
sf_units_run(size_t n, sf_unit_fn fn, void *ctx, char **results, size_t *sizes,
             sf_error *err)
{
	return run_serial(n, fn, ctx, results, sizes, err);
}

int
sf_units_spread(void)
{
	return 0;
}

int
sf_units_run_to_root(size_t n, sf_unit_fn fn, void *ctx, char **results,
                     size_t *sizes, sf_error *err)
{
	return run_serial(n, fn, ctx, results, sizes, err);
}

int
sf_units_read(sf_read_fn read, void *ctx, char **out, size_t *size,
              sf_error *err)
{
	return read(ctx, out, size, err);
}

int
sf_units_sharing(void)
{
	return 0;
}

int
sf_units_init(int *argc, char ***argv, sf_error *err)
{
	/* Open MPI's, MPICH's (PMI) and Slurm's names for the job size. */
	static const char *const names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
	                                    "PMIX_SIZE"};

	(void)argc;
	(void)argv;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const char *v = getenv(names[i]);
		if (v != NULL && strtol(v, NULL, 10) > 1)
			return sf_error_set(
			    err, SF_EUSAGE,
			    "this scalefit was built without MPI but runs as "
			    "one of %ld copies (%s): each would do the whole "
			    "work and write the same outputs; build with "
			    "'./configure --with-mpi', or run it without "
			    "mpirun",
			    strtol(v, NULL, 10), names[i]);
	}
	return SF_OK;
}

int
sf_units_finish(int status)
{
	return status;
}

void
sf_units_abort(int status)
{
	(void)status;
}

int
sf_units_rank(void)
{
	return 0;
}

int
sf_units_ranks(void)
{
	return 1;
}

int
sf_units_mpi(void)
{
	return 0;
}

#else /* SF_WITH_MPI */

/* The most bytes one MPI call carries, since counts are ints (2 GiB - 1
 * at most); a test build shrinks it to send a few kilobytes in pieces. */
#ifndef SF_UNITS_CHUNK
#define SF_UNITS_CHUNK ((size_t)1 << 30)
#endif

/*
 * Process state, as MPI's own is: set once the ranks have met at the end
 * of the run (after an early stop was seen inside sf_units_run), so that
 * sf_units_finish does not wait for a second meeting.
 */
static int units_met_at_end;

/*
 * The counter of the work queue: an MPI window on rank 0, made by the
 * first spread call and kept to the end of the run (sf_units_finish),
 * since making one is a collective step of its own (a shared-memory
 * segment within a node, 0.4-3 ms; discover makes a dozen calls).  Every
 * rank makes it in the same call (after the agreement at its start), so
 * every rank holds it or none does.
 */
static MPI_Win units_win;
static int64_t *units_counter;
static int units_have_win;

enum { TOKEN_UNITS = 0 };

/*
 * Wait for request q without spinning: a rank that waits long (for rank 0
 * to write a report, for the slowest rank's last unit) would otherwise
 * keep a core busy that the others, or other work, could use.  Polls
 * every 0.1 ms at first, then every 2 ms.
 */
static void
wait_gently(MPI_Request *q)
{
	struct timespec pause = {0, 100000};
	int done = 0;

	for (int polls = 0;; polls++) {
		MPI_Test(q, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		if (polls == 50)
			pause.tv_nsec = 2000000;
		nanosleep(&pause, NULL);
	}
}

/* Every rank's token: 0 when all agree on TOKEN_UNITS, else the largest
 * (1 + the worst exit status of the ranks that stopped). */
static int
agree(int token, int *largest)
{
	int v[2] = {token, -token}, r[2];
	MPI_Request q;

	MPI_Iallreduce(v, r, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &q);
	wait_gently(&q);
	*largest = r[0];
	return r[0] == token && -r[1] == token;
}

int
sf_units_rank(void)
{
	int flag = 0, rank = 0;

	MPI_Initialized(&flag);
	if (flag)
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	return rank;
}

int
sf_units_ranks(void)
{
	int flag = 0, size = 1;

	MPI_Initialized(&flag);
	if (flag)
		MPI_Comm_size(MPI_COMM_WORLD, &size);
	return size;
}

int
sf_units_mpi(void)
{
	return 1;
}

int
sf_units_init(int *argc, char ***argv, sf_error *err)
{
	int provided;

	/* Only the main thread calls MPI; OpenMP threads compute. */
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
	    MPI_SUCCESS)
		return sf_error_set(err, SF_EINTERNAL, "MPI_Init failed");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	sf_units_loopback_nodelay();
	return SF_OK;
}

int
sf_units_finish(int status)
{
	int flag = 0, largest = 0;

	MPI_Initialized(&flag);
	if (!flag)
		return status;
	if (!units_met_at_end && sf_units_ranks() > 1) {
		agree(1 + status, &largest);
		/* Another rank stopped with an error: so does this one. */
		if (largest - 1 > status)
			status = largest - 1;
	}
	if (units_have_win)
		MPI_Win_free(&units_win);
	units_have_win = 0;
	MPI_Finalize();
	return status;
}

void
sf_units_abort(int status)
{
	int flag = 0;

	MPI_Initialized(&flag);
	if (flag && sf_units_ranks() > 1)
		MPI_Abort(MPI_COMM_WORLD, status);
}

/* A rank's results travel as: int64 code, the failing unit (uint64),
 * the sf_error, then (uint64 index, uint64 size, bytes) per unit. */
typedef struct packer {
	char *buf;
	size_t len, cap;
} packer;

static int
pack(packer *p, const void *data, size_t n)
{
	if (p->len + n > p->cap) {
		size_t cap = (p->len + n) * 2 + 4096;
		char *more = realloc(p->buf, cap);
		if (more == NULL)
			return SF_ENOMEM;
		p->buf = more;
		p->cap = cap;
	}
	memcpy(p->buf + p->len, data, n);
	p->len += n;
	return SF_OK;
}

typedef struct status_record {
	int64_t code;
	uint64_t unit;
	sf_error err;
} status_record;

/*
 * Take unit indices from the counter at rank 0 until none are left or a
 * unit fails; pack each result.  Guided chunks: a rank takes an eighth of
 * the units it last saw left, shared by the ranks (at least one), so the
 * counter is touched a few dozen times per rank rather than once per
 * unit, and the last units still go one by one to whichever rank is free.
 */
static int
work(size_t n, sf_unit_fn fn, void *ctx, packer *p, status_record *st)
{
	int64_t got, seen = 0, chunk;
	const int64_t ranks = sf_units_ranks();
	MPI_Win win;
	int rc = SF_OK;

	if (!units_have_win) {
		MPI_Win_allocate(sf_units_rank() == 0 ? sizeof *units_counter
		                                      : 0,
		                 sizeof *units_counter, MPI_INFO_NULL,
		                 MPI_COMM_WORLD, &units_counter, &units_win);
		units_have_win = 1;
	}
	win = units_win;
	/* No rank still takes from the last call's counter: each left it
	 * for the exchange of results, a collective step. */
	if (sf_units_rank() == 0) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		*units_counter = 0;
		MPI_Win_unlock(0, win);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	for (;;) {
		chunk = ((int64_t)n - seen) / (8 * ranks);
		if (chunk < 1)
			chunk = 1;
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		MPI_Fetch_and_op(&chunk, &got, MPI_INT64_T, 0, 0, MPI_SUM, win);
		MPI_Win_unlock(0, win);
		if (got < 0 || (uint64_t)got >= n)
			break;
		seen = got + chunk;
		for (int64_t u = got; u < got + chunk && (uint64_t)u < n; u++) {
			char *out = NULL;
			size_t size = 0;
			uint64_t head[2];

			rc =
			    run_unit(fn, ctx, (size_t)u, &out, &size, &st->err);
			head[0] = (uint64_t)u;
			head[1] = size;
			if (rc == SF_OK &&
			    (pack(p, head, sizeof head) != SF_OK ||
			     pack(p, out, size) != SF_OK))
				rc = sf_error_set(&st->err, SF_ENOMEM,
				                  "out of memory");
			free(out);
			if (rc != SF_OK) {
				st->code = rc;
				st->unit = (uint64_t)u;
				break;
			}
		}
		if (rc != SF_OK)
			break;
	}
	return rc;
}

/*
 * Every rank's packed results (rank r's lengths[r] bytes, total in all)
 * into all, rank after rank: on every rank, or on rank 0 only (all is
 * NULL on the others).  MPI's counts and displacements are ints, so one
 * MPI_Allgatherv (MPI_Gatherv) carries them when total fits in
 * SF_UNITS_CHUNK bytes; more travel rank by rank in pieces of at most
 * that: a broadcast from each rank, or its messages to rank 0.
 */
static void
exchange(const char *mine, const long long *lengths, long long total,
         int to_root, char *all)
{
	const int ranks = sf_units_ranks(), me = sf_units_rank();
	size_t at = 0;

	if ((unsigned long long)total <= SF_UNITS_CHUNK) {
		int *counts = malloc((size_t)ranks * sizeof *counts);
		int *displs = malloc((size_t)ranks * sizeof *displs);

		/* Out of memory: the others would wait. */
		if (counts == NULL || displs == NULL)
			MPI_Abort(MPI_COMM_WORLD, 3);
		for (int r = 0, off = 0; r < ranks; r++) {
			counts[r] = (int)lengths[r];
			displs[r] = off;
			off += counts[r];
		}
		if (to_root)
			MPI_Gatherv(mine, counts[me], MPI_BYTE, all, counts,
			            displs, MPI_BYTE, 0, MPI_COMM_WORLD);
		else
			MPI_Allgatherv(mine, counts[me], MPI_BYTE, all, counts,
			               displs, MPI_BYTE, MPI_COMM_WORLD);
		free(counts);
		free(displs);
		return;
	}
	for (int r = 0; r < ranks; r++) {
		const size_t length = (size_t)lengths[r];

		for (size_t done = 0; done < length; done += SF_UNITS_CHUNK) {
			const size_t left = length - done;
			const int piece =
			    (int)(left < SF_UNITS_CHUNK ? left
			                                : SF_UNITS_CHUNK);

			if (!to_root) {
				if (r == me)
					memcpy(all + at + done, mine + done,
					       (size_t)piece);
				MPI_Bcast(all + at + done, piece, MPI_BYTE, r,
				          MPI_COMM_WORLD);
			} else if (r == 0 && me == 0) {
				memcpy(all + at + done, mine + done,
				       (size_t)piece);
			} else if (r != 0 && me == r) {
				MPI_Send(mine + done, piece, MPI_BYTE, 0, 0,
				         MPI_COMM_WORLD);
			} else if (r != 0 && me == 0) {
				MPI_Recv(all + at + done, piece, MPI_BYTE, r, 0,
				         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			}
		}
		at += length;
	}
}

/* Units over the ranks; results to every rank, or to rank 0 only. */
static int
run_mpi(size_t n, sf_unit_fn fn, void *ctx, char **results, size_t *sizes,
        int to_root, sf_error *err)
{
	const int ranks = sf_units_ranks(), me = sf_units_rank();
	const int receives = !to_root || me == 0;
	status_record st = {0, 0, {0}}, *all_st = NULL;
	packer p = {NULL, 0, 0};
	int largest, rc = SF_OK;
	long long *lengths = NULL, total = 0, mine;
	char *all = NULL;

	for (size_t i = 0; i < n; i++)
		results[i] = NULL;
	if (!agree(TOKEN_UNITS, &largest)) {
		units_met_at_end = 1;
		return sf_error_set(
		    err, largest - 1 == SF_EFAIL ? SF_EFAIL : SF_EUSAGE,
		    "another rank of the job stopped with "
		    "exit status %d before this step",
		    largest - 1);
	}
	work(n, fn, ctx, &p, &st);
	/* Every rank learns of a failed unit: the lowest one's error. */
	all_st = malloc((size_t)ranks * sizeof *all_st);
	lengths = malloc((size_t)ranks * sizeof *lengths);
	if (all_st == NULL || lengths == NULL)
		MPI_Abort(MPI_COMM_WORLD, 3); /* the others would wait */
	{
		MPI_Request q;
		MPI_Iallgather(&st, (int)sizeof st, MPI_BYTE, all_st,
		               (int)sizeof st, MPI_BYTE, MPI_COMM_WORLD, &q);
		wait_gently(&q);
	}
	{
		const status_record *worst = NULL;
		for (int r = 0; r < ranks; r++)
			if (all_st[r].code != SF_OK &&
			    (worst == NULL || all_st[r].unit < worst->unit))
				worst = &all_st[r];
		if (worst != NULL) {
			if (err != NULL)
				*err = worst->err;
			rc = (int)worst->code;
			goto done;
		}
	}
	mine = (long long)p.len;
	MPI_Allgather(&mine, 1, MPI_LONG_LONG, lengths, 1, MPI_LONG_LONG,
	              MPI_COMM_WORLD);
	for (int r = 0; r < ranks; r++)
		total += lengths[r];
	if (receives && (all = malloc((size_t)total + 1)) == NULL)
		MPI_Abort(MPI_COMM_WORLD, 3);
	exchange(p.buf, lengths, total, to_root, all);
	/* Rank after rank, each rank's units: the records in a row. */
	for (const char *q = all, *end = receives ? all + total : all;
	     q < end && rc == SF_OK;) {
		uint64_t head[2];
		memcpy(head, q, sizeof head);
		q += sizeof head;
		if ((results[head[0]] = malloc(head[1] + 1)) == NULL) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			break;
		}
		memcpy(results[head[0]], q, head[1]);
		sizes[head[0]] = head[1];
		q += head[1];
	}
done:
	if (rc != SF_OK)
		for (size_t i = 0; i < n; i++) {
			free(results[i]);
			results[i] = NULL;
		}
	free(all);
	free(p.buf);
	free(all_st);
	free(lengths);
	return rc;
}

int
sf_units_spread(void)
{
	return sf_units_ranks() > 1 && units_depth == 0;
}

int
sf_units_run(size_t n, sf_unit_fn fn, void *ctx, char **results, size_t *sizes,
             sf_error *err)
{
	if (!sf_units_spread())
		return run_serial(n, fn, ctx, results, sizes, err);
	return run_mpi(n, fn, ctx, results, sizes, 0, err);
}

int
sf_units_run_to_root(size_t n, sf_unit_fn fn, void *ctx, char **results,
                     size_t *sizes, sf_error *err)
{
	if (!sf_units_spread())
		return run_serial(n, fn, ctx, results, sizes, err);
	return run_mpi(n, fn, ctx, results, sizes, 1, err);
}

/* Process state: 1 while rank 0 runs a reader for sf_units_read, so that
 * a read the reader makes is its own (the others are not in it). */
static int units_reading;

int
sf_units_sharing(void)
{
	return sf_units_spread() && !units_reading;
}

/* The token of sf_units_read's agreement: a rank that reads while
 * another runs units (their commands differ) is out of step. */
enum { TOKEN_READ = -1 };

/* Rank 0's read as it travels: its code, size and error. */
typedef struct read_record {
	int64_t code;
	uint64_t size;
	sf_error err;
} read_record;

/* Rank 0's size bytes at bytes to every rank, in pieces of at most
 * SF_UNITS_CHUNK. */
static void
bcast_bytes(char *bytes, size_t size)
{
	for (size_t at = 0; at < size; at += SF_UNITS_CHUNK) {
		size_t n =
		    size - at < SF_UNITS_CHUNK ? size - at : SF_UNITS_CHUNK;
		MPI_Request q;

		MPI_Ibcast(bytes + at, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &q);
		wait_gently(&q);
	}
}

int
sf_units_read(sf_read_fn read, void *ctx, char **out, size_t *size,
              sf_error *err)
{
	read_record rec = {0, 0, {0}};
	char *bytes = NULL;
	size_t n = 0;
	int largest;
	MPI_Request q;

	if (!sf_units_sharing())
		return read(ctx, out, size, err);
	*out = NULL;
	*size = 0;
	if (!agree(TOKEN_READ, &largest)) {
		units_met_at_end = 1;
		if (largest <= TOKEN_UNITS)
			return sf_error_set(err, SF_EUSAGE,
			                    "the ranks of the job are out of "
			                    "step: one reads an input while "
			                    "another computes (were they given "
			                    "different commands?)");
		return sf_error_set(
		    err, largest - 1 == SF_EFAIL ? SF_EFAIL : SF_EUSAGE,
		    "another rank of the job stopped with "
		    "exit status %d before this step",
		    largest - 1);
	}
	if (sf_units_rank() == 0) {
		units_reading = 1;
		rec.code = read(ctx, &bytes, &n, &rec.err);
		units_reading = 0;
		rec.size = rec.code == SF_OK ? n : 0;
	}
	/* The others wait here while rank 0 reads: gently. */
	MPI_Ibcast(&rec, (int)sizeof rec, MPI_BYTE, 0, MPI_COMM_WORLD, &q);
	wait_gently(&q);
	if (rec.code != SF_OK) {
		if (err != NULL)
			*err = rec.err;
		return (int)rec.code;
	}
	if (sf_units_rank() != 0 &&
	    (rec.size >= SIZE_MAX || (bytes = malloc(rec.size + 1)) == NULL))
		MPI_Abort(MPI_COMM_WORLD, 3); /* rank 0 would wait */
	bcast_bytes(bytes, (size_t)rec.size);
	if (sf_units_rank() != 0)
		bytes[rec.size] = '\0';
	*out = bytes;
	*size = (size_t)rec.size;
	return SF_OK;
}

#endif /* SF_WITH_MPI */

int
sf_units_root(void)
{
	return sf_units_rank() == 0;
}
