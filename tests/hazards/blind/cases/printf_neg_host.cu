#include <cstdio>
void report(float v) { printf("value %f\n", v); }
