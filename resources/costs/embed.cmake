# SPDX-License-Identifier: MIT
# Builds the cost model presets into a C++ source (core/io/costfile.h costPresetNames):
#   cmake -DROOT=resources/costs -DFILES=notebook.json,... -DOUT=file.cpp -P embed.cmake
# FILES (comma-separated, relative to ROOT) is core/io/CMakeLists.txt's glob of ROOT/*.json.
string(REPLACE "," ";" files "${FILES}")
list(SORT files)
set(body "// Generated from resources/costs/ by resources/costs/embed.cmake. Do not edit.\n")
string(APPEND body "#include <map>\n#include <string>\n\nnamespace rankstep::io {\n\n")
string(APPEND body "const std::map<std::string, std::string> &builtinCostFiles()\n{\n")
string(APPEND body "    static const std::map<std::string, std::string> files = {\n")
foreach(name IN LISTS files)
    file(READ "${ROOT}/${name}" text)
    string(FIND "${text}" ")cost\"" clash)
    if(NOT clash EQUAL -1)
        message(FATAL_ERROR "resources/costs/${name}: may not contain the text )cost\"")
    endif()
    string(REGEX REPLACE "\\.json$" "" preset "${name}")
    string(APPEND body "        {\"${preset}\", R\"cost(${text})cost\"},\n")
endforeach()
string(APPEND body "    };\n    return files;\n}\n\n} // namespace rankstep::io\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
