cmake_minimum_required(VERSION 3.18)
project(demo VERSION 1.0 LANGUAGES CXX CUDA)  # the CUDA language

set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_ARCHITECTURES 80 90)
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --use_fast_math -lineinfo")
set(MY_NVCC_FLAGS --expt-relaxed-constexpr -Xcompiler=-fPIC)

find_package(CUDAToolkit REQUIRED)
find_package(NCCL)

if(CUDA_FOUND OR CUDAToolkit_FOUND)
  message(STATUS "CUDA ${CUDAToolkit_VERSION} at ${CUDAToolkit_INCLUDE_DIRS}")
endif()

add_library(kernels STATIC
  src/reduce.cu   # a kernel
  src/host.cpp)
target_compile_options(kernels PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-extended-lambda;-Xcompiler=-Wall>
  $<$<COMPILE_LANGUAGE:CUDA>:${MY_NVCC_FLAGS}>)
target_link_libraries(kernels PUBLIC CUDA::cudart CUDA::cublas CUDA::curand nccl)
set_target_properties(kernels PROPERTIES CUDA_ARCHITECTURES "70;80" CUDA_SEPARABLE_COMPILATION ON)
