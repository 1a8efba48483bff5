# SPDX-License-Identifier: MIT
# What `cmake --install` puts in place (the icon and the desktop entry: resources/CMakeLists.txt).
# Both programs go to bin/: rankstep-cli is a command of its own (runs, grading), and the app
# finds it beside itself (gui/runcontroller.cpp). The lessons are built into both programs; the
# installed copy in share/rankstep/lessons is for teachers to read, copy and change
# (`rankstep --lessons DIR`, `rankstep-cli lessons --lessons DIR`).
include(GNUInstallDirs)

install(TARGETS rankstep-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT app)
# rankstep-figures draws rankstep-cli's --svg, --png and --state-png; rankstep-cli finds it in
# ../libexec/rankstep/ from itself (cli/figureexport.cpp).
if(TARGET rankstep-figures)
  install(TARGETS rankstep-figures RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/rankstep
          COMPONENT app)
endif()
if(TARGET rankstep)
  install(TARGETS rankstep RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT app)
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/lessons/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/rankstep/lessons COMPONENT app
        FILES_MATCHING PATTERN "*.json" PATTERN "*.md" PATTERN "*.py"
        PATTERN "__pycache__" EXCLUDE)
# The Python package of `rankstep-cli real` (issue 17): rankstep-cli finds it in
# ../share/rankstep/python from itself, before the source tree's core/real (cli/realcommand.h).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/real/rankstep_real
        DESTINATION ${CMAKE_INSTALL_DATADIR}/rankstep/python COMPONENT app
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
# copyright: the license in the form Debian's policy asks of every package.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/resources/copyright
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/rankstep COMPONENT app)

# Installs this build into a fresh prefix and runs the programs from there: the installed app
# must find the installed runner, and the installed lessons must load.
if(RANKSTEP_BUILD_TESTS)
  add_test(NAME install.StagedTreeRuns
           COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR}
                   -DSTAGE=${PROJECT_BINARY_DIR}/install-check -DWITH_GUI=${RANKSTEP_BUILD_GUI}
                   -P ${PROJECT_SOURCE_DIR}/cmake/InstallCheck.cmake)
  set_tests_properties(install.StagedTreeRuns PROPERTIES LABELS install TIMEOUT 300)
endif()
