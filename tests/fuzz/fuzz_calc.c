/* fuzz_calc.c -- libFuzzer harness for the calculator's parser and evaluator.
 *
 *   build:  make build/fuzz/fuzz_calc     (clang with libFuzzer, ASan and UBSan)
 *
 *   run:    build/fuzz/fuzz_calc -max_total_time=600 -max_len=4096 build/fuzz/corpus tests/fuzz/seeds
 *
 * Every input is one calculator line: it is parsed, evaluated, formatted both ways and, when it
 * is a rank-2 layout, drawn as a grid.  Any crash, sanitizer report or hang is a bug; an input
 * that ever caused one is kept in tests/fuzz/regressions/ and replayed by `make test`.
 */
#include "calc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *line = malloc(size + 1);
  if (!line) return 0;
  memcpy(line, data, size);
  line[size] = 0;
  char *nl = strchr(line, '\n');           /* the calculator reads one line at a time */
  if (nl) *nl = 0;
  calc_result r;
  calc_eval(line, &r);
  if (r.ok) {
    char out[8192];
    calc_format(&r, 0, out, sizeof out);
    calc_format(&r, 1, out, sizeof out);
    char msg[LT_MSG];
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
      calc_grid(&r.value, sink, sink, msg, sizeof msg);
      fclose(sink);
    }
  }
  free(line);
  return 0;
}
