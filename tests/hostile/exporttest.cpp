// SPDX-License-Identifier: MIT
// `rankstep-cli export --torch`: what a learner's file can put into the program written from it.
// Its name and its lines go into comments only, escaped, so that nothing of it runs when the
// program runs; a run that does not finish writes no program; the program never replaces the
// learner's file. None of these needs PyTorch: Python's own tokenizer reads the program.
#include "clilaunch.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace rankstep::hostile {
namespace {

namespace fs = std::filesystem;
using testsupport::ProcessResult;
using testsupport::TempDir;

const std::string kSource = RANKSTEP_SOURCE_DIR;

std::vector<std::string> exportArgs(const std::string &file, const std::string &out)
{
    return {"export",   file, "--function", "ddp", "--ranks", "2",
            "--layers", "2",  "--batches",  "2",   "--torch", out};
}

// Every token of the program that is no comment, one a line (Python's tokenize reads the file as
// Python does, line breaks of every kind included); fails when the file is no Python.
ProcessResult codeTokens(const std::string &program, const TempDir &dir)
{
    return testsupport::runProgram(
        "/usr/bin/python3",
        {"-c",
         "import sys, tokenize\n"
         "with open(sys.argv[1], 'rb') as f:\n"
         "    for t in tokenize.tokenize(f.readline):\n"
         "        if t.type != tokenize.COMMENT: print(repr(t.string))\n"
         "compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')\n",
         program},
        dir);
}

// The DDP solution with a line that tries to end a comment (a form feed, Unicode's line and
// paragraph separators and NEL, a string's quotes, a terminal control), each piece carrying PWNED,
// on the line of an operation so that the program's comment quotes it. (A carriage return ends a
// line for Python as a newline does, so no line holds one: the file's name does.)
std::string hostileDdp()
{
    std::string code = testsupport::readFileText(kSource + "/lessons/30-ddp/solution.py");
    const std::string loss = "model.loss(activations[model.LAYERS])";
    const std::size_t at = code.find(loss);
    if (at == std::string::npos)
        return {};
    code.insert(at + loss.size(),
                "  # \"\"\" \f\xe2\x80\xa8PWNED = 2\xe2\x80\xa9PWNED = 3"
                "\xc2\x85PWNED = 4 \x1b[2K\"\"\"");
    return code;
}

TEST(HostileExport, LearnerTextStaysInsideTheProgramsComments)
{
    TempDir dir;
    const std::string code = hostileDdp();
    ASSERT_FALSE(code.empty()) << "the DDP solution changed: update this test";
    // A file name with quotes, a newline and a carriage return.
    const std::string file = dir.write("evil\"\"\"\nPWNED = 6\r.py", code);
    const std::string out = (dir.path() / "out.py").string();
    const ProcessResult run = runCli({exportArgs(file, out), dir.path().string(), {}}, dir);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_EQ(testsupport::readFileText(file), code); // the learner's file as it was
    const std::string program = testsupport::readFileText(out);
    ASSERT_NE(program.find("PWNED"), std::string::npos) << "the comments quote the lines";
    EXPECT_NE(program.find("# line "), std::string::npos);
    // Quoted whole, each character outside printable ASCII escaped.
    EXPECT_NE(program.find("  # \"\"\" \\x0c\\u2028PWNED = 2\\u2029PWNED = 3\\u0085PWNED = 4 "
                           "\\x1b[2K\"\"\"\n"),
              std::string::npos)
        << program.substr(0, 3000);
    EXPECT_NE(program.find("evil\"\"\"\\x0aPWNED = 6\\x0d.py\n"), std::string::npos);
    const ProcessResult tokens = codeTokens(out, dir);
    ASSERT_EQ(tokens.exitCode, 0) << tokens.err;
    EXPECT_EQ(tokens.out.find("PWNED"), std::string::npos) << tokens.out;
    // What the terminal shows of the name is escaped too.
    EXPECT_EQ(run.out.find("\nPWNED"), std::string::npos) << run.out;
}

TEST(HostileExport, ARunThatFailsWritesNoProgram)
{
    TempDir dir;
    const std::string file =
        dir.write("raises.py", "async def ddp(model):\n    raise ValueError('no schedule')\n");
    const std::string out = (dir.path() / "out.py").string();
    const ProcessResult run = runCli({exportArgs(file, out), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.err.find("ValueError: no schedule"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("Not exported: the run did not finish"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(out));
}

TEST(HostileExport, TheProgramNeverReplacesTheLearnersFile)
{
    TempDir dir;
    const std::string code = testsupport::readFileText(kSource + "/lessons/30-ddp/solution.py");
    const std::string file = dir.write("ddp.py", code);
    const ProcessResult run = runCli({exportArgs(file, file), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 64) << run.out << run.err;
    EXPECT_NE(run.err.find("--torch would overwrite the input file"), std::string::npos) << run.err;
    EXPECT_EQ(testsupport::readFileText(file), code);
}

// A loop that makes 400,000 cheap operations, on two lines that alternate so that each operation
// gets a comment quoting its (long) line: the program would be 80 MB, and the operation budget
// allows gigabytes. It is refused in a sentence, and nothing is written.
TEST(HostileExport, AScheduleTooLargeForAProgramIsRefused)
{
    TempDir dir;
    std::string code = testsupport::readFileText(kSource + "/lessons/30-ddp/solution.py");
    const std::string forward =
        "    for layer in range(model.LAYERS):\n        activations[layer + 1]";
    const std::size_t at = code.find(forward);
    ASSERT_NE(at, std::string::npos) << "the DDP solution changed: update this test";
    const std::string pad(200, 'x');
    code.insert(at,
                "    for _ in range(100000):\n"
                "        a = model.forward(0, activations[0], weights[0])  # " +
                    pad +
                    "\n"
                    "        b = model.forward(0, activations[0], weights[0])  # " +
                    pad + "\n");
    const std::string file = dir.write("loop.py", code);
    const std::string out = (dir.path() / "out.py").string();
    const ProcessResult run = runCli({exportArgs(file, out), "", {}}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_NE(run.err.find("Not exported: the program would be larger than 64 MiB (rank 1 alone "
                           "makes 200009 operations)"),
              std::string::npos)
        << run.err;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_EQ(testsupport::readFileText(file), code);
}

} // namespace
} // namespace rankstep::hostile
