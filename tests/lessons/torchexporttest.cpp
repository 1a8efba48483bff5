// SPDX-License-Identifier: MIT
// The exported PyTorch program as text (cli/torchexport.h), from traces made by hand: what a
// message carries is told from what its sender made, a learner's text is escaped in comments,
// and an operation the program cannot make is refused in a sentence. The programs running under
// torchrun are tests/hostile/exporttorchtest.cpp.
#include "cli/torchexport.h"

#include <gtest/gtest.h>

namespace rankstep::cli {
namespace {

using core::Event;
using core::IndexSet;
using core::OpKind;

Event event(int rank, OpKind op, int layer, IndexSet batches, int line)
{
    Event e;
    e.rank = rank;
    e.op = op;
    e.layer = layer;
    e.batches = std::move(batches);
    e.line = line;
    return e;
}

// Two ranks of a pipeline, one layer each: rank 0 sends its output, rank 1 sends the gradient of
// its input back.
core::Trace pipeline()
{
    core::Trace trace;
    trace.config.ranks = 2;
    trace.config.layers = 2;
    trace.config.batches = 1;
    trace.check.passed = true;
    trace.finalWeights.resize(2);
    trace.events.push_back(event(0, OpKind::Forward, 0, IndexSet{0}, 3));
    Event send = event(0, OpKind::PassTo, 1, IndexSet{0}, 4);
    send.peer = 1;
    send.link = 0;
    trace.events.push_back(send);
    Event receive = event(1, OpKind::Receive, 1, IndexSet{0}, 6);
    receive.peer = 0;
    receive.link = 0;
    trace.events.push_back(receive);
    trace.events.push_back(event(1, OpKind::Forward, 1, IndexSet{0}, 7));
    trace.events.push_back(event(1, OpKind::Loss, 1, IndexSet{0}, 8));
    trace.events.push_back(event(1, OpKind::Backward, 1, IndexSet{0}, 9));
    Event back = event(1, OpKind::PassTo, 0, IndexSet{0}, 10);
    back.peer = 0;
    back.link = 1;
    trace.events.push_back(back);
    Event got = event(0, OpKind::Receive, 0, IndexSet{0}, 5);
    got.peer = 1;
    got.link = 1;
    trace.events.push_back(got);
    return trace;
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

TEST(TorchExport, AMessageCarriesWhatItsSenderMadeWithThatIdentity)
{
    const TorchProgram program = torchProgram(pipeline(), {"pipe.py", "pipe", {}, 16, 4, 0});
    ASSERT_TRUE(program.refused.empty()) << program.refused;
    const std::string &text = program.text;
    // Layer 1 of batch 0 is first the output of forward(0), later the gradient of backward(1)'s
    // input (ActivationGrad layer 0): each message says which.
    EXPECT_TRUE(contains(text, "r.send(\"activation\", 1, [0], to=1)")) << text;
    EXPECT_TRUE(contains(text, "r.receive(\"activation\", 1, [0], source=0)")) << text;
    EXPECT_TRUE(contains(text, "r.send(\"activation_grad\", 0, [0], to=0)")) << text;
    EXPECT_TRUE(contains(text, "r.receive(\"activation_grad\", 0, [0], source=1)")) << text;
    EXPECT_TRUE(contains(text, "HIDDEN, LENGTH, SEED = 16, 4, 0"));
    EXPECT_TRUE(contains(text, "SCHEDULE = [rank_0, rank_1]"));
    EXPECT_FALSE(contains(text, "rankstep_real")) << "the program imports nothing of Rankstep";
}

TEST(TorchExport, CommentsQuoteTheLearnersLinesEscaped)
{
    TorchExportSource source{"pipe.py", "pipe", {}, 16, 4, 0};
    source.sourceLines.resize(10);
    source.sourceLines[2] =
        "    out = model.forward(0, a, w)  # \"\"\"\f\xe2\x80\xa8"
        "done";
    const TorchProgram program = torchProgram(pipeline(), source);
    EXPECT_TRUE(contains(program.text,
                         "    # line 3: out = model.forward(0, a, w)  # "
                         "\"\"\"\\x0c\\u2028done\n"))
        << program.text;
}

TEST(TorchExport, CommentTextEscapesEverythingButPrintableAscii)
{
    EXPECT_EQ(commentText("plain \"\"\" text \\ ok"), "plain \"\"\" text \\ ok");
    EXPECT_EQ(commentText("a\nb\rc\x0b"), "a\\x0ab\\x0dc\\x0b");
    EXPECT_EQ(commentText("\xc3\xa9t\xc3\xa9"), "\\u00e9t\\u00e9");
    EXPECT_EQ(commentText("\xe2\x80\xa8\xe2\x80\xa9\xc2\x85"), "\\u2028\\u2029\\u0085");
    EXPECT_EQ(commentText("\xf0\x9f\x98\x80"), "\\U0001f600");
    EXPECT_EQ(commentText("\xff\xc3"), "\\xff\\xc3"); // no UTF-8: each byte
    EXPECT_EQ(commentText(std::string("a\0b", 3)), "a\\x00b");
}

TEST(TorchExport, AnOperationTheProgramCannotMakeIsRefusedInASentence)
{
    core::Trace trace = pipeline();
    Event unknown = event(1, OpKind(200), 1, IndexSet{0}, 12);
    trace.events.push_back(unknown);
    const TorchProgram program = torchProgram(trace, {"pipe.py", "pipe", {}, 16, 4, 0});
    EXPECT_TRUE(program.text.empty());
    EXPECT_EQ(program.refused,
              "rank 1 at line 12 calls ?, which the exported program cannot do yet.");
}

} // namespace
} // namespace rankstep::cli
