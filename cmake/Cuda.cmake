# The GPU explorer is compiled wherever nvcc exists, unless PERMBB_GPU=OFF (scripts/run-tests.sh
# turns it off on machines without a GPU, where its device tests could not run).
set(PERMBB_HAVE_CUDA OFF)
if(NOT PERMBB_GPU STREQUAL "OFF")
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # sm_90 (H100/H200) unless the user chose (-DCMAKE_CUDA_ARCHITECTURES or CUDAARCHS). Set
    # before enable_language: it would otherwise take nvcc's own default (sm_75 for nvcc 13),
    # and the kernels would run on an H200 as PTX compiled for an older architecture.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
      set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures to compile for")
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(PERMBB_HAVE_CUDA ON)
    # Shared host/device headers stay C++17 so nvcc (as CMake 3.25 drives it) compiles them.
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  elseif(PERMBB_GPU STREQUAL "ON")
    message(FATAL_ERROR "PERMBB_GPU=ON but no CUDA compiler was found")
  endif()
endif()
message(STATUS "permbb: CUDA explorer ${PERMBB_HAVE_CUDA}")
