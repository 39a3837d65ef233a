#pragma once
// PERMBB_HD marks the functions that are compiled for both the host and the device.
// Bounds, IVM steps and factoradic arithmetic are written once with it, so the CPU tests
// exercise the very code the GPU kernels run.
#if defined(__CUDACC__)
#define PERMBB_HD __host__ __device__ __forceinline__
#else
#define PERMBB_HD inline
#endif
