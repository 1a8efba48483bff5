// SPDX-License-Identifier: MIT
// A class folder shaped against the teacher who grades it: submissions that are links to the
// teacher's solution or to /etc/shadow, exception texts and folder names full of terminal escape
// sequences, folder names that are spreadsheet formulas, a cost file that calls itself
// "notebook", unreadable files and folders, and solutions Python would not define (only inside a
// """ string) or would (a fullwidth name). Each is graded as Python and the files say, and the
// teacher's terminal and spreadsheet show only text.
#include "tempdir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace rankstep::hostile {
namespace {

namespace fs = std::filesystem;
using testsupport::ProcessResult;
using testsupport::TempDir;

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

std::string solution()
{
    return testsupport::readFileText(fs::path(RANKSTEP_SOURCE_DIR) / "lessons/30-ddp/solution.py");
}

ProcessResult cli(const std::vector<std::string> &args, const TempDir &dir)
{
    return testsupport::runProgram(RANKSTEP_CLI, args, dir);
}

ProcessResult grade(std::vector<std::string> args, const TempDir &dir)
{
    args.insert(args.begin(), "grade");
    args.insert(args.end(), {"--timeout", "10"});
    return cli(args, dir);
}

// A byte that steers a terminal: a C0 control other than the line break, or DEL.
bool hasControl(const std::string &text)
{
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return (byte < 0x20 && c != '\n') || byte == 0x7F;
    });
}

TEST(HostileGrade, SubmissionLinksThatLeaveTheClassFolderAreRefusedLinksInsideAreGraded)
{
    TempDir dir;
    const std::string teacher = dir.write("teacher/solution.py", solution() + "# TEACHER ONLY\n");
    const std::string shadow = dir.write("shadow", "root:$6$SECRET-HASH:19000:0:99999:7:::\n");
    const fs::path folder = dir.path() / "class";
    dir.write("class/ana/ddp.py", solution());
    fs::create_directories(folder / "eve");
    fs::create_directories(folder / "mal");
    fs::create_directories(folder / "carl");
    fs::create_directories(folder / "bob");
    fs::create_symlink(teacher, folder / "eve" / "ddp.py");
    fs::create_symlink("../../shadow", folder / "mal" / "ddp.py");
    fs::create_directory_symlink(dir.path() / "teacher", folder / "carl" / "work");
    fs::create_symlink("../ana/ddp.py", folder / "bob" / "ddp.py");

    const ProcessResult graded = grade({folder.string()}, dir);
    EXPECT_EQ(graded.exitCode, 0) << graded.err;
    EXPECT_TRUE(contains(graded.out, "2 of 2 puzzle functions solved.")) << graded.out;
    EXPECT_TRUE(contains(graded.out, "symbolic link to a file outside the folder being graded"))
        << graded.out;
    EXPECT_TRUE(contains(graded.out, "symbolic link to a folder outside the folder being graded"))
        << graded.out;
    EXPECT_FALSE(contains(graded.out + graded.err, "SECRET")) << graded.out;
    const ProcessResult roster = grade({folder.string(), "--roster", "--csv"}, dir);
    EXPECT_TRUE(contains(roster.out, "bob,solved\n")) << roster.out;
    EXPECT_TRUE(contains(roster.out, "eve,\"unreadable: it is a symbolic link")) << roster.out;
    // The app opens a cell's file when it is clicked: a refused link is no cell's file.
    const ProcessResult json = grade({folder.string(), "--roster", "--json"}, dir);
    EXPECT_TRUE(contains(json.out, "\"unreadable: it is a symbolic link")) << json.out;
    EXPECT_FALSE(contains(json.out, "eve/ddp.py")) << json.out;

    // Named one by one (the shell's class/*/ddp.py), the link is refused as well.
    const ProcessResult named = grade({(folder / "eve" / "ddp.py").string()}, dir);
    EXPECT_EQ(named.exitCode, 0) << named.err;
    EXPECT_TRUE(contains(named.out, "0 of 0 puzzle functions solved.")) << named.out;
    EXPECT_TRUE(contains(named.out, "symbolic link to a file outside its folder")) << named.out;
    EXPECT_EQ(testsupport::readFileText(teacher), solution() + "# TEACHER ONLY\n");
    EXPECT_EQ(testsupport::readFileText(shadow), "root:$6$SECRET-HASH:19000:0:99999:7:::\n");
}

// An exception text that returns the cursor, erases the line, prints a row that looks solved,
// sets the clipboard (OSC 52) and hides what follows (SGR 8), from a learner whose folder name
// holds a line break and an escape too.
TEST(HostileGrade, NothingALearnerChoseReachesTheTerminalAsAControlCharacter)
{
    TempDir dir;
    const std::string code =
        "async def ddp(model):\n"
        "    raise ValueError('x\\r\\x1b[2Kzed/ddp.py  ddp  solved  5.1 / 5.1"
        "\\x1b]52;c;aGk=\\x07\\x1b[8m')\n";
    const std::string learner = "new\nline\x1b[1A";
    dir.write("class/mal/ddp.py", code);
    dir.write("class/" + learner + "/ddp.py", code);
    const std::string folder = (dir.path() / "class").string();
    for (const std::vector<std::string> &format :
         std::vector<std::vector<std::string>>{{},
                                               {"--csv"},
                                               {"--roster"},
                                               {"--roster", "--csv"},
                                               {"--json"},
                                               {"--roster", "--json"}}) {
        std::vector<std::string> args{folder};
        args.insert(args.end(), format.begin(), format.end());
        const ProcessResult graded = grade(args, dir);
        EXPECT_EQ(graded.exitCode, 0) << graded.err;
        EXPECT_FALSE(hasControl(graded.out)) << graded.out;
        EXPECT_FALSE(hasControl(graded.err)) << graded.err;
        EXPECT_FALSE(contains(graded.out, "new\nline")) << graded.out;
    }
    const ProcessResult table = grade({folder}, dir);
    EXPECT_TRUE(contains(table.out, "\n\n0 of 2 puzzle functions solved.\n")) << table.out;
    EXPECT_TRUE(contains(table.out, "ValueError: x\\r\\x1b[2Kzed/ddp.py")) << table.out;
    EXPECT_TRUE(contains(table.out, "class/new\\nline\\x1b[1A/ddp.py")) << table.out;
    EXPECT_EQ(std::count(table.out.begin(), table.out.end(), '\n'), 5) << table.out;
    const ProcessResult json = grade({folder, "--json"}, dir);
    EXPECT_TRUE(contains(json.out, R"("learner": "new\u000aline\u001b[1A")")) << json.out;
}

// The same exception under run and sweep, and a path named on the command line that holds escapes
// (the shell's class/* expands a learner's folder name): the error is printed as text.
TEST(HostileGrade, ErrorsOfARunAndOfABadPathArePrintedAsText)
{
    TempDir dir;
    const std::string code = dir.write("mal.py",
                                       "async def ddp(model):\n"
                                       "    raise ValueError('x\\r\\x1b[2Kok\\x1b[8m')\n");
    const ProcessResult run = cli({"run", code, "--function", "ddp"}, dir);
    EXPECT_EQ(run.exitCode, 2) << run.err;
    EXPECT_TRUE(contains(run.err, "ValueError: x\\r\\x1b[2Kok\\x1b[8m")) << run.err;
    EXPECT_FALSE(hasControl(run.out + run.err)) << run.out << run.err;
    const ProcessResult sweep = cli({"sweep", code, "--function", "ddp", "--ranks", "1,2"}, dir);
    EXPECT_TRUE(contains(sweep.out, "ValueError: x\\r\\x1b[2Kok\\x1b[8m")) << sweep.out;
    EXPECT_FALSE(hasControl(sweep.out + sweep.err)) << sweep.out << sweep.err;
    const ProcessResult missing = grade({(dir.path() / "\x1b]52;c;aGk=\x07gone").string()}, dir);
    EXPECT_EQ(missing.exitCode, 64) << missing.err;
    EXPECT_TRUE(contains(missing.err, "\\x1b]52;c;aGk=\\x07gone")) << missing.err;
    EXPECT_FALSE(hasControl(missing.err)) << missing.err;
}

// The first field of each line of a CSV, unquoted.
std::vector<std::string> firstFields(const std::string &csv)
{
    std::vector<std::string> fields;
    std::istringstream lines(csv);
    for (std::string line; std::getline(lines, line);)
        fields.push_back(line.empty() || line[0] != '"' ? line.substr(0, line.find(','))
                                                        : line.substr(1));
    return fields;
}

TEST(HostileGrade, NoCsvCellOfALearnerIsASpreadsheetFormula)
{
    TempDir dir;
    const std::vector<std::string> names = {
        "=HYPERLINK(\"evil.example\",\"marks\")", "+1+2", "-2+3", "@SUM(1)", "\tx", "=1,2"};
    for (const std::string &name : names)
        dir.write("class/" + name + "/notes.py", "x = 1\n");
    const std::string folder = (dir.path() / "class").string();
    const ProcessResult roster = grade({folder, "--roster", "--csv"}, dir);
    EXPECT_EQ(roster.exitCode, 0) << roster.err;
    const ProcessResult rows = grade({folder, "--csv"}, dir);
    for (const ProcessResult *csv : {&roster, &rows}) {
        const std::vector<std::string> first = firstFields(csv->out);
        ASSERT_EQ(first.size(), names.size() + 1) << csv->out;
        for (const std::string &field : first)
            EXPECT_EQ(std::string("=+-@\t\r").find(field.front()), std::string::npos) << field;
    }
    EXPECT_TRUE(contains(roster.out, "\"'=HYPERLINK(\"\"evil.example\"\",\"\"marks\"\")\""))
        << roster.out;
    EXPECT_TRUE(contains(roster.out, "\n\"'=1,2\"\n")) << roster.out;
}

TEST(HostileGrade, ACostFileNamedNotebookDoesNotPassForTheNotebook)
{
    TempDir dir;
    const fs::path costs = fs::path(RANKSTEP_SOURCE_DIR) / "resources/costs";
    std::string gpt2 = testsupport::readFileText(costs / "gpt2-small-8xa100.json");
    const std::string name = R"("name": "gpt2-small-8xa100")";
    ASSERT_TRUE(contains(gpt2, name));
    gpt2.replace(gpt2.find(name), name.size(), R"("name": "notebook")");
    const std::string file = dir.write("notebook.json", gpt2);
    const ProcessResult run = cli({"lesson", "ddp", "--solution", "--cost", file}, dir);
    EXPECT_EQ(run.exitCode, 1) << run.err;
    EXPECT_TRUE(contains(run.out, "Correct under the cost model notebook (from " + file +
                                      "); lessons are graded under the notebook's costs."))
        << run.out;
    // The notebook's own numbers under a file's name are the notebook's costs: solved.
    const std::string copy =
        dir.write("mine.json", testsupport::readFileText(costs / "notebook.json"));
    const ProcessResult same = cli({"lesson", "ddp", "--solution", "--cost", copy}, dir);
    EXPECT_EQ(same.exitCode, 0) << same.out << same.err;
    EXPECT_TRUE(contains(same.out, "Solved!")) << same.out;
    EXPECT_EQ(testsupport::readFileText(file), gpt2);
}

// Root reads every file whatever its mode: the grader then runs as nobody (setpriv), as a
// teacher's account would.
ProcessResult gradeAsAnAccount(const std::vector<std::string> &args, const TempDir &dir)
{
    if (geteuid() != 0)
        return grade(args, dir);
    std::vector<std::string> all = {"--reuid=65534", "--regid=65534", "--clear-groups",
                                    RANKSTEP_CLI, "grade"};
    all.insert(all.end(), args.begin(), args.end());
    all.insert(all.end(), {"--timeout", "10"});
    return testsupport::runProgram("/usr/bin/setpriv", all, dir);
}

TEST(HostileGrade, AnUnreadableFileOrFolderIsSaidUnreadableAndItsLearnerStays)
{
    if (geteuid() == 0 && !fs::exists("/usr/bin/setpriv"))
        GTEST_SKIP() << "running as root without setpriv, every file can be read";
    TempDir dir;
    // A build in a folder only root may enter (a clone under /root, a mktemp -d) cannot be run by
    // the account the grader runs as here.
    if (geteuid() == 0)
        for (fs::path folder = fs::path(RANKSTEP_CLI).parent_path(); folder != folder.root_path();
             folder = folder.parent_path())
            if ((fs::status(folder).permissions() & fs::perms::others_exec) == fs::perms::none)
                GTEST_SKIP() << "the account nobody cannot enter " << folder
                             << ", so it cannot run rankstep-cli from this build";
    dir.write("class/ana/ddp.py", solution());
    const std::string bob = dir.write("class/bob/ddp.py", solution());
    dir.write("class/carl/ddp.py", solution());
    const fs::path carl = dir.path() / "class" / "carl";
    fs::permissions(dir.path(), fs::perms(0755));
    fs::permissions(bob, fs::perms::none);
    fs::permissions(carl, fs::perms::none);
    const std::string folder = (dir.path() / "class").string();
    const ProcessResult table = gradeAsAnAccount({folder}, dir);
    const ProcessResult roster = gradeAsAnAccount({folder, "--roster", "--csv"}, dir);
    fs::permissions(bob, fs::perms(0644));
    fs::permissions(carl, fs::perms(0755));

    EXPECT_EQ(table.exitCode, 0) << table.err;
    EXPECT_TRUE(contains(table.out, "1 of 1 puzzle functions solved.")) << table.out;
    EXPECT_TRUE(contains(table.out, "bob/ddp.py': permission denied")) << table.out;
    EXPECT_TRUE(
        contains(table.out, "cannot read the folder '" + carl.string() + "': permission denied"))
        << table.out;
    EXPECT_TRUE(contains(roster.out, "\nbob,unreadable: permission denied\n")) << roster.out;
    EXPECT_TRUE(contains(roster.out, "\ncarl,unreadable: permission denied\n")) << roster.out;
    EXPECT_EQ(testsupport::readFileText(bob), solution());
}

// grade finds a learner's functions as Python does, the way lesson and run do: a solution only
// inside a """ string is no function for any of them; `async def ｄｄｐ` is ddp for all of them; a
// solution after an unclosed """ is a syntax error for both; one rebound to None after its def is
// no function for either.
TEST(HostileGrade, GradeLessonAndRunFindTheFunctionsPythonDefines)
{
    TempDir dir;
    const std::string inString =
        dir.write("class/in-string.py", "NOTES = \"\"\"\n" + solution() + "\"\"\"\n");
    std::string wide = solution();
    wide.replace(wide.find("async def ddp"), 13, "async def \xEF\xBD\x84\xEF\xBD\x84\xEF\xBD\x90");
    const std::string fullwidth = dir.write("class/fullwidth.py", wide);
    const std::string unclosed = dir.write("class/unclosed.py", "\"\"\"\n" + solution());
    const std::string rebound = dir.write("class/rebound.py", solution() + "ddp = None\n");

    const ProcessResult graded = grade({(dir.path() / "class").string()}, dir);
    EXPECT_EQ(graded.exitCode, 0) << graded.err;
    EXPECT_TRUE(contains(graded.out, "1 of 2 puzzle functions solved.")) << graded.out;
    EXPECT_TRUE(contains(graded.out, "class/in-string.py  -       no puzzle")) << graded.out;
    EXPECT_TRUE(contains(graded.out, "class/fullwidth.py  ddp     solved")) << graded.out;
    EXPECT_TRUE(contains(graded.out, "class/unclosed.py   ddp     error")) << graded.out;
    EXPECT_TRUE(contains(graded.out, "class/rebound.py    -       no puzzle")) << graded.out;
    EXPECT_TRUE(contains(graded.out, "line 1: SyntaxError: unterminated triple-quoted string"))
        << graded.out;

    const ProcessResult stringLesson = cli({"lesson", "ddp", inString, "--quiet"}, dir);
    EXPECT_EQ(stringLesson.exitCode, 64) << stringLesson.out << stringLesson.err;
    EXPECT_TRUE(contains(stringLesson.err, "There is no function named 'ddp'")) << stringLesson.err;
    const ProcessResult wideLesson = cli({"lesson", "ddp", fullwidth, "--quiet"}, dir);
    EXPECT_EQ(wideLesson.exitCode, 0) << wideLesson.out << wideLesson.err;
    const ProcessResult unclosedLesson = cli({"lesson", "ddp", unclosed, "--quiet"}, dir);
    EXPECT_EQ(unclosedLesson.exitCode, 2) << unclosedLesson.out << unclosedLesson.err;
    EXPECT_TRUE(contains(unclosedLesson.err, "unterminated triple-quoted string"))
        << unclosedLesson.err;

    const ProcessResult reboundLesson = cli({"lesson", "ddp", rebound, "--quiet"}, dir);
    EXPECT_EQ(reboundLesson.exitCode, 64) << reboundLesson.out << reboundLesson.err;
    EXPECT_TRUE(contains(reboundLesson.err, "'ddp' in " + rebound +
                                                " is not a function: the code binds the name to a "
                                                "value of type NoneType."))
        << reboundLesson.err;

    // run, with no --function, runs the file's one function: ddp, by its fullwidth name too.
    const ProcessResult wideRun =
        cli({"run", fullwidth, "--ranks", "4", "--layers", "2", "--batches", "4"}, dir);
    EXPECT_EQ(wideRun.exitCode, 0) << wideRun.out << wideRun.err;
    const ProcessResult stringRun = cli({"run", inString}, dir);
    EXPECT_EQ(stringRun.exitCode, 64) << stringRun.err;
}

} // namespace
} // namespace rankstep::hostile
