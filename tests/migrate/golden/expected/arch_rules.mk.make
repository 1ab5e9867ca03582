CC = gcc
NVCC = hipcc
ARCH ?= --offload-arch=gfx90a --offload-arch=gfx942
CUFLAGS = $(ARCH) -O3 -fgpu-rdc -Rpass-analysis=kernel-resource-usage -Wall
LIBS = -lhipblas -lrccl -lamdhip64

ifeq ($(DEBUG),1)
CUFLAGS += -g -gline-tables-only
endif

all: bench

bench: bench.cu
	@echo building $@ with nvcc   # nvcc stays in this comment
	hipcc $(CUFLAGS) -o $@ $< $(LIBS) -L/opt/rocm/lib

ptx: bench.cu
	$(NVCC) -ptx $< -o bench.ptx

# ---- findings ----
# 2:8 C2R-B201 medium: nvcc is the CUDA compiler
# 3:9 C2R-B303 medium: -arch=sm_70: NVIDIA architectures; the gfx targets replace them
# 4:23 C2R-B301 info: -rdc=true is nvcc's spelling (relocatable device code; link with -fgpu-rdc as well)
# 4:33 C2R-B302 low: --ptxas-options=-v is nvcc's: ptxas does not exist; -Rpass-analysis=kernel-resource-usage prints registers/LDS/occupancy as ptxas -v did
# 4:52 C2R-B302 medium: --maxrregcount=64 is nvcc's: no register cap option on AMD: bound registers per kernel with __launch_bounds__ (threads per block) instead
# 4:70 C2R-B301 info: -Xcompiler "-Wall" is nvcc's spelling (host-compiler options are passed to clang directly (comma-separated lists are split))
# 5:8 C2R-B203 medium: -lcublas links the CUDA cuBLAS library
# 5:17 C2R-B203 medium: -lnccl links the CUDA NCCL library
# 5:24 C2R-B203 medium: -lcuda links the CUDA runtime library (the driver API is part of the HIP runtime)
# 8:12 C2R-B301 info: -G is nvcc's spelling (device debug information; optimisation is not turned off as nvcc's -G does: add -O0 to debug)
# 8:15 C2R-B301 info: -lineinfo is nvcc's spelling (line tables for profilers and sanitizers without full debug info)
# 15:2 C2R-B201 medium: nvcc is the CUDA compiler
# 15:35 C2R-B202 low: -L/usr/local/cuda/lib64 points at the CUDA toolkit
# 18:10 C2R-B304 high: -ptx makes NVIDIA-only output: clang emits AMDGPU code objects, not PTX: use --cuda-device-only -S for assembly
