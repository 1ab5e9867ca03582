// cuda2rocm-options: --roc
#include <cusparse.h>
int make(cusparseHandle_t* h) { return cusparseCreate(h); }
