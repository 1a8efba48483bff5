// SPDX-License-Identifier: MIT
#include "cappedoutput.h"

#include <gtest/gtest.h>

namespace rankstep::gui {
namespace {

TEST(CappedOutput, KeepsEverythingThatFitsAndSaysNothingWasDropped)
{
    CappedOutput output(10, 5);
    output.append("hello ");
    output.append("world");
    EXPECT_EQ(output.dropped(), 0);
    EXPECT_EQ(output.text().toStdString(), "hello world");
}

TEST(CappedOutput, KeepsTheFirstAndTheLastBytesAndCountsTheRestInAnyChunking)
{
    QByteArray all;
    for (int i = 0; i < 100; ++i)
        all.append(char('a' + i % 26));
    for (const int chunk : {1, 3, 7, 100}) {
        CappedOutput output(10, 5);
        for (qsizetype at = 0; at < all.size(); at += chunk)
            output.append(all.mid(at, chunk));
        EXPECT_EQ(output.total(), 100);
        EXPECT_EQ(output.dropped(), 85) << "chunks of " << chunk;
        const std::string text = output.text().toStdString();
        EXPECT_EQ(text.substr(0, 10), all.left(10).toStdString());
        EXPECT_EQ(text.substr(text.size() - 5), all.right(5).toStdString());
        EXPECT_NE(text.find("85 more bytes"), std::string::npos) << text;
    }
}

// What the app holds of a learner's os.write(1, ...) loop stays bounded however much arrives.
TEST(CappedOutput, AHundredMegabytesKeepOnlyTheHeadAndTheTail)
{
    CappedOutput output(1 << 20, 64 << 10);
    const QByteArray chunk(1 << 20, 'x');
    for (int i = 0; i < 100; ++i)
        output.append(chunk);
    output.append("\nError: the end\n");
    EXPECT_LE(output.text().size(), (1 << 20) + (64 << 10) + 200);
    EXPECT_TRUE(output.text().endsWith(QStringLiteral("Error: the end\n")));
}

} // namespace
} // namespace rankstep::gui
