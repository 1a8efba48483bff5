# SPDX-License-Identifier: MIT
# Every find_package of the project, in one place. Package names are those of
# Debian 12 (see scripts/setup-deps.sh).

find_package(Threads REQUIRED)
# rankstep-cli's arguments (cli/arguments.cpp): Debian's libcli11-dev, header-only.
find_package(CLI11 2.1 CONFIG REQUIRED)

if(RANKSTEP_BUILD_GUI)
  find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets Charts Svg Test Concurrent Network LinguistTools)
  find_package(QCoro6 0.8 REQUIRED COMPONENTS Core)

  # Debian ships no CMake or pkg-config file for QScintilla.
  find_path(QSCINTILLA_INCLUDE_DIR Qsci/qsciscintilla.h
    HINTS /usr/include/${CMAKE_LIBRARY_ARCHITECTURE}/qt6 PATH_SUFFIXES qt6)
  find_library(QSCINTILLA_LIBRARY NAMES qscintilla2_qt6)
  if(NOT QSCINTILLA_INCLUDE_DIR OR NOT QSCINTILLA_LIBRARY)
    message(FATAL_ERROR "QScintilla for Qt 6 not found: install libqscintilla2-qt6-dev "
                        "(scripts/setup-deps.sh)")
  endif()
  add_library(QScintilla::QScintilla UNKNOWN IMPORTED)
  set_target_properties(QScintilla::QScintilla PROPERTIES
    IMPORTED_LOCATION "${QSCINTILLA_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${QSCINTILLA_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS QSCINTILLA_DLL
    INTERFACE_LINK_LIBRARIES Qt6::Widgets)
else()
  find_package(Qt6 6.4 REQUIRED COMPONENTS Core)
endif()

# Embed Debian's Python, never a pyenv or virtual-environment one found first on PATH.
# Change the choice only in a fresh build directory.
if(NOT DEFINED Python3_EXECUTABLE AND NOT DEFINED Python3_ROOT_DIR AND EXISTS "/usr/bin/python3")
  set(Python3_EXECUTABLE "/usr/bin/python3" CACHE FILEPATH "Python to embed")
endif()
find_package(Python3 3.11 REQUIRED COMPONENTS Interpreter Development.Embed)
find_package(pybind11 2.10 CONFIG REQUIRED)

# The runner's sandbox (cli/sandbox.cpp); Debian's libseccomp-dev ships no CMake file.
find_path(SECCOMP_INCLUDE_DIR seccomp.h)
find_library(SECCOMP_LIBRARY NAMES seccomp)
if(NOT SECCOMP_INCLUDE_DIR OR NOT SECCOMP_LIBRARY)
  message(FATAL_ERROR "libseccomp not found: install libseccomp-dev (scripts/setup-deps.sh)")
endif()
add_library(Seccomp::Seccomp UNKNOWN IMPORTED)
set_target_properties(Seccomp::Seccomp PROPERTIES
  IMPORTED_LOCATION "${SECCOMP_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${SECCOMP_INCLUDE_DIR}")

if(RANKSTEP_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()

if(RANKSTEP_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
