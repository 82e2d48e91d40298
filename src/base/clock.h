/*
 * clock.h - elapsed time on the monotonic clock, for time limits and the
 * seconds a report shows.
 *
 * One clock for every timer of the library, so a limit checked in one
 * module and a duration reported by another measure the same thing (the
 * monotonic clock never jumps when the wall clock is set).  Pure
 * functions over caller-owned timestamps; thread-safe.
 */
#ifndef SF_CLOCK_H
#define SF_CLOCK_H

#include <time.h>

/* Store the current time of the monotonic clock in *start. */
void sf_clock_now(struct timespec *start);

/* The seconds elapsed since *start (taken by sf_clock_now()). */
double sf_clock_seconds_since(const struct timespec *start);

#endif /* SF_CLOCK_H */
