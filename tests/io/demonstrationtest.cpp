// SPDX-License-Identifier: MIT
// A recorded demonstration (core/io/demonstration.h, docs/demonstrations.md): what is written is
// read back exactly; a broken file, another kind of JSON file and a newer version are refused
// with a sentence that says which.
#include "core/io/demonstration.h"

#include <gtest/gtest.h>

namespace rankstep::io {
namespace {

// The tabs this reader is told of (the app passes its own list, gui/app/tabs.h).
const std::vector<std::string> kTabs = {"lesson", "state"};

Demonstration sample()
{
    Demonstration demo;
    demo.lesson = "ddp";
    demo.runs.push_back({"async def ddp(ctx):\n    print(\"why\")\n", "notebook"});
    demo.runs.push_back({"# second try\n\tx = 'ü'\n", "llama2-7b-8xh100"});
    DemoStep first;
    first.change = "lesson";
    first.tab = "lesson";
    first.caption = "Four ranks, one model each.";
    demo.steps.push_back(first);
    DemoStep run;
    run.change = "run";
    run.run = 0;
    run.tab = "state";
    run.cursor = DemoCursor{DemoCursor::Kind::Stop, 41, {}};
    run.zoom = 1.5;
    demo.steps.push_back(run);
    DemoStep cut = run;
    cut.change = "step";
    cut.cursor = DemoCursor{DemoCursor::Kind::Cut, 0, core::SimTime::fromTicks(10300)};
    cut.visibleFrom = 120.25;
    cut.visibleTo = 9000.125;
    cut.rank = 2;
    cut.event = 17;
    cut.shownRanks = {0, 2, 3};
    cut.caption = "Rank 2 waits here.\nWhy?";
    demo.steps.push_back(cut);
    DemoStep mark = cut;
    mark.change = "step";
    mark.run = 1;
    mark.cursor = DemoCursor{DemoCursor::Kind::Mark, 3, {}};
    demo.steps.push_back(mark);
    DemoStep operation = mark;
    operation.cursor = DemoCursor{DemoCursor::Kind::Operation, 18, {}};
    demo.steps.push_back(operation);
    return demo;
}

TEST(Demonstrations, ReadBackExactly)
{
    const Demonstration demo = sample();
    const std::string text = demonstrationToJson(demo);
    const auto back = demonstrationFromJson(text, kTabs);
    ASSERT_TRUE(back) << back.error().message << "\n" << text;
    EXPECT_EQ(*back, demo) << text;
    EXPECT_EQ(demonstrationToJson(*back), text);
}

TEST(Demonstrations, TheFileHasAStepALine)
{
    const std::string text = demonstrationToJson(sample());
    EXPECT_EQ(text.rfind("{\n  \"format\": \"rankstep-demonstration\",\n  \"version\": 1,", 0), 0u)
        << text;
    std::size_t stepLines = 0;
    for (std::size_t at = text.find("\n    {\"change\""); at != std::string::npos;
         at = text.find("\n    {\"change\"", at + 1))
        ++stepLines;
    EXPECT_EQ(stepLines, 5u) << text;
    EXPECT_EQ(text.back(), '\n');
}

// Replaces the first `from` in the sample's text by `to`.
std::string edited(const std::string &from, const std::string &to)
{
    std::string text = demonstrationToJson(sample());
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

std::string refusal(const std::string &text)
{
    const auto read = demonstrationFromJson(text, kTabs);
    EXPECT_FALSE(read) << text;
    return read ? std::string() : read.error().message;
}

TEST(Demonstrations, ANewerFileIsRefusedAndSaysSo)
{
    const std::string why = refusal(edited("\"version\": 1", "\"version\": 2"));
    EXPECT_NE(why.find("recorded by a newer Rankstep (file format 2; this Rankstep reads format 1 "
                       "and older). Update Rankstep to replay it"),
              std::string::npos)
        << why;
}

TEST(Demonstrations, BrokenOrForeignFilesAreRefusedWithWhere)
{
    const std::string cut = demonstrationToJson(sample()).substr(0, 200);
    EXPECT_NE(refusal(cut).find("JSON line"), std::string::npos) << refusal(cut);
    EXPECT_NE(refusal("{\"traceEvents\": []}").find("not a Rankstep demonstration"),
              std::string::npos);
    EXPECT_NE(refusal("[1, 2]").find("expected an object"), std::string::npos);
    const std::string missingRun = refusal(edited("\"run\": 1", "\"run\": 2"));
    EXPECT_NE(missingRun.find("steps[3].run: names run 2, but the file has 2 runs"),
              std::string::npos)
        << missingRun;
    EXPECT_NE(refusal(edited("\"tab\": \"state\"", "\"tab\": \"kitchen\"")).find("steps[1].tab"),
              std::string::npos);
    EXPECT_NE(refusal(edited("\"tab\": \"state\"", "\"tab\": \"kitchen\""))
                  .find("expected one of lesson, state"),
              std::string::npos);
    EXPECT_NE(refusal(edited("\"zoom\": 1.5", "\"zoom\": 1e9")).find("zoom from 0.25 to 8"),
              std::string::npos);
    EXPECT_NE(refusal(edited("\"change\": \"step\"", "\"change\": \"dance\""))
                  .find("steps[2].change: expected one of lesson, run, step"),
              std::string::npos);
    EXPECT_NE(refusal(edited("{\"stop\": 41}", "{\"where\": 41}")).find("\"mark\""),
              std::string::npos);
    EXPECT_NE(refusal(edited("[120.25, 9000.125]", "[9000.125, 120.25]")).find("from < to"),
              std::string::npos);
    Demonstration empty = sample();
    empty.steps.clear();
    EXPECT_NE(refusal(demonstrationToJson(empty)).find("no steps"), std::string::npos);
    Demonstration cursorWithoutRun = sample();
    cursorWithoutRun.steps[0].cursor = DemoCursor{};
    EXPECT_NE(refusal(demonstrationToJson(cursorWithoutRun)).find("a cursor needs a run"),
              std::string::npos);
    Demonstration longCaption = sample();
    longCaption.steps[0].caption.assign(kMaxDemonstrationCaption + 1, 'x');
    EXPECT_NE(refusal(demonstrationToJson(longCaption)).find("a caption longer than 4000 bytes"),
              std::string::npos);
}

TEST(Demonstrations, WithoutAListOfTabsAnyTabIsKept)
{
    Demonstration demo = sample();
    demo.steps[1].tab = "kitchen";
    const auto read = demonstrationFromJson(demonstrationToJson(demo), {});
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_EQ(read->steps[1].tab, "kitchen");
}

} // namespace
} // namespace rankstep::io
