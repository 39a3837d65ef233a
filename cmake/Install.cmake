# What `cmake --install BUILD --prefix P` (and the .deb, cmake/Package.cmake) puts where:
#   P/bin/permbb                        the solver
#   P/bin/permbb-gpu-check              the GPU engine's check (where the CUDA code is built)
#   P/bin/permbb-submit, permbb-sweep,  links to the Slurm scripts below; each finds its
#         permbb-mpirun                 lib.sh through the link (readlink -f)
#   P/share/permbb/permbb-report.py,    `permbb report`'s page builder, found from the
#         report_*.py                   executable as ../share/permbb (app/report_command.cpp)
#   P/share/permbb/slurm/               the batch script (template) and the helpers' sources
#   P/share/permbb/examples/            instance files in each format permbb reads
#   P/share/permbb/modulefiles/         environment-module files (Lmod and Tcl) for P
#   P/share/doc/permbb/                 README.md and the documentation pages
#   P/share/man/man1/permbb.1           the manual page
# Every path is relative to the executable's folder, so a prefix can be moved or unpacked
# anywhere (the .deb tests run it from a scratch root).
include(GNUInstallDirs)

install(TARGETS permbb RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET permbb-gpu-check)
  install(TARGETS permbb-gpu-check RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(permbb_share ${CMAKE_INSTALL_DATADIR}/permbb)
install(FILES report/permbb_report.py DESTINATION ${permbb_share} RENAME permbb-report.py)
install(FILES report/report_inputs.py report/report_plots.py report/report_page.py
  DESTINATION ${permbb_share})

install(PROGRAMS slurm/permbb-submit slurm/permbb-sweep slurm/permbb-mpirun
  slurm/permbb.sbatch slurm/runstate.py DESTINATION ${permbb_share}/slurm)
install(FILES slurm/lib.sh slurm/README.md DESTINATION ${permbb_share}/slurm)
foreach(helper permbb-submit permbb-sweep permbb-mpirun)
  # A relative link: it stays true wherever the prefix is unpacked. DESTDIR is honoured for
  # staged installs (cpack).
  install(CODE "
    set(link \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${helper}\")
    file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
    file(REMOVE \"\${link}\")
    file(CREATE_LINK \"../${permbb_share}/slurm/${helper}\" \"\${link}\" SYMBOLIC)
    message(STATUS \"Installing: \${link} -> ../${permbb_share}/slurm/${helper}\")")
endforeach()

install(FILES
  tests/data/instances/taillard_20x5_first3.txt
  tests/data/instances/plain_3x2.txt
  tests/data/instances/vrf_3x2.txt
  docs/examples/ta021-progress.jsonl
  cmake/examples/README.md
  DESTINATION ${permbb_share}/examples)

# The module files name the prefix they were installed under: written at install time, when
# the prefix (--prefix, or the package's /usr) is known.
foreach(module permbb.lua permbb.tcl)
  install(CODE "
    set(PERMBB_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    set(PERMBB_VERSION \"${PROJECT_VERSION}\")
    configure_file(\"${PROJECT_SOURCE_DIR}/cmake/modulefiles/${module}.in\"
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${permbb_share}/modulefiles/${module}\" @ONLY)
    message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${permbb_share}/modulefiles/${module}\")")
endforeach()

install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md"
  PATTERN "*.png" PATTERN "*.svg")
install(FILES app/permbb.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
