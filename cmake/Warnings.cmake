# SPDX-License-Identifier: MIT
# Warning flags for Rankstep's own targets: link rankstep_warnings (PRIVATE).
# Third-party headers come in through imported targets as system includes,
# so they do not trigger these.

add_library(rankstep_warnings INTERFACE)
target_compile_options(rankstep_warnings INTERFACE
  -Wall
  -Wextra
  -Wpedantic
  -Wshadow
  -Wconversion
  -Wno-sign-conversion
)
if(RANKSTEP_WERROR)
  target_compile_options(rankstep_warnings INTERFACE -Werror)
endif()
if(RANKSTEP_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # g++ 12 with -fsanitize=address warns of "maybe uninitialized" members inside libstdc++'s
  # <regex> and <functional> (false positives the instrumentation causes; GCC documents that
  # sanitizers can add warnings). The normal build keeps the warning.
  target_compile_options(rankstep_warnings INTERFACE -Wno-maybe-uninitialized)
endif()
