/* calc.h -- the calculator's evaluator: expressions such as `zipped_divide((4,6):(6,_1), (_2,_2))`. */
#ifndef CALC_H
#define CALC_H

#include "layout.h"
#include <stdio.h>

typedef struct calc_result {
  int    ok;
  int    is_view;     /* two results: a layout and an offset (or an identity view's origin) */
  lt_val value;       /* the result, or the view's layout */
  lt_val offset;      /* the view's offset / origin */
  char   msg[LT_MSG]; /* when !ok: what went wrong */
  int    col;         /* when !ok: 1-based column */
} calc_result;

/* Evaluate one expression (a value or a call). */
void calc_eval(const char *expr, calc_result *r);
void calc_fail(calc_result *r, const char *msg, int col);

/* Evaluate one input line of `len` bytes (a NUL byte inside it is an error) and write to `out` the
 * line the calculator prints for it: the result, or `error: <what>, at column N`.  Returns 0, or 1
 * for an error.  Every front end (the command line, the page's WebAssembly module) goes through
 * here, so they print the same characters. */
int calc_line(const char *line, size_t len, int tsv, calc_result *r, char *out, size_t cap);

/* Format a result: a value as CuTe prints it; a view as `offset o layout`, or with tsv as
 * `layout<TAB>offset`. */
void calc_format(const calc_result *r, int tsv, char *buf, size_t cap);

/* Draw a rank-2 layout as cute::print_layout does (to `grid`, if not NULL) and write its cells
 * `row col value` for gnuplot (to `plot`, if not NULL).  Returns 0, or -1 with a message. */
int calc_grid(const lt_val *layout, FILE *grid, FILE *plot, char *msg, size_t cap);

/* Print the operations, one per line: name and arguments. */
void calc_list(FILE *out);

#endif
