# The library from C (example/first_layouts.c), compiled against the library and run.
mkdir -p "$B/lab01" && ${CC:-cc} -std=c11 -Wall -Wextra -Werror -Ilib labs/01_layouts/example/first_layouts.c "$B/lib/liblayout.a" -o "$B/lab01/first_layouts" && "$B/lab01/first_layouts"
