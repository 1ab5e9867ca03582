project(ml
  LANGUAGES
    CXX   # host code
    CUDA  # device code
)
#[[ a bracket comment naming CUDA::cublas and --use_fast_math, never touched ]]
set(DOC [=[ CUDA::cudart stays in this bracket argument ]=])
find_package(CUDAToolkit 12.0
  REQUIRED  # we need it
)
target_compile_options(app PRIVATE
  "$<$<COMPILE_LANGUAGE:CUDA>:--expt-extended-lambda;-Xcompiler=-Wall;-O3>"  # quoted list
  $<$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>:-lineinfo>
)
target_link_libraries(app
  PRIVATE
    CUDA::cublas   # BLAS
    CUDA::cublasLt
    CUDA::cuda_driver
)
set_source_files_properties(a.cu b.cu PROPERTIES LANGUAGE CUDA)
