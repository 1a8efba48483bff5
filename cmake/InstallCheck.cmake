# SPDX-License-Identifier: MIT
# cmake -DBUILD_DIR=... -DSTAGE=... -DWITH_GUI=ON|OFF -P InstallCheck.cmake
# Installs the build into STAGE and runs the installed programs with a PATH that holds no build
# tree: the runner answers from the installed tree, the installed lessons load, and the installed
# app starts a run through the installed runner.
cmake_minimum_required(VERSION 3.25)

function(fail)
  string(JOIN "" text ${ARGN})
  message(FATAL_ERROR "install check: ${text}")
endfunction()

# Runs a command; fails unless it exits 0 and its output holds every EXPECT string.
function(expect_run)
  cmake_parse_arguments(arg "" "" "COMMAND;EXPECT" ${ARGN})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=RANKSTEP_CLI PATH=/usr/bin:/bin
                          ${arg_COMMAND}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  list(JOIN arg_COMMAND " " shown)
  message(STATUS "$ ${shown}\n${out}${err}")
  if(NOT code EQUAL 0)
    fail("exit status ${code} from ${shown}")
  endif()
  foreach(text IN LISTS arg_EXPECT)
    string(FIND "${out}${err}" "${text}" at)
    if(at EQUAL -1)
      fail("'${text}' not in the output of ${shown}")
    endif()
  endforeach()
endfunction()

file(REMOVE_RECURSE "${STAGE}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${STAGE}"
                RESULT_VARIABLE code OUTPUT_QUIET)
if(NOT code EQUAL 0)
  fail("cmake --install ${BUILD_DIR} --prefix ${STAGE} failed (${code})")
endif()

set(wanted bin/rankstep-cli share/rankstep/lessons/30-ddp/lesson.json
           share/rankstep/lessons/30-ddp/solution.py share/doc/rankstep/README.md
           libexec/rankstep/rankstep-runner
           share/doc/rankstep/copyright share/rankstep/python/rankstep_real/lib.py
           share/rankstep/python/rankstep_real/rank.py share/rankstep/python/rankstep_real/verify.py
           share/rankstep/python/rankstep_real/torchlesson.py)
if(WITH_GUI)
  list(APPEND wanted bin/rankstep libexec/rankstep/rankstep-figures
                     share/applications/io.github.rankstep.Rankstep.desktop
                     share/metainfo/io.github.rankstep.Rankstep.metainfo.xml
                     share/mime/packages/io.github.rankstep.Rankstep.xml
                     share/icons/hicolor/scalable/apps/rankstep.svg
                     share/icons/hicolor/48x48/apps/rankstep.png
                     share/icons/hicolor/256x256/apps/rankstep.png)
endif()
# Man pages are installed compressed (gzip -9n), as Debian's policy asks; a build without
# help2man has none.
if(EXISTS "${BUILD_DIR}/man/rankstep-cli.1")
  list(APPEND wanted share/man/man1/rankstep-cli.1.gz)
  if(WITH_GUI)
    list(APPEND wanted share/man/man1/rankstep.1.gz)
  endif()
  if(EXISTS "${STAGE}/share/man/man1/rankstep-cli.1")
    fail("share/man/man1/rankstep-cli.1 was installed uncompressed")
  endif()
endif()
foreach(file IN LISTS wanted)
  if(NOT EXISTS "${STAGE}/${file}")
    fail("${file} was not installed into ${STAGE}")
  endif()
endforeach()

# The installed desktop entry and AppStream metainfo pass their validators, as
# distributions require; the
# tools come with scripts/setup-deps.sh (desktop-file-utils, appstream).
if(WITH_GUI)
  find_program(DESKTOP_FILE_VALIDATE desktop-file-validate)
  find_program(APPSTREAMCLI appstreamcli)
  if(NOT DESKTOP_FILE_VALIDATE OR NOT APPSTREAMCLI)
    fail("desktop-file-validate and appstreamcli are needed: run scripts/setup-deps.sh")
  endif()
  expect_run(COMMAND ${DESKTOP_FILE_VALIDATE} "${STAGE}/share/applications/io.github.rankstep.Rankstep.desktop")
  # The trace's type compiles into a MIME database (as the package's trigger does).
  find_program(UPDATE_MIME_DATABASE update-mime-database)
  if(UPDATE_MIME_DATABASE)
    expect_run(COMMAND ${UPDATE_MIME_DATABASE} "${STAGE}/share/mime")
    if(NOT EXISTS "${STAGE}/share/mime/application/x-rankstep-trace.xml")
      fail("update-mime-database made no application/x-rankstep-trace")
    endif()
  endif()
  expect_run(COMMAND ${APPSTREAMCLI} validate --no-net
                     "${STAGE}/share/metainfo/io.github.rankstep.Rankstep.metainfo.xml"
             EXPECT "Validation was successful")
endif()

expect_run(COMMAND "${STAGE}/bin/rankstep-cli" lessons --lessons "${STAGE}/share/rankstep/lessons"
           EXPECT ddp fsdp gpipe)
expect_run(COMMAND "${STAGE}/bin/rankstep-cli" lesson ddp --solution
           EXPECT "Timesteps: 5.1" "Solved!")

if(WITH_GUI)
  set(home "${STAGE}/home")
  file(MAKE_DIRECTORY "${home}/config" "${home}/data")
  # The installed runner draws its figures with the installed rankstep-figures (libexec).
  expect_run(COMMAND "${STAGE}/bin/rankstep-cli" lesson ddp --solution --png "${home}/ddp.png"
             EXPECT "Solved!")
  if(NOT EXISTS "${home}/ddp.png")
    fail("the installed rankstep-cli drew no --png")
  endif()
  expect_run(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
                     QT_LOGGING_RULES=rankstep.child.debug=true
                     XDG_CONFIG_HOME=${home}/config XDG_DATA_HOME=${home}/data
                     "${STAGE}/bin/rankstep" --lesson ddp
                     --code "${STAGE}/share/rankstep/lessons/30-ddp/solution.py" --run --step end
                     --screenshot "${STAGE}/home/shot.png"
             EXPECT "starting \"${STAGE}/bin/rankstep-cli\"")
  if(NOT EXISTS "${STAGE}/home/shot.png")
    fail("the installed app wrote no screenshot")
  endif()
endif()
message(STATUS "install check: ${STAGE} holds a working install")
