/* test_vectors.c -- every line of the CuTe test vectors through the library's C API.
 *
 *   usage: test_vectors FILE.tsv ...
 *
 * Each line is `op <TAB> args... <TAB> result(s)` computed by real CuTe.  The arguments are parsed
 * with lt_parse, the op is called directly (no calculator in between), and the printed result must
 * equal CuTe's, character for character.  One `ok` line per file; one `not ok` per mismatch.
 */
#include "layout.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

typedef struct { lt_val v; lt_val off; int view; } result;

static result one(lt_val v)    { result r; r.v = v; r.view = 0; return r; }
static result two(lt_view v)   { result r; r.v = v.layout; r.off = v.offset; r.view = 1; return r; }

static int is(const char *op, const char *name) { return strcmp(op, name) == 0; }

/* Call the library for one vector line; *known = 0 for an op this test does not know. */
static result call(const char *op, lt_val *a, int n, int *known)
{
  *known = 1;
  lt_view t;
  if (is(op, "size"))              return one(lt_size(a[0]));
  if (is(op, "cosize"))            return one(lt_cosize(a[0]));
  if (is(op, "rank"))              return one(lt_rank(a[0]));
  if (is(op, "depth"))             return one(lt_depth(a[0]));
  if (is(op, "crd2idx"))           return one(lt_crd2idx(a[0], a[1]));
  if (is(op, "idx2crd"))           return one(lt_idx2crd(a[0], a[1]));
  if (is(op, "make_layout"))       return one(lt_make_layout(a[0]));
  if (is(op, "make_layout_right")) return one(lt_make_layout_right(a[0]));
  if (is(op, "coalesce"))          return one(lt_coalesce(a[0]));
  if (is(op, "coalesce_profile"))  return one(lt_coalesce_profile(a[0], a[1]));
  if (is(op, "filter"))            return one(lt_filter(a[0]));
  if (is(op, "composition"))       return one(lt_composition(a[0], a[1]));
  if (is(op, "composition_tiler")) return one(lt_composition_tiler(a[0], a[1]));
  if (is(op, "complement"))        return one(lt_complement(a[0], a[1]));
  if (is(op, "complement1"))       return one(lt_complement1(a[0]));
  if (is(op, "right_inverse"))     return one(lt_right_inverse(a[0]));
  if (is(op, "left_inverse"))      return one(lt_left_inverse(a[0]));
  if (is(op, "logical_divide"))    return one(lt_logical_divide(a[0], a[1]));
  if (is(op, "zipped_divide"))     return one(lt_zipped_divide(a[0], a[1]));
  if (is(op, "tiled_divide"))      return one(lt_tiled_divide(a[0], a[1]));
  if (is(op, "flat_divide"))       return one(lt_flat_divide(a[0], a[1]));
  if (is(op, "logical_product"))   return one(lt_logical_product(a[0], a[1]));
  if (is(op, "zipped_product"))    return one(lt_zipped_product(a[0], a[1]));
  if (is(op, "tiled_product"))     return one(lt_tiled_product(a[0], a[1]));
  if (is(op, "flat_product"))      return one(lt_flat_product(a[0], a[1]));
  if (is(op, "blocked_product"))   return one(lt_blocked_product(a[0], a[1]));
  if (is(op, "raked_product"))     return one(lt_raked_product(a[0], a[1]));
  if (is(op, "identity_layout"))   return one(lt_identity_layout(a[0]));
  if (is(op, "slice"))             return two(lt_slice_and_offset(a[1], a[0]));
  if (is(op, "identity_tensor"))   return two(lt_identity_tensor(a[0]));
  if (is(op, "swizzle"))           return one(lt_swizzle(a[0], a[1], a[2], a[3]));
  if (is(op, "identity_eval"))     { t = lt_identity_tensor(a[0]); return one(lt_view_eval(&t, a[1])); }
  if (is(op, "local_tile"))        { t = lt_tensor(a[0]); return two(lt_local_tile(&t, a[1], a[2])); }
  if (is(op, "local_tile_proj"))   { t = lt_tensor(a[0]); return two(lt_local_tile_proj(&t, a[1], a[2], a[3])); }
  if (is(op, "local_partition"))   { t = lt_tensor(a[0]); return two(lt_local_partition(&t, a[1], a[2])); }
  if (is(op, "local_partition_proj")) { t = lt_tensor(a[0]); return two(lt_local_partition_proj(&t, a[1], a[2], a[3])); }
  if (is(op, "identity_local_tile"))  { t = lt_identity_tensor(a[0]); return two(lt_local_tile(&t, a[1], a[2])); }
  if (is(op, "identity_local_tile_proj")) { t = lt_identity_tensor(a[0]); return two(lt_local_tile_proj(&t, a[1], a[2], a[3])); }
  if (is(op, "identity_local_partition")) { t = lt_identity_tensor(a[0]); return two(lt_local_partition(&t, a[1], a[2])); }
  (void)n;
  *known = 0;
  return one(lt_int(0));
}

static int nres(const char *op)
{
  static const char *views[] = { "local_tile", "local_tile_proj", "local_partition", "local_partition_proj", "slice",
                                 "identity_tensor", "identity_local_tile", "identity_local_tile_proj",
                                 "identity_local_partition" };
  for (size_t i = 0; i < sizeof views / sizeof views[0]; ++i) if (is(op, views[i])) return 2;
  return 1;
}

static void run_file(const char *path)
{
  FILE *f = fopen(path, "r");
  if (!f) { CHECK(0, "%s: cannot open", path); return; }
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  char line[8192];
  int lineno = 0, total = 0, bad = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0] || line[0] == '#') continue;
    char *col[12];
    int nc = 0;
    for (char *p = line; nc < 12; ) {
      col[nc++] = p;
      char *tab = strchr(p, '\t');
      if (!tab) break;
      *tab = 0;
      p = tab + 1;
    }
    int nr = nres(col[0]), na = nc - 1 - nr;
    total++;
    if (na < 1 || na > 6) { bad++; EXPECT(0, "%s:%d: malformed line", base, lineno); continue; }
    lt_val a[6];
    int perr = 0;
    for (int i = 0; i < na; ++i) {
      int ecol;
      a[i] = lt_parse(col[1 + i], &ecol);
      if (ecol) perr = 1;
    }
    if (perr) { bad++; EXPECT(0, "%s:%d: %s: an argument does not parse", base, lineno, col[0]); continue; }
    int known;
    result r = call(col[0], a, na, &known);
    if (!known) { bad++; EXPECT(0, "%s:%d: unknown op %s", base, lineno, col[0]); continue; }
    char got[8192], o[2048];
    lt_print(&r.v, got, sizeof got);
    if (r.view) {
      lt_print(&r.off, o, sizeof o);
      size_t n = strlen(got);
      snprintf(got + n, sizeof got - n, "\t%s", o);
    }
    char want[8192];
    want[0] = 0;
    for (int i = nc - nr; i < nc; ++i) {
      size_t n = strlen(want);
      snprintf(want + n, sizeof want - n, "%s%s", i > nc - nr ? "\t" : "", col[i]);
    }
    if (strcmp(got, want) != 0) {
      bad++;
      EXPECT(0, "%s:%d: %s: CuTe gives [%s], the library gives [%s]", base, lineno, col[0], want, got);
    }
  }
  fclose(f);
  CHECK(bad == 0 && total > 0, "%s: %d of %d CuTe vectors agree through the C API", base, total - bad, total);
}

int main(int argc, char **argv)
{
  if (argc < 2) { fprintf(stderr, "usage: test_vectors FILE.tsv ...\n"); return 2; }
  for (int i = 1; i < argc; ++i) run_file(argv[i]);
  return TAP_DONE();
}
