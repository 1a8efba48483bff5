// SPDX-License-Identifier: MIT
#include "pythontestsupport.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace rankstep::pythontests {
std::string readSourceFile(const std::string &relativePath)
{
    const std::filesystem::path path = std::filesystem::path(RANKSTEP_SOURCE_DIR) / relativePath;
    if (!std::filesystem::exists(path))
        ADD_FAILURE() << "missing source file " << path;
    return testsupport::readFileText(path);
}

int lineOf(const std::string &source, const std::string &marker)
{
    std::istringstream lines(source);
    std::string text;
    int number = 0;
    int found = 0;
    while (std::getline(lines, text)) {
        ++number;
        if (text.find(marker) == std::string::npos)
            continue;
        if (found != 0) {
            ADD_FAILURE() << "marker '" << marker << "' is on lines " << found << " and " << number;
            return 0;
        }
        found = number;
    }
    if (found == 0)
        ADD_FAILURE() << "marker '" << marker << "' is not in the source";
    return found;
}

python::RunRequest makeRequest(const std::string &source, const std::string &function, int ranks,
                               int layers, int batches)
{
    python::RunRequest request;
    request.source = source;
    request.fileName = "learner.py";
    request.function = function;
    request.config.ranks = ranks;
    request.config.layers = layers;
    request.config.batches = batches;
    request.timeLimitSeconds = 20.0;
    return request;
}

::testing::AssertionResult hasError(const core::Trace &trace, core::ErrorKind kind, int rank,
                                    int line, const std::string &part)
{
    if (!trace.error)
        return ::testing::AssertionFailure() << "the run ended without an error (status "
                                             << core::runStatusName(trace.status) << ")";
    const core::Error &error = *trace.error;
    auto failure = [&](const std::string &what) {
        return ::testing::AssertionFailure()
               << what << " in error {kind " << core::errorKindName(error.kind) << ", rank "
               << error.rank << ", line " << error.line << ", \"" << error.message << "\"}";
    };
    if (error.kind != kind)
        return failure(std::string("expected kind ") + core::errorKindName(kind));
    if (error.rank != rank)
        return failure("expected rank " + std::to_string(rank));
    if (error.line != line)
        return failure("expected line " + std::to_string(line));
    if (error.message.find(part) == std::string::npos)
        return failure("expected the message to contain \"" + part + "\"");
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult isCorrect(const core::Trace &trace)
{
    if (trace.error)
        return ::testing::AssertionFailure()
               << "error (kind " << core::errorKindName(trace.error->kind) << ", rank "
               << trace.error->rank << ", line " << trace.error->line
               << "): " << trace.error->message << "\n"
               << trace.error->traceback;
    if (trace.status != core::RunStatus::Ok)
        return ::testing::AssertionFailure() << "status " << core::runStatusName(trace.status);
    if (!trace.check.passed)
        return ::testing::AssertionFailure() << "the check failed: " << trace.check.message;
    return ::testing::AssertionSuccess();
}

CliResult runCli(const std::vector<std::string> &args, const TempDir &dir)
{
    return testsupport::runProgram(RANKSTEP_CLI, args, dir);
}

} // namespace rankstep::pythontests
