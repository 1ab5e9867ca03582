#include <vector>
size_t words_for(size_t nbits) { return (nbits + 31) / 32; }
std::vector<unsigned> make_bitmap(size_t nbits) { return std::vector<unsigned>(words_for(nbits)); }
