/* tap.h -- the smallest test framework: `ok - what` / `not ok - what` lines and a count.
 * tests/run counts these lines across all checks. */
#ifndef TAP_H
#define TAP_H

#include <stdio.h>

static int tap_failed, tap_passed;

#define CHECK(cond, ...)                                                         \
  do {                                                                           \
    if (cond) { tap_passed++; printf("ok - "); printf(__VA_ARGS__); printf("\n"); } \
    else { tap_failed++; printf("not ok - "); printf(__VA_ARGS__);               \
           printf("  (%s:%d)\n", __FILE__, __LINE__); }                          \
  } while (0)

/* A check that counts silently unless it fails (for loops over thousands of cases). */
#define EXPECT(cond, ...)                                                        \
  do {                                                                           \
    if (!(cond)) { tap_failed++; printf("not ok - "); printf(__VA_ARGS__);       \
                   printf("  (%s:%d)\n", __FILE__, __LINE__); }                  \
  } while (0)

#define TAP_DONE() (tap_failed ? 1 : 0)

#endif
