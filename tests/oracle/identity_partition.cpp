// identity_partition.cpp -- cases of local_partition(make_identity_tensor(S), thr, idx), printed by
// real CuTe in the vector format (tests/data/cute/FORMAT.md), for the calculator's
// identity_local_partition, an operation the oracle does not have.  Build it against CUTLASS's
// include/ (g++ -std=c++17 -I CUTLASS/include -I CUDA/include -I CUDA/include/cccl) and run it:
//   ./identity_partition | sed 's/\tArithTuple/\t/' > tests/data/oracle/cute_identity_partition.tsv
// One line per case: identity_local_partition<TAB>S<TAB>thr<TAB>idx<TAB>layout<TAB>origin
#include <cute/tensor.hpp>
using namespace cute;
template <class S, class T> void one(const char *s, const char *t, S shape, T thr, int idx) {
  auto v = local_partition(make_identity_tensor(shape), thr, idx);
  printf("identity_local_partition\t%s\t%s\t%d\t", s, t, idx);
  print(v.layout()); printf("\t"); print(v.data()); printf("\n");
}
int main() {
  using T24 = Layout<Shape<_2,_4>, Stride<_1,_2>>;
  using T42r = Layout<Shape<_4,_2>, Stride<_2,_1>>;
  using T328 = Layout<Shape<_32,_8>, Stride<_1,_32>>;
  one("(_4,_8)", "(_2,_4):(_1,_2)", make_shape(Int<4>{}, Int<8>{}), T24{}, 6);
  one("(_4,_8)", "(_2,_4):(_1,_2)", make_shape(Int<4>{}, Int<8>{}), T24{}, 0);
  one("(41,55)", "(_2,_4):(_1,_2)", make_shape(41, 55), T24{}, 6);
  one("(8,6)", "(_4,_2):(_2,_1)", make_shape(8, 6), T42r{}, 5);
  one("(_128,_32)", "(_32,_8):(_1,_32)", make_shape(Int<128>{}, Int<32>{}), T328{}, 37);
  one("(1000,37)", "(_32,_8):(_1,_32)", make_shape(1000, 37), T328{}, 255);
  one("((2,3),5)", "(_2,_5):(_1,_2)", make_shape(make_shape(2,3),5), Layout<Shape<_2,_5>,Stride<_1,_2>>{}, 7);
}
