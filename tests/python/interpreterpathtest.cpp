// SPDX-License-Identifier: MIT
// The embedded interpreter is Debian's whatever python3 comes first on PATH: a pyenv or virtual
// environment's python3 there once made CPython load that installation's standard library into
// Debian's libpython.
#include "core/python/runtime.h"
#include "tempdir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace rankstep::python {
namespace {

TEST(InterpreterPath, AnotherPython3FirstOnPathDoesNotLendItsLibrary)
{
    const testsupport::TempDir fake;
    const std::filesystem::path bin = fake.path() / "bin";
    const std::filesystem::path lib = fake.path() / "lib" / "python3.11";
    std::filesystem::create_directories(bin);
    std::filesystem::create_directories(lib / "lib-dynload");
    std::ofstream(bin / "python3") << "#!/bin/sh\n";
    chmod((bin / "python3").c_str(), 0755);
    // A standard library whose first module ends the process that loads it.
    std::ofstream(lib / "os.py") << "import sys\nsys.stderr.write('the wrong library\\n')\n"
                                    "raise SystemExit(9)\n";
    std::ofstream(lib / "encodings.py") << "raise SystemExit(9)\n";
    const pid_t child = fork();
    if (child == 0) {
        setenv("PATH", (bin.string() + ":/usr/bin:/bin").c_str(), 1);
        Runtime runtime;
        RunRequest request;
        request.source = "import os\n\n\nasync def puzzle(model):\n    return model\n";
        request.function = "puzzle";
        const RunOutcome outcome = runtime.run(request);
        std::_Exit(outcome.trace.error ? 3 : 0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

} // namespace
} // namespace rankstep::python
