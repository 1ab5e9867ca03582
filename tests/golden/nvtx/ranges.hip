#include <roctracer/roctx.h>
void work() {
    roctxRangePushA("work");
    roctxMarkA("mark");
    roctxRangePop();
}
