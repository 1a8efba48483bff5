# SPDX-License-Identifier: MIT
# Builds the lesson files into a C++ source:
#   cmake -DROOT=lessons -DOUT=file.cpp -DFILES=05-walkthrough/hints.md,... -P embed.cmake
# FILES (comma-separated, relative to ROOT) comes from lessons/CMakeLists.txt.
string(REPLACE "," ";" files "${FILES}")
list(SORT files)
set(body "// Generated from lessons/ by lessons/embed.cmake. Do not edit.\n")
string(APPEND body "#include \"core/lessons/builtin.h\"\n\nnamespace rankstep::lessons {\n\n")
string(APPEND body "const LessonFiles &builtinLessonFiles()\n{\n    static const LessonFiles files = {\n")
foreach(name IN LISTS files)
    if(name MATCHES "(^|/)(__pycache__|\\.)")
        continue()
    endif()
    file(READ "${ROOT}/${name}" text)
    string(FIND "${text}" ")lesson\"" clash)
    if(NOT clash EQUAL -1)
        message(FATAL_ERROR "lessons/${name}: may not contain the text )lesson\"")
    endif()
    string(APPEND body "        {\"${name}\", R\"lesson(${text})lesson\"},\n")
endforeach()
string(APPEND body "    };\n    return files;\n}\n\n} // namespace rankstep::lessons\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
