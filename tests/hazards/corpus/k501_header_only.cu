#include <mma.h>
