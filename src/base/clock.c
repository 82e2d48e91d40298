/*
 * clock.c - elapsed time on the monotonic clock.
 */
#include "base/clock.h"

void
sf_clock_now(struct timespec *start)
{
	clock_gettime(CLOCK_MONOTONIC, start);
}

double
sf_clock_seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       1e-9 * (double)(now.tv_nsec - start->tv_nsec);
}
