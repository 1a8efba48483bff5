// SPDX-License-Identifier: MIT
// Lays out and paints every shown rank's panel of a state: what the state view shows and what the
// state figure (`rankstep-cli --state-png`, File > Export) draws, from one function so that the
// two never drift apart.
#pragma once

#include "look.h"

#include "core/replay/state.h"
#include "core/trace.h"
#include "statechanges.h"
#include "stategeometry.h"
#include "statepainter.h"
#include "statetravel.h"

#include <QFont>
#include <QHash>
#include <QPalette>
#include <QPixmap>
#include <QRectF>
#include <QRegion>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>
#include <vector>

class QPainter;

namespace rankstep::gui {

inline constexpr double kPanelGap = 6; // pixels between panels and around the grid

// Everything one paint of the panels depends on.
struct StateScene {
    const core::Trace *trace = nullptr;      // not null
    const replay::RunState *state = nullptr; // not null, with the trace's ranks
    std::vector<int> ranks;                  // one panel each, row by row (at most 16)
    QRectF area;                             // the grid's, inside the gap around it
    QPalette palette;
    QFont font;
    Look look;         // the color scheme and the zoom
    int selected = -1; // its panel is framed and titled bold
    // While a step animates: the state before it, what changed, how far the fades are (1: done)
    // and the objects in the air. Null changes: nothing animates.
    const replay::RunState *previous = nullptr;
    const StateChanges *changes = nullptr;
    double progress = 1.0;
    const std::vector<Travel> *travels = nullptr;
    QString timeUnit; // after each clock: "" for simulated steps, "ms" for a real run
    // The rank shown large beside an overview of the others (-1: every panel alike); it need not
    // be one of `ranks`.
    int focus = -1;
    // Gets every text the paint cut or left out, in full (a title, an object's label, a row
    // of a summary); null: not asked.
    QStringList *elided = nullptr;
};

// The ranks that get a panel in a run of `count` ranks: the chosen ones that exist, at most
// kMaxVisibleRanks of them; none chosen: the first kMaxVisibleRanks.
std::vector<int> shownRanks(const std::vector<int> &chosen, int count);
// The model's layers (at least 1) and the memory a full bar stands for: the run's maximum, or
// more when a state holds more.
int stateLayers(const core::Trace *trace);
std::int64_t stateMaxMemory(const core::Trace *trace, const replay::RunState &state);
// The title of `rank`'s panel in `state` before it is fitted: at a time cut every rank's clock
// is the run's time; otherwise a clock that differs from it says "own t".
// With `trace`, a run with experts names the rank's expert too.
QString statePanelTitle(const replay::RunState &state, int rank, const QString &timeUnit = {},
                        const core::Trace *trace = nullptr);
// The grid area of a view or figure `bounds` pixels large: the gap taken off every side.
QRectF stateGridArea(const QRectF &bounds);
// The layout of the slot-th of `count` panels (row by row) over the grid `area`, each at least
// `leastWidth` wide where that fits (stategeometry.h panelGrid).
PanelLayout statePanelLayout(const QRectF &area, int count, int slot, int layers,
                             double leastWidth = 0);
// Where each rank's panel goes: without a focus, `ranks` row by row over `area`; with one, the
// focus rank first, large (stategeometry.h focusSplit), then the other ranks as a grid beside it.
struct PanelSlot {
    int rank = 0;
    PanelLayout layout;
    bool focused = false;
};
std::vector<PanelSlot> statePanelSlots(const QRectF &area, const std::vector<int> &ranks, int focus,
                                       int layers, double leastWidth = 0);
// The least width of a panel whose title shows the largest of `ranks` whole in `font` (bold, as
// the selected rank's): narrower, the number was drawn smaller.
double statePanelLeastWidth(const std::vector<int> &ranks, const QFont &font);
// How an entry of the scene's state is drawn now: fading and growing in while fresh, outlined
// gray when it came by communication.
ObjectLook stateObjectLook(const StateChanges *changes, double progress, int rank,
                           core::MapKind map, std::size_t index);

// What a view keeps between paints: the panels' frames, bands and labels by size, selection
// and form (objects or summary), and titles fitted to their width. Without it the panels are
// drawn afresh (vector, for figures).
struct StatePanelCache {
    struct Background {
        QSizeF size;
        int layers = 0;
        bool selected = false;
        bool bands = true;
        QPixmap pixmap;
    };
    std::vector<Background> backgrounds;
    qreal devicePixelRatio = 1;
    QHash<QString, QString> titles; // by width and title
    void clear()                    // painted in old colors or font
    {
        backgrounds.clear();
        titles.clear();
    }
};

// Paints the panels whose frames meet `region` (an empty region: all): chrome, objects (the
// still ones batched), what fades out, labels and travels.
void paintStatePanels(QPainter &painter, const StateScene &scene, StatePanelCache *cache = nullptr,
                      const QRegion &region = {});

} // namespace rankstep::gui
