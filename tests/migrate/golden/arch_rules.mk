CC = gcc
NVCC = nvcc
ARCH ?= -arch=sm_70
CUFLAGS = $(ARCH) -O3 -rdc=true --ptxas-options=-v --maxrregcount=64 -Xcompiler "-Wall"
LIBS = -lcublas -lnccl -lcuda

ifeq ($(DEBUG),1)
CUFLAGS += -G -lineinfo
endif

all: bench

bench: bench.cu
	@echo building $@ with nvcc   # nvcc stays in this comment
	nvcc $(CUFLAGS) -o $@ $< $(LIBS) -L/usr/local/cuda/lib64

ptx: bench.cu
	$(NVCC) -ptx $< -o bench.ptx
