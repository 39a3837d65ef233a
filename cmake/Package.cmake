# `cpack -G DEB` in the build folder: a Debian package of the installation (cmake/Install.cmake)
# under /usr. dpkg-shlibdeps (package dpkg-dev) derives the library dependencies from the
# binaries (GMP, spdlog, fmt, Open MPI, ...); the scripts' interpreters are named here. The
# package carries the build's version (build_info.hpp names the commit in `permbb --version`).
set(CPACK_PACKAGE_NAME permbb)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "permbb")
set(CPACK_PACKAGE_CONTACT "permbb maintainers <permbb@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "exact branch-and-bound for the permutation flowshop (makespan) on CPUs, GPUs and clusters")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# python3 runs `permbb report` and the Slurm run state; matplotlib draws the report's plots;
# openmpi-bin brings mpirun for cluster runs.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib, openmpi-bin")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "slurm-client")
set(CPACK_GENERATOR DEB)
include(CPack)
