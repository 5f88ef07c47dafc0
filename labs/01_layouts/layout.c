/* layout -- the layout calculator: CuTe expressions in, CuTe's results out.
 *
 *   build:  make build/bin/layout   (the library, lib/, plus this directory; C11, no dependency)
 *   run:    build/bin/layout 'zipped_divide((4,6,8):(48,8,_1), (_2,_2))'
 *           ((_2,_2),(2,3,8)):((48,8),(96,16,_1))
 *
 *   build/bin/layout [--tsv] [--grid] [--plot FILE] [EXPR ...]
 *
 * Each EXPR is a value in CuTe's notation or a call `op(arg, ...)` whose arguments are values or
 * calls.  Without EXPR, one expression per line is read from standard input, and each input line
 * gives exactly one output line.  A bad expression prints `error: <what>, at column N` (on
 * standard output in its place, and on standard error); the exit status is 1 if any failed.
 *
 * Ops that return a tensor view print `offset o layout` (CuTe's notation for a tensor); with
 * --tsv they print `layout<TAB>offset`, the format of the test vectors.  --grid draws a rank-2
 * layout as cute::print_layout does; --plot FILE writes its cells for gnuplot.
 */
#include "layout.h"
#include "calc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *usage =
  "usage: layout [--tsv] [--grid] [--plot FILE] [EXPR ...]\n"
  "  EXPR   a CuTe expression, e.g. 'local_tile((4,6,8):(48,8,_1), (_2,_2), (1,2))'\n"
  "         (none: read one expression per line from standard input)\n"
  "  --tsv  print a view as layout<TAB>offset (the test-vector format)\n"
  "  --grid draw a rank-2 layout as a table, as cute::print_layout does\n"
  "  --plot FILE  write the cells of a rank-2 layout (row col value) for gnuplot\n"
  "  --list print the operations the calculator knows\n";

typedef struct {
  int tsv, grid;
  const char *plot;
  FILE *plotf;
} options;

/* Evaluate one expression and print its one line (plus the grid, if asked).  Returns 0 or 1. */
static int run_line(const options *o, const char *line, size_t len)
{
  calc_result r;
  char out[8192];
  if (calc_line(line, len, o->tsv, &r, out, sizeof out) != 0) {
    printf("%s\n", out);
    fprintf(stderr, "%s\n", out);
    return 1;
  }
  if (!o->grid) printf("%s\n", out);          /* the grid's first line is the layout itself */
  if (o->grid || o->plotf) {
    char msg[LT_MSG];
    if (calc_grid(&r.value, o->grid ? stdout : NULL, o->plotf, msg, sizeof msg) != 0) {
      fprintf(stderr, "error: %s\n", msg);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv)
{
  options o = { 0, 0, NULL, NULL };
  int first = 1;
  for (; first < argc; ++first) {
    const char *a = argv[first];
    if (strcmp(a, "--tsv") == 0) o.tsv = 1;
    else if (strcmp(a, "--grid") == 0) o.grid = 1;
    else if (strcmp(a, "--plot") == 0) {
      if (first + 1 >= argc) { fprintf(stderr, "layout: --plot needs a file name\n%s", usage); return 2; }
      o.plot = argv[++first];
    }
    else if (strcmp(a, "--list") == 0) { calc_list(stdout); return 0; }
    else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { fputs(usage, stdout); return 0; }
    else if (strcmp(a, "--") == 0) { ++first; break; }
    else if (a[0] == '-' && a[1] == '-') { fprintf(stderr, "layout: unknown option %s\n%s", a, usage); return 2; }
    else break;
  }
  if (o.plot) {
    o.plotf = fopen(o.plot, "w");
    if (!o.plotf) { perror(o.plot); return 2; }
  }
  int failed = 0;
  if (first < argc) {
    for (int i = first; i < argc; ++i) failed |= run_line(&o, argv[i], strlen(argv[i]));
  } else {
    int tty = isatty(0);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    if (tty) { fputs("layout> ", stderr); fflush(stderr); }
    while ((n = getline(&line, &cap, stdin)) >= 0) {
      if (n > 0 && line[n - 1] == '\n') line[--n] = 0;
      if (n > 0 && line[n - 1] == '\r') line[--n] = 0;
      failed |= run_line(&o, line, (size_t)n);
      fflush(stdout);
      if (tty) { fputs("layout> ", stderr); fflush(stderr); }
    }
    free(line);
  }
  if (o.plotf && fclose(o.plotf) != 0) { perror(o.plot); failed = 1; }
  return failed ? 1 : 0;
}
