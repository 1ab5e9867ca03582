#define WARP_SIZE warpSize
