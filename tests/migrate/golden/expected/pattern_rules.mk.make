# Build the demo with nvcc
ROCM_PATH ?= /opt/rocm
NVCC ?= $(ROCM_PATH)/bin/hipcc
NVCCFLAGS := -O3 -std=c++17 --offload-arch=gfx90a --offload-arch=gfx942 \
   -ffast-math -fPIC
CXXFLAGS += -I$(ROCM_PATH)/include
LDLIBS += -L$(ROCM_PATH)/lib -lamdhip64 -lhiprand -lhipsparse

SRCS := $(wildcard src/*.hip)
OBJS := $(SRCS:.hip=.o)

%.o: %.hip
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

app: $(OBJS) main.o
	$(NVCC) -o $@ $^ $(LDLIBS)   # link with nvcc

# ---- findings ----
# 2:1 C2R-B202 low: CUDA_HOME pointed at the CUDA toolkit
# 2:14 C2R-B202 low: /usr/local/cuda-12.1 points at the CUDA toolkit
# 3:9 C2R-B201 medium: $(CUDA_HOME)/bin/nvcc is the CUDA compiler
# 4:29 C2R-B303 medium: -gencode arch=compute_80,code=sm_80: NVIDIA architectures; the gfx targets replace them
# 5:4 C2R-B303 medium: -gencode arch=compute_90,code=sm_90: NVIDIA architectures; the gfx targets replace them
# 5:40 C2R-B301 info: --use_fast_math is nvcc's spelling (clang's fast-math implies approximate division and sqrt as nvcc's does; compare results under the fp32 tolerance policy)
# 5:56 C2R-B301 info: -Xcompiler -fPIC is nvcc's spelling (host-compiler options are passed to clang directly (comma-separated lists are split))
# 6:13 C2R-B202 low: -I$(CUDA_HOME)/include points at the CUDA toolkit
# 7:11 C2R-B202 low: -L$(CUDA_HOME)/lib64 points at the CUDA toolkit
# 7:32 C2R-B203 medium: -lcudart links the CUDA runtime library
# 7:41 C2R-B203 medium: -lcurand links the CUDA cuRAND library
# 7:50 C2R-B203 medium: -lcusparse links the CUDA cuSPARSE library
# 9:9 C2R-B204 low: convert renamed the .cu sources
# 10:9 C2R-B204 low: convert renamed the .cu sources
# 12:6 C2R-B204 low: convert renamed the .cu sources to .hip
