// SPDX-License-Identifier: MIT
// Finding puzzle functions in a learner's notebook or Python file (core/lessons/puzzleimport.h):
// the checked-in notebook of the eight solutions (gpipe's cell broken), a .py with two functions,
// and input that is no notebook at all.
#include "core/lessons/builtin.h"
#include "core/lessons/puzzleimport.h"
#include "core/lessons/pythonsource.h"
#include "lessontestsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace rankstep::lessontests {
namespace {

const std::vector<lessons::Lesson> &builtin()
{
    static const std::vector<lessons::Lesson> all = [] {
        auto loaded = lessons::loadLessons(lessons::builtinLessonFiles());
        return loaded ? std::move(*loaded) : std::vector<lessons::Lesson>{};
    }();
    return all;
}

std::string notebookPath()
{
    return std::string(RANKSTEP_SOURCE_DIR) + "/tests/lessons/data/puzzles.ipynb";
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

const lessons::ImportedFunction *foundFor(const lessons::PuzzleImport &result,
                                          const std::string &id)
{
    for (const auto &function : result.found)
        if (function.lessonId == id)
            return &function;
    return nullptr;
}

TEST(PuzzleImport, FindsTheEightPuzzlesOfTheNotebookInItsOrder)
{
    const auto result =
        lessons::importPuzzleSource(notebookPath(), readText(notebookPath()), builtin());
    ASSERT_TRUE(result) << result.error().message;

    std::vector<std::string> ids;
    for (const auto &function : result->found)
        ids.push_back(function.lessonId);
    EXPECT_EQ(ids, (std::vector<std::string>{"basic", "grad_accum", "ddp", "wsdp", "fsdp",
                                             "pipeline", "gpipe", "pipeline_fsdp"}));
    EXPECT_EQ(result->unmatchedFunctions, std::vector<std::string>{"myfunc"});
    EXPECT_TRUE(
        std::count(result->missingLessons.begin(), result->missingLessons.end(), "pass_along"));
    EXPECT_FALSE(std::count(result->missingLessons.begin(), result->missingLessons.end(), "ddp"));
}

TEST(PuzzleImport, CarriesTheImportsButNotTheCellsThatRunAndDraw)
{
    const auto result =
        lessons::importPuzzleSource(notebookPath(), readText(notebookPath()), builtin());
    ASSERT_TRUE(result) << result.error().message;
    const lessons::ImportedFunction *ddp = foundFor(*result, "ddp");
    ASSERT_NE(ddp, nullptr);

    EXPECT_EQ(ddp->code.rfind("from lib import Model, Dist, WeightGrad\n", 0), 0U) << ddp->code;
    EXPECT_TRUE(contains(ddp->code, "async def ddp(model: Model) -> Model:")) << ddp->code;
    for (const char *left : {"asyncio.gather", "draw(out)", "set_svg_height", "myfunc", "pip"})
        EXPECT_FALSE(contains(ddp->code, left)) << left << " in\n" << ddp->code;
    EXPECT_EQ(ddp->cell, 13) << "the cell of the def, counting markdown cells";
    const std::string before = ddp->code.substr(0, ddp->code.find("async def ddp"));
    EXPECT_EQ(std::count(before.begin(), before.end(), '\n') + 1, ddp->codeLine);
}

TEST(PuzzleImport, ImportedSolutionsSolveTheirLessonsAndTheBrokenOneReportsItsError)
{
    const auto result =
        lessons::importPuzzleSource(notebookPath(), readText(notebookPath()), builtin());
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_EQ(result->found.size(), 8U);
    for (const lessons::ImportedFunction &function : result->found) {
        const lessons::Lesson *lesson = lessons::findLesson(builtin(), function.lessonId);
        ASSERT_NE(lesson, nullptr);
        const core::Trace trace = runLessonCode(*lesson, function.code, function.lessonId + ".py");
        if (function.lessonId == "gpipe") {
            ASSERT_TRUE(trace.error.has_value());
            EXPECT_EQ(trace.error->kind, core::ErrorKind::Syntax) << trace.error->message;
            continue;
        }
        EXPECT_TRUE(lessons::judge(*lesson, trace).solved)
            << function.lessonId << ": " << lessons::judge(*lesson, trace).summary << "\n"
            << (trace.error ? trace.error->message : "") << "\n"
            << function.code;
    }
}

TEST(PuzzleImport, SplitsAPythonFileWithTwoFunctionsAndTheHelperOneOfThemUses)
{
    const std::string source = R"py(import math

SCALE = 2

def fsdp_layers(model):
    return range(model.LAYERS)

# My DDP.
async def ddp(model):
    return model

@staticmethod
async def fsdp(model):
    for layer in fsdp_layers(model):
        pass
    return model

print(math.pi * SCALE)
)py";
    const auto result = lessons::importPuzzleSource("mine.py", source, builtin());
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_EQ(result->found.size(), 2U);
    const lessons::ImportedFunction &ddp = result->found[0];
    const lessons::ImportedFunction &fsdp = result->found[1];
    EXPECT_EQ(ddp.lessonId, "ddp");
    EXPECT_EQ(fsdp.lessonId, "fsdp");
    EXPECT_EQ(ddp.code,
              "from lib import *\nimport math\n\n\n# My DDP.\nasync def ddp(model):\n"
              "    return model\n");
    EXPECT_TRUE(contains(fsdp.code, "def fsdp_layers(model):")) << fsdp.code;
    EXPECT_TRUE(contains(fsdp.code, "@staticmethod\nasync def fsdp(model):")) << fsdp.code;
    EXPECT_FALSE(contains(fsdp.code, "print(")) << fsdp.code;
    EXPECT_EQ(ddp.line, 8);
    EXPECT_EQ(ddp.codeLine, 5);
    EXPECT_EQ(result->unmatchedFunctions, std::vector<std::string>{"fsdp_layers"});
}

TEST(PuzzleImport, AnUnclosedBracketDoesNotHideTheNextFunction)
{
    const auto statements = lessons::topLevelStatements(
        "def ddp(model):\n    x = [1, 2\n\nasync def fsdp(model):\n    s = '''\nnot code: x = (\n"
        "'''\n    return s\n");
    ASSERT_EQ(statements.size(), 2U);
    EXPECT_EQ(statements[0].name, "ddp");
    EXPECT_EQ(statements[1].name, "fsdp");
    EXPECT_EQ(statements[1].firstLine, 4);
    EXPECT_EQ(statements[1].lastLine, 8);
}

// grade and lesson find the same functions, the way Python does: a solution only inside a """
// string is no puzzle function; `async def ｄｄｐ` is ddp, and a helper named ｈelper travels with
// it when the puzzle calls helper; one rebound after its def is none; a solution after an unclosed
// """ is found but carries the problem that keeps it from running.
TEST(PuzzleImport, FindsThePuzzleFunctionsPythonWouldDefine)
{
    const std::string solution = "async def ddp(model):\n    return helper(model)\n";
    const auto inString =
        lessons::importPuzzleSource("a.py", "NOTES = \"\"\"\n" + solution + "\"\"\"\n", builtin());
    ASSERT_TRUE(inString) << inString.error().message;
    EXPECT_TRUE(inString->found.empty());
    EXPECT_TRUE(inString->unmatchedFunctions.empty());

    const std::string wide =
        "def \xEF\xBD\x88"
        "elper(model):\n    return model\n\n"
        "async def \xEF\xBD\x84\xEF\xBD\x84\xEF\xBD\x90(model):\n    return helper(model)\n";
    const auto normalized = lessons::importPuzzleSource("b.py", wide, builtin());
    ASSERT_TRUE(normalized) << normalized.error().message;
    ASSERT_EQ(normalized->found.size(), 1U);
    EXPECT_EQ(normalized->found[0].lessonId, "ddp");
    EXPECT_FALSE(normalized->found[0].problem);
    EXPECT_TRUE(contains(normalized->found[0].code,
                         "def \xEF\xBD\x88"
                         "elper(model):"))
        << normalized->found[0].code;

    // Bound to something else after the def: Python's ddp is None, so there is no puzzle.
    const auto rebound = lessons::importPuzzleSource("d.py", solution + "ddp = None\n", builtin());
    ASSERT_TRUE(rebound) << rebound.error().message;
    EXPECT_TRUE(rebound->found.empty());

    const auto unclosed = lessons::importPuzzleSource("c.py", "\"\"\"\n" + solution, builtin());
    ASSERT_TRUE(unclosed) << unclosed.error().message;
    ASSERT_EQ(unclosed->found.size(), 1U);
    ASSERT_TRUE(unclosed->found[0].problem);
    EXPECT_EQ(unclosed->found[0].problem->line, 1);
}

TEST(PuzzleImport, RejectsWhatIsNoNotebookOrPythonFileWithAMessage)
{
    const std::string garbage("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe", 18);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"x.ipynb", garbage},
        {"x.py", garbage},
        {"x.ipynb", "{\"cells\": [{\"cell_type\": \"code\", \"source\": 7}]}"},
        {"x.ipynb", "{\"metadata\": {}}"},
        {"x.ipynb", "[1, 2, 3]"},
        {"x.ipynb", "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"def ddp(m):\\n\""},
        {"x.ipynb", ""},
    };
    for (const auto &[name, content] : cases) {
        const auto result = lessons::importPuzzleSource(name, content, builtin());
        ASSERT_FALSE(result) << name << ": " << content;
        EXPECT_EQ(result.error().kind, core::ErrorKind::Usage);
        EXPECT_TRUE(contains(result.error().message,
                             name == "x.py" ? "not a Python file" : "not a Jupyter notebook"))
            << result.error().message;
    }
}

TEST(PuzzleImport, AFileWithoutPuzzlesFindsNothingAndSaysWhatIsMissing)
{
    const auto result = lessons::importPuzzleSource("empty.py", "", builtin());
    ASSERT_TRUE(result);
    EXPECT_TRUE(result->found.empty());
    // Every puzzle is missing; the PyTorch lessons are no notebook puzzles.
    const auto puzzles = std::count_if(builtin().begin(), builtin().end(),
                                       [](const lessons::Lesson &l) { return !l.isTorch(); });
    ASSERT_LT(puzzles, std::ptrdiff_t(builtin().size())) << "the PyTorch lessons are built in";
    EXPECT_EQ(std::ptrdiff_t(result->missingLessons.size()), puzzles);
}

// A notebook's own `def train(...)` is not the PyTorch lesson's train(run): it is not imported
// (and graded by the simulator) as if it were.
TEST(PuzzleImport, AFunctionNamedLikeAPyTorchLessonsIsNoPuzzle)
{
    const auto result = lessons::importPuzzleSource(
        "mine.py", "def train(run):\n    pass\n\nasync def ddp(model):\n    pass\n", builtin());
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_EQ(result->found.size(), 1U);
    EXPECT_EQ(result->found[0].lessonId, "ddp");
    EXPECT_EQ(result->unmatchedFunctions, std::vector<std::string>{"train"});
}

} // namespace
} // namespace rankstep::lessontests
