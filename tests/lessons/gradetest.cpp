// SPDX-License-Identifier: MIT
// rankstep-cli grade over a class: one learner solved DDP, one missed its memory target, one
// loops forever, one ends the process; every file is graded and the whole grade ends in bounded
// time. Also the checked-in notebook with gpipe's cell broken, and usage errors.
#include "cli/gradereport.h"
#include "cli/runreport.h"
#include "core/io/jsonparser.h"
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <map>
#include <string>
#include <vector>

namespace rankstep::lessontests {
namespace {

std::string dataPath(const std::string &name)
{
    return std::string(RANKSTEP_SOURCE_DIR) + "/tests/lessons/data/" + name;
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

// The "results" of grade --json by file name (without folder) and lesson.
std::map<std::string, const io::JsonValue *> resultsByFile(const io::JsonValue &document)
{
    std::map<std::string, const io::JsonValue *> rows;
    const io::JsonValue *results = document.find("results");
    if (!results)
        return rows;
    for (const io::JsonValue &row : results->items) {
        const std::string file = row.find("file")->text;
        rows[file.substr(file.rfind('/') + 1) + ":" + row.find("lesson")->text] = &row;
    }
    return rows;
}

std::string field(const io::JsonValue *row, const char *name)
{
    const io::JsonValue *value = row ? row->find(name) : nullptr;
    return value ? value->text : "(missing)";
}

class Grade : public ::testing::Test
{
protected:
    TempDir m_dir;
};

TEST_F(Grade, SaysSolvedNotSolvedAndStoppedForAClassAndFinishesInBoundedTime)
{
    constexpr double kLimitSeconds = 5;
    const auto start = std::chrono::steady_clock::now();
    const CliResult result = runCli(
        {"grade", dataPath("class"), "--json", "--timeout", std::to_string(int(kLimitSeconds))},
        m_dir);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    EXPECT_EQ(result.exitCode, cli::kSolved) << result.err;
    // Bounded even one run at a time on a loaded machine: each of the three runs ends by its
    // limit, the 5 s of grace after it and the 2 s before SIGKILL.
    EXPECT_LT(seconds, 3 * (kLimitSeconds + 5 + 2)) << "the endless loop was not stopped";
    const auto document = io::parseJson(result.out);
    ASSERT_TRUE(document) << document.error().message << "\n" << result.out;
    auto rows = resultsByFile(*document);
    ASSERT_EQ(rows.size(), 3U) << result.out;

    EXPECT_EQ(field(rows["alice.py:ddp"], "status"), "solved") << result.out;
    EXPECT_EQ(field(rows["alice.py:ddp"], "time"), "5.1");
    EXPECT_EQ(field(rows["alice.py:ddp"], "memory_target"), "1835008");
    EXPECT_EQ(field(rows["bob.py:ddp"], "status"), "not solved");
    EXPECT_TRUE(contains(field(rows["bob.py:ddp"], "error"), "Maximum Memory")) << result.out;
    EXPECT_GT(std::stoll(field(rows["bob.py:ddp"], "memory")), 1835008);
    EXPECT_EQ(field(rows["carol.ipynb:ddp"], "status"), "stopped");
    EXPECT_TRUE(contains(field(rows["carol.ipynb:ddp"], "error"),
                         "stopped after 5 s: still running (infinite loop?)"))
        << result.out;
    ASSERT_NE(document->find("solved"), nullptr);
    EXPECT_EQ(document->find("solved")->text, "1");
}

// Grading runs the submissions side by side: one at a time or every core, the same rows in the
// same order (the files' order, then their functions'). The two gradings run at once, so that
// carol's endless loop is waited out once, not twice.
TEST_F(Grade, OneJobOrSeveralGiveTheSameRowsInTheSameOrder)
{
    // Long enough for every run that ends to end on a loaded machine, five runs sharing its cores
    // (carol's endless loop is stopped at it in both gradings).
    const std::string limitSeconds = "20";
    const std::vector<std::string> common = {"grade",  dataPath("class"), dataPath("puzzles.ipynb"),
                                             "--json", "--timeout",       limitSeconds};
    std::vector<std::string> one = common, four = common;
    one.insert(one.end(), {"--jobs", "1"});
    four.insert(four.end(), {"--jobs", "4"});
    TempDir fourDir;
    auto running = std::async(std::launch::async, [&] { return runCli(four, fourDir); });
    const CliResult serial = runCli(one, m_dir);
    const CliResult parallel = running.get();
    ASSERT_EQ(serial.exitCode, cli::kSolved) << serial.err;
    ASSERT_EQ(parallel.exitCode, cli::kSolved) << parallel.err;
    const auto a = io::parseJson(serial.out);
    const auto b = io::parseJson(parallel.out);
    ASSERT_TRUE(a && b) << serial.out << parallel.out;
    const io::JsonValue *rowsA = a->find("results");
    const io::JsonValue *rowsB = b->find("results");
    ASSERT_TRUE(rowsA && rowsB);
    ASSERT_EQ(rowsA->items.size(), rowsB->items.size());
    ASSERT_GE(rowsA->items.size(), 4U);
    for (std::size_t i = 0; i < rowsA->items.size(); ++i)
        for (const char *key : {"file", "lesson", "function", "status", "time", "memory", "error"})
            EXPECT_EQ(field(&rowsA->items[i], key), field(&rowsB->items[i], key))
                << "row " << i << ", " << key;
    EXPECT_EQ(runCli({"grade", dataPath("class"), "--jobs", "0"}, m_dir).exitCode, cli::kUsage);
}

// The puzzle notebook demonstrates pass_to and receive with a function named `talk`, no puzzle;
// grading a notebook that holds it counts only its puzzles (the lesson's function is
// `pass_along`, a name the notebook does not use).
TEST_F(Grade, TheNotebooksTalkDemonstrationIsNotALessonRow)
{
    const std::string file = m_dir.write("notebook.py", readText(dataPath("class/alice.py")) + R"py(

async def talk(model: Model) -> None:
    if model.rank == 0:
        await model.pass_to(1, "extra cheese")
        val = await model.receive()
        print(val)
    else:
        val = await model.receive()
        print(val)
        val = await model.pass_to(0, "pizza")
)py");
    const CliResult result = runCli({"grade", file, "--json"}, m_dir);
    ASSERT_EQ(result.exitCode, cli::kSolved) << result.err;
    const auto document = io::parseJson(result.out);
    ASSERT_TRUE(document) << result.out;
    const io::JsonValue *rows = document->find("results");
    ASSERT_NE(rows, nullptr);
    ASSERT_EQ(rows->items.size(), 1U) << result.out;
    EXPECT_EQ(field(&rows->items[0], "lesson"), "ddp");
    EXPECT_EQ(field(&rows->items[0], "status"), "solved");
}

// A class folder, one folder (or file) per learner, with the typical mistakes: the roster has a
// row per learner and a column per lesson, and counts each mistake by learner.
TEST_F(Grade, TheRosterHasARowPerLearnerAndCountsTheCommonMistakes)
{
    const std::string ddp = readText(lessonsRoot() + "/30-ddp/solution.py");
    const std::string sum =
        "        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)\n";
    ASSERT_NE(ddp.find(sum), std::string::npos);
    std::string updateFirst = ddp;
    updateFirst.replace(updateFirst.find(sum), sum.size(), "");
    std::string skips = ddp;
    skips.replace(skips.find(sum), sum.size(),
                  "        if model.rank == 0:\n            return model\n" + sum);
    const std::string folder = (m_dir.path() / "class").string();
    m_dir.write("class/ana/ddp.py", ddp);
    m_dir.write("class/ana/fsdp.py", readText(lessonsRoot() + "/50-fsdp/solution.py"));
    m_dir.write("class/ben/ddp.py", updateFirst);
    m_dir.write("class/cho/ddp.py",
                "async def ddp(model):\n    if model.rank = 0:\n        pass\n");
    m_dir.write("class/dev.py", skips);
    m_dir.write("class/eli/work/ddp.py", updateFirst);

    const CliResult result =
        runCli({"grade", folder, "--roster", "--json", "--timeout", "10"}, m_dir);
    ASSERT_EQ(result.exitCode, cli::kSolved) << result.err;
    const auto document = io::parseJson(result.out);
    ASSERT_TRUE(document) << document.error().message << "\n" << result.out;
    const io::JsonValue *learners = document->find("learners");
    ASSERT_NE(learners, nullptr);
    std::map<std::string, std::pair<std::string, std::string>> cells;
    for (const io::JsonValue &learner : learners->items)
        cells[learner.find("learner")->text] = {field(learner.find("lessons"), "ddp"),
                                                field(learner.find("lessons"), "fsdp")};
    using Cells = std::pair<std::string, std::string>;
    EXPECT_EQ(cells.size(), 5U) << result.out;
    EXPECT_EQ(cells["ana"], Cells("solved", "solved"));
    EXPECT_EQ(cells["ben"], Cells("not solved: update before allreduce", "missing"));
    EXPECT_EQ(cells["cho"], Cells("not solved: syntax error", "missing"));
    EXPECT_EQ(cells["dev"], Cells("not solved: a rank skipped a collective", "missing"));
    EXPECT_EQ(cells["eli"], Cells("not solved: update before allreduce", "missing"));
    // Where each cell came from, and its error, for the app's roster to open.
    for (const io::JsonValue &learner : learners->items) {
        const std::string name = learner.find("learner")->text;
        const io::JsonValue *files = learner.find("files");
        ASSERT_NE(files, nullptr) << name;
        const std::string file = field(files, "ddp");
        EXPECT_TRUE(file.find("/" + name) != std::string::npos) << name << ": " << file;
        EXPECT_EQ(files->find("fsdp") != nullptr, name == "ana") << "a missing cell has no file";
        const io::JsonValue *errors = learner.find("errors");
        ASSERT_NE(errors, nullptr);
        EXPECT_EQ(errors->find("ddp") != nullptr, name != "ana") << name;
    }
    EXPECT_TRUE(contains(field(learners->items[2].find("errors"), "ddp"), "line 2"))
        << "cho's syntax error names its line";
    const io::JsonValue *mistakes = document->find("common_mistakes");
    ASSERT_NE(mistakes, nullptr);
    ASSERT_EQ(mistakes->items.size(), 3U) << result.out;
    EXPECT_EQ(field(&mistakes->items[0], "kind"), "update before allreduce");
    EXPECT_EQ(field(&mistakes->items[0], "learners"), "2");

    const CliResult table = runCli({"grade", folder, "--roster", "--timeout", "10"}, m_dir);
    EXPECT_TRUE(contains(table.out, "2 learners: update before allreduce (ddp)")) << table.out;
    const CliResult csv = runCli({"grade", folder, "--roster", "--csv", "--timeout", "10"}, m_dir);
    EXPECT_EQ(csv.out.rfind("learner,ddp,fsdp\nana,solved,solved\n", 0), 0U) << csv.out;
    const CliResult rows = runCli({"grade", folder, "--csv", "--timeout", "10"}, m_dir);
    EXPECT_TRUE(contains(rows.out, "ben,")) << rows.out;
    EXPECT_TRUE(contains(rows.out, ",update before allreduce,")) << rows.out;
}

TEST_F(Grade, ACrashingSubmissionDoesNotStopTheOthers)
{
    const std::string solution = readText(dataPath("class/alice.py"));
    const std::string folder = (m_dir.path() / "class").string();
    m_dir.write("class/a-exits.py", "import os\n\nasync def ddp(model):\n    os._exit(9)\n");
    m_dir.write("class/b-solved.py", solution);
    m_dir.write("class/.ipynb_checkpoints/b-solved-checkpoint.py", solution);
    m_dir.write("class/c-notes.py", "def helper():\n    return 1\n");
    m_dir.write("class/d-garbage.ipynb", std::string("\x89PNG\0\0", 6));

    const CliResult result = runCli({"grade", folder, "--timeout", "5"}, m_dir);

    EXPECT_EQ(result.exitCode, cli::kSolved) << result.err;
    EXPECT_TRUE(contains(result.out, "crashed")) << result.out;
    EXPECT_TRUE(contains(result.out, "exit code 9")) << result.out;
    EXPECT_TRUE(contains(result.out, "no puzzle function found (it defines helper)")) << result.out;
    EXPECT_TRUE(contains(result.out, "this is not a Jupyter notebook")) << result.out;
    EXPECT_TRUE(contains(result.out, "1 of 2 puzzle functions solved.")) << result.out;
    EXPECT_FALSE(contains(result.out, "checkpoint")) << "hidden folders are skipped";
}

TEST_F(Grade, ReportsTheBrokenCellOfANotebookByCellAndLine)
{
    const CliResult result = runCli({"grade", dataPath("puzzles.ipynb"), "--json"}, m_dir);

    ASSERT_EQ(result.exitCode, cli::kSolved) << result.err;
    const auto document = io::parseJson(result.out);
    ASSERT_TRUE(document) << document.error().message;
    auto rows = resultsByFile(*document);
    ASSERT_EQ(rows.size(), 8U) << result.out;
    for (const auto &[key, row] : rows) {
        if (key == "puzzles.ipynb:gpipe")
            continue;
        EXPECT_EQ(field(row, "status"), "solved") << key << ": " << field(row, "error");
    }
    EXPECT_EQ(field(rows["puzzles.ipynb:gpipe"], "status"), "error");
    EXPECT_EQ(field(rows["puzzles.ipynb:gpipe"], "error"),
              "cell 25, line 5: SyntaxError: expected ':' (column 39)");
}

TEST_F(Grade, ShowsNoFiguresForARunThatDidNotFinish)
{
    // One forward takes simulated time, then the code fails: Timesteps 1 is no result.
    const std::string file =
        m_dir.write("frank.py",
                    "async def ddp(model):\n"
                    "    weights, opt_states, activations, grad_activations, grad_weights = "
                    "model.storage()\n"
                    "    weights[0], opt_states[0] = model.load_weights(0)\n"
                    "    activations[0] = model.get_activation([model.rank])\n"
                    "    activations[1] = model.forward(0, activations[0], weights[0])\n"
                    "    raise ValueError(\"boom\")\n");

    const CliResult result = runCli({"grade", file, "--json"}, m_dir);

    const auto document = io::parseJson(result.out);
    ASSERT_TRUE(document) << document.error().message << "\n" << result.out;
    auto rows = resultsByFile(*document);
    ASSERT_EQ(field(rows["frank.py:ddp"], "status"), "error") << result.out;
    EXPECT_TRUE(rows["frank.py:ddp"]->find("time")->isNull()) << result.out;
    EXPECT_TRUE(rows["frank.py:ddp"]->find("memory")->isNull()) << result.out;
    EXPECT_EQ(field(rows["frank.py:ddp"], "time_target"), "5.1");
}

TEST_F(Grade, NamesTheLineOfTheLearnersFileNotOfTheExtractedCode)
{
    // The unused helper stays behind, so the run's code is shorter than the file.
    const std::string file = m_dir.write("eve.py",
                                         "from lib import Model\n\n\ndef unused(x):\n"
                                         "    return x\n\n\nasync def ddp(model):\n"
                                         "    raise ValueError(\"boom\")\n");

    const CliResult result = runCli({"grade", file}, m_dir);

    EXPECT_EQ(result.exitCode, cli::kSolved) << result.err;
    EXPECT_TRUE(contains(result.out,
                         "error   -              -                rank 0, line 9: "
                         "ValueError: boom"))
        << result.out;
}

TEST_F(Grade, RefusesAMissingPathWithTheUsageExitCode)
{
    const CliResult missing = runCli({"grade", (m_dir.path() / "nobody").string()}, m_dir);
    EXPECT_EQ(missing.exitCode, cli::kUsage);
    EXPECT_TRUE(contains(missing.err, "no such file or folder")) << missing.err;
    EXPECT_EQ(runCli({"grade"}, m_dir).exitCode, cli::kUsage);
}

TEST(GradeTable, AlignsTheColumnsAndCountsTheSolvedFunctions)
{
    std::vector<cli::GradeRow> rows(2);
    rows[0].file = "alice.py";
    rows[0].lesson = rows[0].function = "ddp";
    rows[0].status = "solved";
    rows[0].solved = true;
    rows[0].time = core::SimTime::steps(5);
    rows[0].memory = rows[0].memoryTarget = 1835008;
    rows[1].file = "bob.py";
    rows[1].status = "no puzzle";
    rows[1].error = "no puzzle function found";

    EXPECT_EQ(cli::formatGradeTable(rows),
              "FILE      LESSON  RESULT     TIME / TARGET  MEMORY / TARGET    ERROR\n"
              "alice.py  ddp     solved     5              1835008 / 1835008\n"
              "bob.py    -       no puzzle  -              -                  no puzzle function "
              "found\n"
              "\n1 of 1 puzzle functions solved.\n");
}

} // namespace
} // namespace rankstep::lessontests
