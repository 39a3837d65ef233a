# Third-party libraries, all from Debian packages (scripts/setup.sh installs them).
find_package(Threads REQUIRED)
find_package(spdlog REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 QUIET CONFIG)
if(NOT CLI11_FOUND)
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE ${CLI11_INCLUDE_DIR})
endif()

# GMP ships no CMake package: find the C++ binding and the C library by hand.
find_path(GMP_INCLUDE_DIR gmpxx.h REQUIRED)
find_library(GMP_LIBRARY gmp REQUIRED)
find_library(GMPXX_LIBRARY gmpxx REQUIRED)
add_library(permbb_gmp INTERFACE)
target_include_directories(permbb_gmp INTERFACE ${GMP_INCLUDE_DIR})
target_link_libraries(permbb_gmp INTERFACE ${GMPXX_LIBRARY} ${GMP_LIBRARY})
add_library(permbb::gmp ALIAS permbb_gmp)
