#include <hiprand/hiprand.h>
int uniform(float* d, size_t n) {
    hiprandGenerator_t gen;
    hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT);
    hiprandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
    hiprandGenerateUniform(gen, d, n);
    return hiprandDestroyGenerator(gen) == HIPRAND_STATUS_SUCCESS ? 0 : 1;
}
