// SPDX-License-Identifier: MIT
// How the state view paints a rank panel and the objects in it, in the documents' colors.
#pragma once

#include "core/objects.h"
#include "look.h"
#include "stategeometry.h"

#include <QColor>
#include <QFont>
#include <QPixmap>
#include <QString>
#include <QStringList>

class QFontMetrics;
class QPainter;
class QPalette;

namespace rankstep::gui {

// The notebook's colors (Palette::layer, layers + 1 steps): weights, optimizer states and
// activations in their layer's color (activation 0, the input, green; activation `layers`, the
// output, red); gradients that color half faded (an activation gradient of layer l sits on
// boundary l + 1 and takes its color, so the loss's is light red).
QColor objectColor(const core::Object &object, int layers, const Palette &palette);
// Weights and optimizer states past step 0: drawn in their layer's color with an update-yellow
// edge (statebatch.h objectCellColors).
bool isUpdated(const core::Object &object);
inline constexpr double kGradientFade = 0.5; // the notebook's fill_opacity(0.5)

// Each kind's pattern over its layer's color, so that a kind reads without telling colors
// apart: weights plain, optimizer states striped across, activations dotted, gradients hatched
// (activation gradients one way, weight gradients the other).
Qt::BrushStyle kindPattern(core::ObjectKind kind);
// The pattern's color over a cell filled with `fill`: darker, and a little see-through.
QColor kindInk(const QColor &fill);
// A sample of a kind for keys and summaries: `fill` in the kind's pattern, outlined.
void paintKindSwatch(QPainter &painter, const QRectF &rect, core::ObjectKind kind,
                     const QColor &fill);

// How far an object has faded or grown in; `arrived` draws the gray outline of a message.
struct ObjectLook {
    double opacity = 1.0;
    double scale = 1.0;
    bool arrived = false;
};
// The least height of an object's band (PlacedObject::room) that holds a label when painting
// with `font`: callers need not build labels for thinner objects.
double labelMinHeight(const QFont &font, double zoom);
// The least size of an object's rect that holds the widest kind label ("opt") with its margins:
// a panel whose objects are smaller shows a summary instead (stategeometry.h objectsFit).
QSizeF kindLabelSize(const QFont &font, double zoom);
// Draws an object as cells across placed.frame: its shards of total (held ones filled) for
// weights and optimizer states, its batches for activations, both for weight gradients; and
// `label` on it when there is room ("gw1"; else its kind alone, "gw").
void paintObject(QPainter &painter, const core::Object &object, const PlacedObject &placed,
                 int layers, const ObjectLook &look, const Look &style, const QString &label = {},
                 QStringList *elided = nullptr);
// The marks over an object's cells that say what part of a value it is (docs/colors.md): a
// partial sum half veiled, a sequence shard or context chunk dotted, an unfinished attention veiled
// over the chunks it lacks. For an object drawn as it is, whose cells were batched.
bool hasObjectMarks(const core::Object &object);
void paintObjectMarks(QPainter &painter, const core::Object &object, const QRectF &rect,
                      double zoom);
// Only the label of an object drawn as it is (its cells batched with the others'): `label`, or
// its kind alone where that does not fit. A label shortened or left out goes to `elided`.
void paintObjectLabel(QPainter &painter, const core::Object &object, const PlacedObject &placed,
                      const QString &label, double zoom, QStringList *elided = nullptr);

struct PanelLook {
    QString title;
    double memory = 0; // fraction of the run's maximum
    bool running = false;
    bool selected = false;
    bool titleFits = false; // the caller made sure: draw it as it is
    bool bands = true;      // false: the frame without layer bands (a panel showing a summary)
};
// The panel around the objects: frame, title, memory bar, layer bands and their labels (the
// frame, bands and labels from `background` when given: the same for every panel of one size).
void paintPanel(QPainter &painter, const PanelLayout &layout, const PanelLook &look,
                const QPalette &palette, const Look &style, const QPixmap &background = {});
// As much of a panel title "rank 3 · t 8.5 · 1.2 MB" as fits in `width` pixels: all of it, else
// without the clock, else the rank alone, else its number (whole even when too wide: the painter
// draws it smaller, titleFont below).
QString fittedTitle(const QString &title, const QFontMetrics &metrics, int width);
// The font to draw a title in `width` pixels: `font` when it fits, else smaller down to 5 points
// (a narrow panel's "16" drawn small tells it from its neighbours; "1..." would not).
QFont titleFont(const QFont &font, const QString &text, int width);
// The frame, layer bands and labels of panels laid out as `layout`, to hand to paintPanel;
// `bands` false: the frame alone (a panel showing a summary).
QPixmap panelBackground(const PanelLayout &layout, const QPalette &palette, const Look &style,
                        const QFont &font, qreal devicePixelRatio, bool selected,
                        bool bands = true);
// The layer labels a panel laid out as `layout` leaves out so that the others do not run into
// each other ("L1", "L3" when every second one is drawn), in `font`.
QStringList droppedLayerLabels(const PanelLayout &layout, const QFont &font);

} // namespace rankstep::gui
