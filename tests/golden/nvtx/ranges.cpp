#include <nvToolsExt.h>
void work() {
    nvtxRangePushA("work");
    nvtxMarkA("mark");
    nvtxRangePop();
}
