// SPDX-License-Identifier: MIT
// Telling the ranks' memory lines apart where their colors repeat (Palette::rank has eight):
// each group of eight ranks dashes its lines its own way, the lines' right ends carry the ranks'
// numbers, and the selected rank's line stands out over the others, muted. Pure functions.
#pragma once

#include <QColor>
#include <QList>
#include <QString>

#include <vector>

namespace rankstep::gui {

class Palette;

inline constexpr int kRankColors = 8; // Palette::rank repeats after this many

// The dash pattern of a rank's line in pen widths (QPen::setDashPattern): ranks 0-7 solid
// (empty), 8-15 dashed, 16-23 dotted, 24-31 dash-dotted, 32-39 long-dashed, then again.
QList<qreal> rankDashes(int rank);

// How one rank's line is drawn: its color, muted while another rank is selected; its width
// (`width` for zoom 1, twice that for the selected rank); its group's dashes.
struct RankLineLook {
    QColor color;
    double width = 1;
    QList<qreal> dashes;
    bool selected = false;
};
RankLineLook rankLineLook(int rank, int selected, const Palette &palette, const QColor &background,
                          double width);

// Where a line ends at the right of the plot (its y in pixels, downward).
struct LineEnd {
    int rank = 0;
    double y = 0;
};
// A label at the right end of one or more lines: "ranks 0-3, 8" ("rank 6" for one) for the ranks
// whose lines end within `height` / 2 of each other (the rank `alone`, the selected one, always
// gets a label of its own), at `y` (its center) so that no two labels `height` tall overlap, inside
// [top, bottom] where they fit. Top to bottom.
struct EndLabel {
    QString text;
    double y = 0;
    std::vector<int> ranks;
};
std::vector<EndLabel> endLabels(std::vector<LineEnd> ends, double height, double top, double bottom,
                                int alone = -1);
// Moves the stack of end labels (top to bottom, each `height` tall) off the lines they would
// cover: where the labels stand, the lines run between `linesTop` and `linesBottom` (pixels,
// downward). The stack goes just above those lines when it fits below `top`, else just below them
// when it fits above `bottom`, else it stays where endLabels put it. Their order stays.
void clearOfLines(std::vector<EndLabel> &labels, double height, double top, double bottom,
                  double linesTop, double linesBottom);

} // namespace rankstep::gui
