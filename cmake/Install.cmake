# SPDX-License-Identifier: MIT
# What `cmake --install` puts in place (the icon and the desktop entry: resources/CMakeLists.txt).
# Both programs go to bin/: rankstep-cli is a command of its own (runs, grading), and the app
# finds it beside itself (gui/runcontroller.cpp). The lessons are built into both programs; the
# installed copy in share/rankstep/lessons is for teachers to read, copy and change
# (`rankstep --lessons DIR`, `rankstep-cli lessons --lessons DIR`).
include(GNUInstallDirs)

install(TARGETS rankstep-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT app)
# rankstep-runner hosts learners' code for rankstep-cli, which finds it in ../libexec/rankstep/
# from itself (cli/supervisor.cpp); it links no lesson data.
install(TARGETS rankstep-runner RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/rankstep
        COMPONENT app)
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
        FILES_MATCHING PATTERN "*.json" PATTERN "*.md" PATTERN "*.py" PATTERN "*.svg"
        PATTERN "__pycache__" EXCLUDE)
# The Python package of `rankstep-cli real`: rankstep-cli finds it in
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

# Man pages for both programs, made from their --help by help2man (so they never
# disagree with the help) and installed to
# share/man/man1; `man -l build/man/rankstep-cli.1` reads one in the build tree.
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(RANKSTEP_MAN_DIR ${PROJECT_BINARY_DIR}/man)
  file(MAKE_DIRECTORY ${RANKSTEP_MAN_DIR})
  set(man_pages ${RANKSTEP_MAN_DIR}/rankstep-cli.1)
  add_custom_command(
    OUTPUT ${RANKSTEP_MAN_DIR}/rankstep-cli.1
    COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section 1
            --name "run, check and grade distributed-training puzzles"
            --output ${RANKSTEP_MAN_DIR}/rankstep-cli.1 $<TARGET_FILE:rankstep-cli>
    DEPENDS rankstep-cli
    COMMENT "Writing the man page of rankstep-cli"
    VERBATIM)
  if(TARGET rankstep)
    # The app's --help needs no display: a wrapper runs it on the offscreen platform.
    set(wrapper ${RANKSTEP_MAN_DIR}/rankstep)
    file(GENERATE OUTPUT ${wrapper}
         CONTENT "#!/bin/sh\nQT_QPA_PLATFORM=offscreen LANG=C exec \"$<TARGET_FILE:rankstep>\" \"$@\" 2>/dev/null\n"
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                          WORLD_READ WORLD_EXECUTE)
    add_custom_command(
      OUTPUT ${RANKSTEP_MAN_DIR}/rankstep.1
      COMMAND ${HELP2MAN} --no-info --section 1
              --name "learn how large language models are trained on many GPUs"
              --output ${RANKSTEP_MAN_DIR}/rankstep.1 ${wrapper}
      DEPENDS rankstep ${wrapper}
      COMMENT "Writing the man page of rankstep"
      VERBATIM)
    list(APPEND man_pages ${RANKSTEP_MAN_DIR}/rankstep.1)
  endif()
  # Installed compressed, as Debian's policy asks of man pages: gzip -9n (no name or time stamp
  # in the header, so the same page gives the same bytes in every build).
  find_program(GZIP gzip REQUIRED)
  set(compressed_pages)
  foreach(page IN LISTS man_pages)
    add_custom_command(
      OUTPUT ${page}.gz
      COMMAND ${GZIP} -9n --force --keep ${page}
      DEPENDS ${page}
      COMMENT "Compressing ${page}"
      VERBATIM)
    list(APPEND compressed_pages ${page}.gz)
  endforeach()
  add_custom_target(rankstep_man ALL DEPENDS ${man_pages} ${compressed_pages})
  install(FILES ${compressed_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT app)
  if(RANKSTEP_BUILD_TESTS)
    foreach(page IN LISTS man_pages)
      get_filename_component(name ${page} NAME_WE)
      add_test(NAME install.ManPage.${name}
               COMMAND sh -c "MANWIDTH=80 man -l '${page}' | grep -q 'SYNOPSIS\\|Usage' && MANWIDTH=80 man -l '${page}' | grep -q -- '--help'")
    endforeach()
  endif()
else()
  message(WARNING "help2man not found: no man pages (scripts/setup-deps.sh installs it)")
endif()
