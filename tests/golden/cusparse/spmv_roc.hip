// cuda2rocm-options: --roc
#include <rocsparse/rocsparse.h>
int make(rocsparse_handle* h) { return rocsparse_create_handle(h); }
