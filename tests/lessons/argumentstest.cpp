// SPDX-License-Identifier: MIT
// rankstep-cli's command line (CLI11 in cli/arguments.cpp): `--` ends the options (a
// file may be named "--x.py"), -h and --help work anywhere before it, an unknown option, a
// missing value or a value given to a flag is exit 64 with a sentence naming it, --name=value and
// a repeated option (the last wins) work, and --version is the project's.
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>

namespace rankstep::lessontests {
namespace {

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

class Arguments : public ::testing::Test
{
protected:
    TempDir m_dir;
};

TEST_F(Arguments, DoubleDashEndsTheOptions)
{
    m_dir.write("--x.py", readText(lessonsRoot() + "/30-ddp/solution.py"));
    // From the folder, so that the file's name is the argument as typed.
    const CliResult run = testsupport::runProgram(
        "/bin/sh",
        {"-c", "cd '" + m_dir.path().string() +
                   "' && exec '" RANKSTEP_CLI
                   "' run --function ddp --ranks 4 --layers 2 --batches 4 -- --x.py"},
        m_dir);
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(contains(run.out, "Timesteps: 5.1")) << run.out;
    const CliResult help = runCli({"run", "--", "-h"}, m_dir);
    EXPECT_EQ(help.exitCode, 64) << "after --, -h is a file's name, and there is none";
    EXPECT_FALSE(contains(help.out, "Usage:"));
}

TEST_F(Arguments, HelpWorksAnywhere)
{
    for (const std::vector<std::string> &args : {std::vector<std::string>{"-h"},
                                                 {"run", "x.py", "-h"},
                                                 {"grade", "a", "--help"},
                                                 {"lesson", "ddp", "--solution", "-h"}}) {
        const CliResult result = runCli(args, m_dir);
        EXPECT_EQ(result.exitCode, 0) << args.back();
        EXPECT_EQ(result.out.rfind("Usage: rankstep-cli run FILE", 0), 0U) << result.out;
    }
}

TEST_F(Arguments, UsageMistakesAreExit64WithTheirName)
{
    const std::string a = m_dir.write("a.py", readText(lessonsRoot() + "/30-ddp/solution.py"));
    const std::pair<std::vector<std::string>, std::string> cases[] = {
        {{"run", a, "--bogus"}, "unknown option --bogus"},
        {{"run", a, "--timeout"}, "--timeout needs a value"},
        {{"run", a, "--lessons", "x"}, "unknown option --lessons"},
        {{"grade", a, "--json=no"}, "--json takes no value"},
        {{"frobnicate"}, "frobnicate"},
    };
    for (const auto &[args, said] : cases) {
        const CliResult result = runCli(args, m_dir);
        EXPECT_EQ(result.exitCode, 64) << said;
        EXPECT_TRUE(contains(result.err, said)) << result.err;
    }
}

TEST_F(Arguments, EqualsFormsAndTheLastRepeatWin)
{
    const std::string a = m_dir.write("a.py", readText(lessonsRoot() + "/30-ddp/solution.py"));
    const CliResult result = runCli(
        {"run", a, "--function=ddp", "--ranks", "2", "--ranks=4", "--layers=2", "--batches", "4"},
        m_dir);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_TRUE(contains(result.out, "Timesteps: 5.1")) << result.out;
}

TEST_F(Arguments, VersionIsTheProjects)
{
    const CliResult result = runCli({"--version"}, m_dir);
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_EQ(result.out, "rankstep-cli " RANKSTEP_PROJECT_VERSION "\n");
}

// A cost preset is one file of resources/costs: --cost in the help names exactly those.
TEST_F(Arguments, TheHelpNamesEveryCostPresetFile)
{
    const CliResult result = runCli({"--help"}, m_dir);
    ASSERT_EQ(result.exitCode, 0);
    // The help wraps its lines anywhere: one space for each run of spaces and line breaks.
    std::string out;
    for (const char c : result.out)
        if (!std::isspace(static_cast<unsigned char>(c)))
            out += c;
        else if (!out.empty() && out.back() != ' ')
            out += ' ';
    const std::string lead = "the cost model: ", tail = " or a rankstep-cost JSON file";
    const std::size_t start = out.find(lead);
    const std::size_t end = out.find(tail, start);
    ASSERT_NE(end, std::string::npos) << result.out;
    // "notebook (the default), gpt2-small-8xa100, llama2-7b-8xh100, ..." as names.
    std::istringstream words(out.substr(start + lead.size(), end - start - lead.size()));
    std::set<std::string> named;
    for (std::string word; words >> word;)
        if (word.back() == ',' && word != "default),")
            named.insert(word.substr(0, word.size() - 1));
        else if (word == "(the")
            continue;
        else if (word != "default),")
            named.insert(word);
    std::set<std::string> files;
    for (const auto &entry :
         std::filesystem::directory_iterator(RANKSTEP_SOURCE_DIR "/resources/costs"))
        if (entry.path().extension() == ".json")
            files.insert(entry.path().stem().string());
    EXPECT_GE(files.size(), 2U);
    EXPECT_EQ(named, files) << result.out.substr(start, end - start);
}

} // namespace
} // namespace rankstep::lessontests
