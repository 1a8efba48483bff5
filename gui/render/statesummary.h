// SPDX-License-Identifier: MIT
// What a rank panel too small for its objects shows instead (16 or 64 ranks on a laptop): each
// kind the rank holds, how many objects and their bytes. Pure functions, and the painting.
#pragma once

#include "core/objects.h"
#include "core/replay/state.h"
#include "core/trace.h"
#include "look.h"

#include <QRectF>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

class QFont;
class QFontMetricsF;
class QPainter;
class QPalette;

namespace rankstep::gui {

struct KindTally {
    core::ObjectKind kind = core::ObjectKind::Weight;
    int count = 0;
    std::int64_t bytes = 0;
    bool operator==(const KindTally &) const = default;
};
// The kinds `rank` holds, weights first (kinds it holds none of left out).
std::vector<KindTally> kindTallies(const replay::RankState &rank, const core::Sizes &sizes);
// The rows of `count` lines `lineHeight` tall from the top of `body`: as many as fit whole.
std::vector<QRectF> summaryRows(const QRectF &body, int count, double lineHeight);
// Items `widths` wide laid left to right in lines `lineHeight` tall down `body`, `spacing` apart,
// a new line where one does not fit: the rects of as many as fit, in order.
std::vector<QRectF> flowItems(const QRectF &body, const std::vector<double> &widths,
                              double lineHeight, double spacing);
// A tally's words, longest first: "gw weight gradients 6 · 1.5 MB", "gw 6 · 1.5 MB", "gw 6".
QStringList tallyTexts(const KindTally &tally);
// A tally side by side with the others: "gw 6", or its count alone beside its swatch (whose
// pattern tells the kind).
QString flowText(const KindTally &tally, bool countOnly);
// Where the tallies go side by side in lines `line` tall down `body`, and in which form: every
// tally in "w 2" where they all fit, else closer together, else the counts alone (at 16 ranks on
// a laptop a kind was dropped from a summary, shown only by a click); else as many as fit.
struct TallyFlow {
    std::vector<QRectF> items;
    bool countOnly = false;
};
TallyFlow flowTallies(const QRectF &body, const std::vector<KindTally> &tallies, double line,
                      const QFontMetricsF &metrics, const Look &style);

// Paints the tallies into `body`: per kind a swatch in its pattern (statepainter.h kindPattern)
// and the longest of its words that fits, a line each; where the lines do not all fit, side by
// side in the fewest words ("w 3  opt 3  a 1"). Each text cut or row left out goes to `elided`
// (in full) when given.
// `small`: in the objects' label font whether or not the rows fit (a compact panel, so that
// panels of one size read alike).
void paintSummary(QPainter &painter, const QRectF &body, const std::vector<KindTally> &tallies,
                  const QPalette &palette, const Look &style, QStringList *elided = nullptr,
                  bool small = false);

// The key of the kinds' patterns across `rect`: a swatch and "w weights" per kind, on as many
// lines as `rect` has (each `kindKeyLine` high; a kind wraps to the next line whole), or the
// short names alone on the first where the words do not fit (each left out goes to `elided`).
// How wide that key is in `font` on one line: with the kinds' words, or their short names alone.
// `keysValues`: the run has keys and values (context parallelism), which the key names too.
double kindKeyWidth(const QFont &font, const Look &style, bool words, bool keysValues = false);
// How many lines the key's words take in `width`, each kind kept whole on a line.
int kindKeyLines(const QFont &font, const Look &style, double width, bool keysValues = false);
double kindKeyLine(const Look &style);
// `lines` 0: as many as `rect` is kindKeyLine high.
void paintKindKey(QPainter &painter, const QRectF &rect, const QPalette &palette, const Look &style,
                  QStringList *elided = nullptr, int lines = 0, bool keysValues = false);
// Whether any change of `trace` sets keys and values (the key's `keysValues`): a pass over the
// log's distinct objects, 3.2 million at 16,384 ranks, so an open makes it on its worker
// (TraceDerived).
bool holdsKeysValues(const core::Trace &trace);

} // namespace rankstep::gui
