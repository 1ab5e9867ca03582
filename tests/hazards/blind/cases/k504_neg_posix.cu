#include <time.h>
void host_sleep() {
  struct timespec ts = {0, 1000};
  nanosleep(&ts, nullptr);
}
