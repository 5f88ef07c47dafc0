/* calc_wasm.c -- the calculator's entry point for the book's pages, compiled to WebAssembly.
 *
 * The page writes one expression (UTF-8 bytes, any length) into a buffer from calc_web_input(),
 * calls calc_web_run() and reads back one text: the line build/bin/layout prints for that
 * expression -- made by the same calc_line() -- and, when the result is a rank-2 layout small
 * enough to draw in a page, the cells that `layout --plot` writes ("# layout ...", "# rows R cols
 * C", then one "row col value" line per cell).  web/calc.js draws them in the figures' colours.
 */
#include "calc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WEB_MAX_CELLS 4096   /* larger layouts get their result line, no grid */

static char  *input;         /* the page's expression, grown as needed */
static char  *output;        /* the last result */
static size_t output_len;

/* A buffer for `len` bytes of input (plus the terminating NUL the evaluator needs), or NULL when
 * memory runs out. */
__attribute__((export_name("calc_web_input")))
char *calc_web_input(size_t len)
{
  free(input);
  input = malloc(len + 1);
  return input;
}

/* The cells of a rank-2 layout as `layout --plot` writes them, or NULL (not a small rank-2
 * layout of integers). */
static char *grid_cells(const calc_result *r, size_t *len)
{
  lt_val cells = lt_size(r->value);
  if (!lt_is_int(&cells) || lt_value(&cells) > WEB_MAX_CELLS) return NULL;
  char *text = NULL, msg[LT_MSG];
  FILE *f = open_memstream(&text, len);
  if (!f) return NULL;
  int bad = calc_grid(&r->value, NULL, f, msg, sizeof msg) != 0;
  if (fclose(f) != 0 || bad) { free(text); return NULL; }
  return text;
}

/* Evaluate the `len` bytes in the input buffer; returns the result text (see above), whose length
 * calc_web_output_len() gives. */
__attribute__((export_name("calc_web_run")))
const char *calc_web_run(size_t len)
{
  static const char no_memory[] = "error: out of memory, at column 1\n";
  static calc_result r;      /* large: kept off the stack */
  static char line[8192];
  free(output);
  output = NULL;
  output_len = sizeof no_memory - 1;
  if (!input) return no_memory;
  input[len] = 0;
  size_t grid_len = 0;
  char *grid = calc_line(input, len, 0, &r, line, sizeof line) == 0 ? grid_cells(&r, &grid_len) : NULL;
  size_t n = strlen(line);
  output = malloc(n + 1 + grid_len + 1);
  if (!output) { free(grid); return no_memory; }
  memcpy(output, line, n);
  output[n] = '\n';
  if (grid) memcpy(output + n + 1, grid, grid_len);
  output_len = n + 1 + grid_len;
  output[output_len] = 0;
  free(grid);
  return output;
}

__attribute__((export_name("calc_web_output_len")))
size_t calc_web_output_len(void)
{
  return output_len;
}
