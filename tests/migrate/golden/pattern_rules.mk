# Build the demo with nvcc
CUDA_HOME ?= /usr/local/cuda-12.1
NVCC ?= $(CUDA_HOME)/bin/nvcc
NVCCFLAGS := -O3 -std=c++17 -gencode arch=compute_80,code=sm_80 \
   -gencode arch=compute_90,code=sm_90 --use_fast_math -Xcompiler -fPIC
CXXFLAGS += -I$(CUDA_HOME)/include
LDLIBS += -L$(CUDA_HOME)/lib64 -lcudart -lcurand -lcusparse

SRCS := $(wildcard src/*.cu)
OBJS := $(SRCS:.cu=.o)

%.o: %.cu
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

app: $(OBJS) main.o
	$(NVCC) -o $@ $^ $(LDLIBS)   # link with nvcc
