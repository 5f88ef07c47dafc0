/* test_units.c -- unit tests of the library's functions, its errors and its device form.
 *
 * The algebra's results are checked against real CuTe by test_vectors; here every public function
 * is called directly with a case whose answer CuTe gives (CuTe's documentation and its printed
 * results), and the error paths are exercised: every precondition gives a message, and an error
 * passes through every later operation.
 */
#include "layout.h"
#include "layout_device.h"
#include "calc.h"
#include "tap.h"

#include <string.h>

static lt_val P(const char *s)
{
  int col;
  lt_val v = lt_parse(s, &col);
  if (col) printf("# cannot parse %s: %s\n", s, lt_error(&v));
  return v;
}

#define IS(val, text, ...) do { lt_val v_ = (val); CHECK(lt_ok(&v_) && strcmp(lt_str(&v_), text) == 0, __VA_ARGS__); \
                                if (!lt_ok(&v_) || strcmp(lt_str(&v_), text) != 0) printf("#   got %s, want %s\n", lt_str(&v_), text); } while (0)
#define FAILS(val, needle, ...) do { lt_val v_ = (val); CHECK(!lt_ok(&v_) && strstr(lt_error(&v_), needle) != NULL, __VA_ARGS__); \
                                     if (lt_ok(&v_) || !strstr(lt_error(&v_), needle)) printf("#   got [%s]\n", lt_str(&v_)); } while (0)

static void test_parse_print(void)
{
  const char *round[] = { "4", "_4", "-3", "_-1", "(4)", "()", "(4,_2,(3,5))", "(4,6):(6,_1)", "():()",
                          "((_2,_2),(2,3,8)):((48,8),(96,16,_1))", "(41,55):(_1@0,_1@1)", "(_4,_2):(_1@0@1,2@1)", "_" };
  for (size_t i = 0; i < sizeof round / sizeof *round; ++i) IS(P(round[i]), round[i], "parse then print %s", round[i]);
  IS(P("( 4 , _2 ) : ( _1 , 4 )"), "(4,_2):(_1,4)", "spaces are ignored");
  IS(P("(_1,X,_1)"), "(_1,_,_1)", "X is CuTe's underscore");
  int col;
  lt_val v = lt_parse("(4,6", &col);
  CHECK(!lt_ok(&v) && col == 5, "unbalanced parenthesis reported at column 5 (got %d: %s)", col, lt_error(&v));
  v = lt_parse("(4,6):(1)", &col);
  CHECK(!lt_ok(&v) && strstr(lt_error(&v), "congruent"), "shape and stride must be congruent: %s", lt_error(&v));
  v = lt_parse("123456789012345678901234", &col);
  CHECK(!lt_ok(&v) && strstr(lt_error(&v), "too large"), "an integer beyond 64 bits is refused: %s", lt_error(&v));
  char deep[200];
  memset(deep, '(', 100); deep[100] = '1'; memset(deep + 101, ')', 98); deep[199] = 0;
  v = lt_parse(deep, &col);
  CHECK(!lt_ok(&v), "nesting past capacity is refused: %s", lt_error(&v));
  char wide[4096];
  size_t n = 0;
  wide[n++] = '(';
  for (int i = 0; i < 1000; ++i) { wide[n++] = '1'; wide[n++] = ','; }
  wide[n - 1] = ')'; wide[n] = 0;
  v = lt_parse(wide, &col);
  CHECK(!lt_ok(&v) && strstr(lt_error(&v), "capacity"), "a thousand modes exceed the capacity: %s", lt_error(&v));
  lt_val a = P("(2,3)"), b = P("(2,3)"), c = P("(2,_3)");
  CHECK(lt_equal(&a, &b) && !lt_equal(&a, &c), "lt_equal tells static marks apart");
}

static void test_construction(void)
{
  lt_val items[3] = { lt_int(4), lt_static(2), lt_underscore() };
  IS(lt_tuple_of(3, items), "(4,_2,_)", "lt_tuple_of");
  IS(lt_make_layout_sd(P("(4,6)"), P("(6,_1)")), "(4,6):(6,_1)", "lt_make_layout_sd");
  FAILS(lt_make_layout_sd(P("(4,6)"), P("6")), "congruent", "make_layout with an incongruent stride");
  IS(lt_shape(P("(4,6):(6,_1)")), "(4,6)", "lt_shape");
  IS(lt_stride(P("(4,6):(6,_1)")), "(6,_1)", "lt_stride");
  IS(lt_get(P("((2,3),4):((1,2),6)"), 0), "(2,3):(1,2)", "lt_get of a layout is a sublayout");
  IS(lt_get(P("(4,(2,3))"), 1), "(2,3)", "lt_get of a tuple");
  FAILS(lt_get(P("(4,6)"), 2), "out of range", "lt_get out of range");
  lt_val m[2] = { P("2:1"), P("3:2") };
  IS(lt_make_layout_of(2, m), "(2,3):(1,2)", "lt_make_layout_of concatenates modes");
  IS(lt_make_layout_of(1, m), "(2):(1)", "one layout is wrapped, as in CuTe");
  lt_val x = P("(2,_3)");
  CHECK(lt_is_tuple(&x) && !lt_is_layout(&x) && !lt_is_static(&x), "lt_is_tuple / lt_is_static");
  lt_val y = lt_static(7);
  CHECK(lt_is_int(&y) && lt_value(&y) == 7 && lt_is_static(&y), "lt_static");
}

static void test_queries(void)
{
  IS(lt_size(P("(_4,_2):(_1,_4)")), "_8", "size of a static layout is static");
  IS(lt_size(P("(4,_2):(_1,4)")), "8", "size with a dynamic mode is dynamic");
  IS(lt_size(P("(4,(2,3))")), "24", "size of a shape");
  IS(lt_cosize(P("(2,4):(4,1)")), "8", "cosize");
  IS(lt_rank(P("(4,(2,3)):(1,(4,8))")), "_2", "rank is static");
  IS(lt_depth(P("(4,(2,3))")), "_2", "depth");
  IS(lt_depth(P("4")), "_0", "depth of an integer");
  IS(lt_crd2idx(P("(4,6):(6,_1)"), P("(1,2)")), "8", "crd2idx of a coordinate");
  IS(lt_crd2idx(P("(4,6):(6,_1)"), lt_int(5)), "7", "crd2idx of an index: 5 is (1,1)");
  IS(lt_idx2crd(P("(4,(2,3))"), lt_int(13)), "(1,(1,1))", "idx2crd");
  IS(lt_idx2crd_strided(lt_int(5), P("(2,4)"), P("(4,1)")), "(1,1)", "idx2crd with strides ((i/d) %% s)");
  IS(lt_make_layout(P("(2,3)")), "(2,3):(_1,2)", "column-major compact layout");
  IS(lt_make_layout_right(P("(2,3)")), "(2,3):(3,_1)", "row-major compact layout");
  IS(lt_make_layout(P("(_2,_1,_3)")), "(_2,_1,_3):(_1,_0,_2)", "a static _1 mode gets stride _0");
  FAILS(lt_size(P("(-2,3)")), "negative", "a negative shape is refused");
  FAILS(lt_crd2idx(P("(4,6):(6,_1)"), P("(1,2,3)")), "rank", "crd2idx with a coordinate of the wrong rank");
}

static void test_tuples(void)
{
  IS(lt_flatten(P("((2,3),(4,(5)))")), "(2,3,4,5)", "flatten");
  IS(lt_flatten(P("((2,3),4):((1,2),6)")), "(2,3,4):(1,2,6)", "flatten a layout");
  IS(lt_append(P("(2,3)"), lt_int(4)), "(2,3,4)", "append");
  IS(lt_append(lt_int(2), lt_int(3)), "(2,3)", "append to an integer makes a pair");
  IS(lt_prepend(P("(2,3)"), lt_int(4)), "(4,2,3)", "prepend");
  IS(lt_zip(P("((1,2),(3,4))")), "((1,3),(2,4))", "zip");
  IS(lt_zip_layouts(P("(2,3):(1,2)"), P("(4,5):(6,24)")), "((2,4),(3,5)):((1,6),(2,24))", "zip two layouts");
  IS(lt_slice(P("(1,_,1)"), P("(2,8,2)")), "(8)", "slice keeps the _ modes");
  IS(lt_slice(P("(1,_)"), P("(2,((3,2),2))")), "(((3,2),2))", "slice keeps the whole mode under _");
  IS(lt_dice(P("(_1,_,_1)"), P("(32,64,4)")), "(32,4)", "dice drops the _ modes");
  IS(lt_slice(P("(_,3)"), P("(4,4):(_1,_16)")), "(4):(_1)", "slice of a layout");
}

static void test_algebra(void)
{
  IS(lt_coalesce(P("(_2,_4):(_1,_2)")), "_8:_1", "coalesce merges static modes");
  IS(lt_coalesce(P("(2,_4,_6):(_1,2,8)")), "(2,_4,_6):(_1,2,8)", "coalesce cannot merge dynamic values");
  IS(lt_coalesce_profile(P("((_2,_4),(_3,_5)):((_1,_2),(_8,_24))"), P("(_1,_1)")), "(_8,_15):(_1,_8)", "coalesce by profile");
  IS(lt_filter(P("(_4,_2,_3):(_0,_1,_2)")), "_6:_1", "filter drops stride-0 modes");
  IS(lt_composition(P("(_6,_2):(_8,_2)"), P("(_4,_3):(_3,_1)")), "((_2,_2),_3):((_24,_2),_8)", "composition, CuTe's documented example");
  IS(lt_composition_tiler(P("(12,(4,8)):(59,(13,1))"), P("(3:4,8:2)")), "(3,(2,4)):(236,(26,1))", "composition by mode");
  IS(lt_composition(P("(_6,_2):(_8,_2)"), P("_4:_4")), "(_2,_2):(_32,_2)", "CuTe's weak divisibility check accepts stride 4 in a mode of 6");
  FAILS(lt_composition(P("(_3,_2):(_1,_5)"), P("_2:_4")), "divisibility", "an inadmissible static composition is refused, as CuTe refuses it");
  IS(lt_complement(P("4:2"), lt_int(24)), "(2,3):(_1,8)", "complement of 4:2 in 24");
  IS(lt_complement1(P("(_2,_2):(_1,_4)")), "_2:_2", "complement with its cosize");
  FAILS(lt_complement(P("(_2,_2):(_1,_1)"), lt_int(8)), "injective", "complement of a non-injective static layout (CuTe refuses it too)");
  FAILS(lt_complement(P("(1,3,1):(_3,_1,_1)"), lt_int(9)), "size 0", "complement that CuTe would give a mode of size 0");
  FAILS(lt_complement(P("(2,2):(1,4)"), lt_int(16)), "static strides", "complement of a rank-2 layout with dynamic strides");
  IS(lt_right_inverse(P("(_4,_2):(_2,_1)")), "(_2,_4):(_4,_1)", "right_inverse");
  IS(lt_left_inverse(P("(_4,_2):(_2,_1)")), "(_2,_4):(_4,_1)", "left_inverse");
  FAILS(lt_left_inverse(P("(4,2):(2,1)")), "static", "left_inverse needs static strides");
  IS(lt_logical_divide(P("1000:1"), P("128:1")), "(128,(1,8)):(1,(1,128))", "the 1000 / 128 example, dynamic");
  IS(lt_logical_divide(P("_1000:_1"), P("_128:_1")), "(_128,_8):(_1,_128)", "the 1000 / 128 example, static");
  IS(lt_zipped_divide(P("(4,6,8):(48,8,_1)"), P("(_2,_2)")), "((_2,_2),(2,3,8)):((48,8),(96,16,_1))", "zipped_divide");
  IS(lt_tiled_divide(P("(4,6,8):(48,8,_1)"), P("(_2,_2)")), "((_2,_2),2,3,8):((48,8),96,16,_1)", "tiled_divide");
  IS(lt_flat_divide(P("(4,6,8):(48,8,_1)"), P("(_2,_2)")), "(_2,_2,2,3,8):(48,8,96,16,_1)", "flat_divide");
  IS(lt_logical_product(P("(_2,_2):(_4,_1)"), P("_6:_1")), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))", "logical_product");
  IS(lt_zipped_product(P("(_2,_5):(_5,_1)"), P("(_3,_4)")), "((_2,_5),(_3,_4)):((_5,_1),(_1,_5))", "zipped_product of a tuple tiler: by mode");
  IS(lt_tiled_product(P("(_2,_5):(_5,_1)"), P("(_3,_4)")), "((_2,_5),_3,_4):((_5,_1),_1,_5)", "tiled_product");
  IS(lt_flat_product(P("(_2,_5):(_5,_1)"), P("(_3,_4)")), "(_2,_5,_3,_4):(_5,_1,_1,_5)", "flat_product");
  IS(lt_blocked_product(P("(_2,_5):(_5,_1)"), P("(_3,_4):(_1,_3)")), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))", "blocked_product");
  IS(lt_raked_product(P("(_2,_5):(_5,_1)"), P("(_3,_4):(_1,_3)")), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))", "raked_product");
  FAILS(lt_logical_divide(P("(4,6):(6,1)"), P("(2,2,2)")), "more modes", "a tiler with more modes than the layout");
}

static void test_views(void)
{
  lt_view t = lt_tensor(P("(4,6):(6,_1)"));
  lt_view v = lt_local_tile(&t, P("(_2,_2)"), P("(1,1)"));
  IS(v.layout, "(_2,_2):(6,_1)", "local_tile layout");
  IS(v.offset, "14", "local_tile offset is a run-time integer");
  v = lt_local_tile(&t, P("(_2,_2)"), P("(0,_)"));
  IS(v.layout, "(_2,_2,3):(6,_1,_2)", "local_tile keeps the tiles where the coordinate has _");
  lt_view t2 = lt_tensor(P("(4,8):(8,_1)"));
  v = lt_local_tile_proj(&t2, P("(_2,_2,_4)"), P("(0,0,_)"), P("(_1,X,_1)"));
  IS(v.layout, "(_2,_4,2):(8,_1,_4)", "local_tile with a projection");
  lt_view t3 = lt_tensor(P("(8,6):(_1,8)"));
  v = lt_local_partition(&t3, P("(_4,_2):(_1,_4)"), lt_int(1));
  IS(v.layout, "(2,3):(_4,16)", "local_partition");
  IS(v.offset, "1", "local_partition offset");
  v = lt_local_partition_proj(&t3, P("(_4,_2):(_1,_4)"), lt_int(1), P("(_1,X)"));
  IS(v.layout, "(2,6):(_4,8)", "local_partition with a projection");
  v = lt_inner_partition(&t, P("(_2,_2)"), P("(1,1)"));
  IS(v.layout, "(_2,_2):(6,_1)", "inner_partition is local_tile");
  v = lt_outer_partition(&t, P("(_2,_2)"), P("(1,1)"));
  IS(v.layout, "(2,3):(12,_2)", "outer_partition keeps the rest modes");
  IS(v.offset, "7", "outer_partition offset");
  lt_view s = lt_slice_and_offset(P("(1,_,1)"), P("(2,8,2):(_16,_2,_1)"));
  IS(s.layout, "(8):(_2)", "slice_and_offset layout");
  IS(s.offset, "17", "slice_and_offset offset");
  lt_view id = lt_identity_tensor(P("(41,55)"));
  IS(id.layout, "(41,55):(_1@0,_1@1)", "identity tensor layout");
  IS(id.offset, "(_0,_0)", "identity tensor origin");
  IS(lt_view_eval(&id, lt_int(2254)), "(40,54)", "an identity tensor maps an index to its coordinate");
  v = lt_local_tile(&id, P("(_4,_8)"), P("(10,6)"));
  IS(v.offset, "(40,48)", "local_tile of an identity tensor: the origin of the tile");
  lt_view sub = lt_view_slice(&t, P("(_,2)"));
  IS(sub.layout, "(4):(6)", "lt_view_slice");
  IS(sub.offset, "2", "lt_view_slice offset");
  IS(lt_identity_layout(P("(_2,(3,4))")), "(_2,(3,4)):(_1@0,(_1@0@1,_1@1@1))", "identity layout basis strides");
  FAILS(lt_view_eval(&t, P("(_,1)")), "_", "evaluating a view at a coordinate with _");
}

static void test_errors(void)
{
  lt_val e = lt_composition(P("(_3,_2):(_1,_5)"), P("_2:_4"));
  const char *msg = lt_error(&e);
  lt_val e2 = lt_coalesce(lt_zipped_divide(e, P("(_2,_2)")));
  CHECK(!lt_ok(&e2) && strcmp(lt_error(&e2), msg) == 0, "an error passes through later operations unchanged");
  lt_view t = lt_tensor(e);
  lt_view v = lt_local_tile(&t, P("(_2,_2)"), P("(0,0)"));
  CHECK(!lt_ok(&v.layout) && strcmp(lt_error(&v.layout), msg) == 0, "an error passes through views");
  FAILS(lt_size(P("(4611686018427387904,4)")), "overflow", "64-bit overflow is detected");
  FAILS(lt_crd2idx(P("(2,2):(4611686018427387904,4611686018427387904)"), P("(1,1)")), "overflow", "overflow in crd2idx");
  FAILS(lt_coalesce(P("(4,6)")), "layout", "a shape where a layout is needed");
  FAILS(lt_composition(P("(4,6):(6,1)"), P("(1,_)")), "layout", "composition needs a layout");
  lt_val big = P("((_2,_2,_2),(_2,_2,_2),(_2,_2,_2),(_2,_2,_2)):((_1,_2,_4),(_8,_16,_32),(_64,_128,_256),(_512,_1024,_2048))");
  lt_val prod = lt_blocked_product(big, big);
  CHECK(lt_ok(&prod) || strstr(lt_error(&prod), "capacity"), "results past the capacity give an error: %s", lt_ok(&prod) ? "ok" : lt_error(&prod));
}

static void test_device(void)
{
  const char *ls[] = { "(4,6):(6,_1)", "((_2,_2),(2,3,8)):((48,8),(96,16,_1))", "(_4,(_2,_3)):(_6,(_3,_1))", "7:3" };
  char err[200];
  for (size_t k = 0; k < sizeof ls / sizeof *ls; ++k) {
    lt_layout l = P(ls[k]);
    ltd_layout d;
    int okc = ltd_from_layout(&l, &d, err, sizeof err) == 0;
    lt_val sz = lt_size(l);
    int same = okc && ltd_size(&d) == lt_value(&sz);
    for (int i = 0; same && i < lt_value(&sz) + 3; ++i) {       /* and a little past the end */
      lt_val v = lt_crd2idx(l, lt_int(i));
      same = ltd_eval(&d, i) == lt_value(&v);
    }
    CHECK(same, "the device form of %s evaluates as the library does", ls[k]);
  }
  lt_layout z = lt_zipped_divide(P("(8,12):(12,_1)"), P("(_2,_4)"));
  ltd_layout d;
  ltd_from_layout(&z, &d, err, sizeof err);
  lt_view t = lt_tensor(P("(8,12):(12,_1)"));
  int same = 1;
  for (int bx = 0; bx < 4 && same; ++bx)
    for (int by = 0; by < 3 && same; ++by) {
      lt_val c[2] = { lt_int(bx), lt_int(by) };
      lt_view tile = lt_local_tile(&t, P("(_2,_4)"), lt_tuple_of(2, c));
      for (int i = 0; i < 8 && same; ++i) {
        lt_val off = lt_view_eval(&tile, lt_int(i));
        same = ltd_mode(&d, 1, bx + 4 * by) + ltd_mode(&d, 0, i) == lt_value(&off);
      }
    }
  CHECK(same, "device slice of zipped_divide equals local_tile for every tile and element");
  lt_layout id = lt_identity_layout(P("(4,4)"));
  CHECK(ltd_from_layout(&id, &d, err, sizeof err) != 0, "basis strides have no device form: %s", err);
}

static void test_calculator(void)
{
  calc_result r;
  char out[512];
  calc_eval("local_tile((4,6,8):(48,8,_1), (_2,_2), (1,2))", &r);
  calc_format(&r, 0, out, sizeof out);
  CHECK(r.ok && strcmp(out, "128 o (_2,_2,8):(48,8,_1)") == 0, "the calculator prints a view as offset o layout: %s", out);
  calc_format(&r, 1, out, sizeof out);
  CHECK(strcmp(out, "(_2,_2,8):(48,8,_1)\t128") == 0, "and with --tsv as layout<TAB>offset");
  calc_eval("coalesce(composition((_6,_2):(_8,_2), (_4,_3):(_3,_1)))", &r);
  calc_format(&r, 0, out, sizeof out);
  CHECK(r.ok && strcmp(out, "(_2,_2,_3):(_24,_2,_8)") == 0, "calls nest: %s", out);
  calc_eval("  foo(1)", &r);
  CHECK(!r.ok && r.col == 3 && strstr(r.msg, "unknown operation"), "an unknown operation is reported at its column (%d: %s)", r.col, r.msg);
  calc_eval("size((4,6):(1,4), 2)", &r);
  CHECK(!r.ok && strstr(r.msg, "argument"), "wrong arity: %s", r.msg);
  calc_eval("size((4,6):(1,4)", &r);
  CHECK(!r.ok && strstr(r.msg, "parenthes"), "unbalanced: %s at %d", r.msg, r.col);
}

int main(void)
{
  test_parse_print();
  test_construction();
  test_queries();
  test_tuples();
  test_algebra();
  test_views();
  test_errors();
  test_device();
  test_calculator();
  return TAP_DONE();
}
