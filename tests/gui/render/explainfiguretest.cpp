// SPDX-License-Identifier: MIT
// The explanation exports like the other figures, its legend included.
#include "explainfigure.h"
#include "exportfiles.h"
#include "kindcolors.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

namespace rankstep::gui {
namespace {

TEST(ExplainFigure, TheSvgSaysThePeakAndNamesEveryKindInItsLegend)
{
    const auto trace = std::make_shared<const core::Trace>(testing::runReference("gpipe"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("why.svg"));
    FigureOptions options;
    options.memoryTarget = 4063232;
    ASSERT_EQ(writeExplainFigure(*trace, options, path, true).toStdString(), "");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    EXPECT_TRUE(svg.contains(QStringLiteral("Peak 4194304 B on rank 1 at t 30.4")));
    EXPECT_TRUE(svg.contains(QStringLiteral("131072 B over the target of 4063232 B")));
    for (int kind = 0; kind < 5; ++kind)
        EXPECT_TRUE(svg.contains(kindPlural(core::ObjectKind(kind))))
            << kindPlural(core::ObjectKind(kind)).toStdString();
}

// Every kind the peak rank holds is painted in its color.
TEST(ExplainFigure, ThePngPaintsEachKindInItsColor)
{
    const auto trace = std::make_shared<const core::Trace>(testing::runReference("gpipe"));
    const QImage image = renderExplainFigure(*trace, FigureOptions{});
    for (int kind = 0; kind < 5; ++kind) {
        const QRgb color = kindColor(core::ObjectKind(kind)).rgb();
        int found = 0;
        for (int y = 0; y < image.height() && found < 100; y += 2)
            for (int x = 0; x < image.width() && found < 100; x += 2)
                found += image.pixel(x, y) == color;
        EXPECT_GE(found, 100) << "kind " << kind;
    }
}

} // namespace
} // namespace rankstep::gui
