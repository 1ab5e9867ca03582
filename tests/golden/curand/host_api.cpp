#include <curand.h>
int uniform(float* d, size_t n) {
    curandGenerator_t gen;
    curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
    curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
    curandGenerateUniform(gen, d, n);
    return curandDestroyGenerator(gen) == CURAND_STATUS_SUCCESS ? 0 : 1;
}
