// SPDX-License-Identifier: MIT
#include "timelinetext.h"

#include <gtest/gtest.h>

using rankstep::core::Event;
using rankstep::core::IndexSet;
using rankstep::core::OpKind;
using rankstep::core::SimTime;
using namespace rankstep::gui;

TEST(TimelineText, BatchLabelsAreShortRunsOfNumbers)
{
    EXPECT_EQ(batchLabel(IndexSet{}), QString());
    EXPECT_EQ(batchLabel(IndexSet{2}), QStringLiteral("2"));
    EXPECT_EQ(batchLabel(IndexSet{0, 1}), QStringLiteral("0,1"));
    EXPECT_EQ(batchLabel(IndexSet::range(0, 4)), QStringLiteral("0-3"));
    EXPECT_EQ(batchLabel(IndexSet{0, 1, 2, 3, 6}), QStringLiteral("0-3,6"));
    EXPECT_EQ(batchLabel(IndexSet{1, 3, 4}), QStringLiteral("1,3,4"));
}

TEST(TimelineText, ToolTipTellsWhatWhenAndWhere)
{
    Event e;
    e.rank = 2;
    e.op = OpKind::AllReduce;
    e.layer = 1;
    e.batches = IndexSet::range(0, 4);
    e.start = SimTime::fromTicks(4500);
    e.duration = SimTime::fromTicks(300);
    e.memory = 524288;
    e.line = 17;
    const QString text = eventToolTip(e);
    EXPECT_TRUE(text.startsWith(QStringLiteral("rank 2: allreduce, layer 1\n")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("batches 0-3")));
    EXPECT_TRUE(text.contains(QStringLiteral("start 4.5, end 4.8, duration 0.3")));
    EXPECT_TRUE(text.contains(QStringLiteral("memory 524,288")));
    EXPECT_TRUE(text.contains(QStringLiteral("line 17")));
}

TEST(TimelineText, MessagesNameTheirPeer)
{
    Event e;
    e.op = OpKind::PassTo;
    e.peer = 3;
    EXPECT_EQ(eventTitle(e), QStringLiteral("pass_to to rank 3"));
    e.op = OpKind::Receive;
    e.layer = 4;
    EXPECT_EQ(eventTitle(e), QStringLiteral("receive from rank 3, layer 4"));
}

// A real run's profile knows a send or a recv but not its peer (core/io/chrometracereader.h):
// no "rank -1".
TEST(TimelineText, AMessageWithoutAPeerNamesNone)
{
    Event e;
    e.op = OpKind::Receive;
    EXPECT_EQ(eventTitle(e), QStringLiteral("receive"));
    EXPECT_EQ(blockLabel(e), QStringLiteral("←"));
    e.op = OpKind::PassTo;
    EXPECT_EQ(blockLabel(e), QStringLiteral("→"));
}

TEST(TimelineText, TheHalvesOfABackwardSayWhichTheyAre)
{
    Event e;
    e.op = OpKind::BackwardInput;
    e.layer = 3;
    e.batches = IndexSet{2};
    EXPECT_EQ(blockLabel(e), QStringLiteral("B 2"));
    EXPECT_EQ(eventTitle(e), QStringLiteral("backward_input, layer 3"));
    e.op = OpKind::BackwardWeight;
    EXPECT_EQ(blockLabel(e), QStringLiteral("W 2"));
    e.op = OpKind::Backward;
    EXPECT_EQ(blockLabel(e), QStringLiteral("2"));
}
