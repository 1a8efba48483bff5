# SPDX-License-Identifier: MIT
# `cpack --config build/CPackConfig.cmake` (or `cmake --build build --target package`) makes
# build/rankstep_VERSION_ARCH.deb for Debian 12 from what cmake/Install.cmake installs.
# The Depends line comes from dpkg-shlibdeps (package dpkg-dev) over the installed programs, so it
# names exactly the Qt 6, QCoro, QScintilla, CPython 3.11 and C++ runtime libraries they link.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rankstep)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Rankstep developers")
set(CPACK_PACKAGE_CONTACT "Rankstep developers <dev@rankstep.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "puzzles that teach distributed training of language models")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Loaded as Qt plugins, so dpkg-shlibdeps cannot see them: the SVG icon engine and image format
# (the window icon, SVG pictures).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6svg6")
# Qt's own texts (dialog buttons) in the user's language, and PyTorch for real runs and the
# PyTorch lessons (`rankstep-cli real`, the torch_* lessons); the app runs without either.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-translations-l10n, python3-torch")
# CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY first; this is the long text under it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Rankstep teaches how large language models are trained on many GPUs: data
parallelism, sharded weights and pipelines. Learners write the puzzle code in
Python, then step through the simulated run rank by rank and watch what every
GPU computes, sends and keeps in memory.
.
The package holds the app (rankstep), the headless runner and grader
(rankstep-cli), and the lessons as files for teachers.")

find_program(RANKSTEP_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT RANKSTEP_DPKG_SHLIBDEPS)
  message(STATUS "dpkg-shlibdeps not found (package dpkg-dev): the .deb cannot be built")
endif()

include(CPack)
