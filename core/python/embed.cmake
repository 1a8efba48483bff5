# SPDX-License-Identifier: MIT
# Turns the embedded Python modules into a C++ source: one raw string per module.
# Invoked as: cmake -DOUT=file.cpp -DSOURCES="a.py;b.py" -P embed.cmake
set(body "// Generated from core/python/py/*.py by embed.cmake. Do not edit.\n")
string(APPEND body "#include \"embeddedmodules.h\"\n\nnamespace rankstep::python {\n\n")
string(APPEND body "const std::vector<EmbeddedModule> &embeddedModules()\n{\n")
string(APPEND body "    static const std::vector<EmbeddedModule> modules = {\n")
foreach(src IN LISTS SOURCES)
    get_filename_component(name "${src}" NAME_WE)
    file(READ "${src}" text)
    string(APPEND body "        {\"${name}\", R\"rankstep(${text})rankstep\"},\n")
endforeach()
string(APPEND body "    };\n    return modules;\n}\n\n} // namespace rankstep::python\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
