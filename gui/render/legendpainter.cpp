// SPDX-License-Identifier: MIT
#include "legendpainter.h"

#include "statebatch.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <vector>

namespace rankstep::gui {
namespace {

constexpr double kPoints = 9.0;
constexpr double kItemGap = 10.0; // between one item's text and the next swatch
constexpr double kSwatchGap = 4.0;
constexpr int kMaxLayerSwatches = 12; // more layers: one continuous scale
constexpr int kMaxStripes = 4;        // a kind of block taking each layer's color: layers shown

// How many layers' colors a swatch of a kind that takes each layer's color shows.
int layerStripes(int layers)
{
    return std::clamp(layers, 1, kMaxStripes);
}

enum class Item {
    Layers,
    Forward,
    Backward,
    Halves, // of a split backward: only for a run that has them
    Update,
    Loss,
    Collectives,
    Pass,
    Communication,
    Cells,
    Updated
};

// The items of a scheme, in the order they are drawn: the standard scheme names the notebook's
// kinds of block (collectives in the layer's color, pass in gray); the color-blind-safe one hatches
// all communication alike and says so, since there the app differs from the notebook on purpose.
std::vector<Item> itemsOf(const Palette &colors, bool splitBackward = false)
{
    std::vector<Item> items =
        colors.hatchesCommunication()
            ? std::vector<Item>{Item::Layers, Item::Forward,       Item::Backward, Item::Update,
                                Item::Loss,   Item::Communication, Item::Cells,    Item::Updated}
            : std::vector<Item>{Item::Layers, Item::Forward, Item::Backward,
                                Item::Update, Item::Loss,    Item::Collectives,
                                Item::Pass,   Item::Cells,   Item::Updated};
    if (splitBackward)
        items.insert(items.begin() + 3, Item::Halves);
    return items;
}

// The context of this file's texts in the translations (resources/translations).
struct Legend {
    Q_DECLARE_TR_FUNCTIONS(Legend)
};

QString textOf(Item item, int layers, bool allToAll = false)
{
    switch (item) {
        case Item::Layers:
            return Legend::tr("layers 0-%1, output").arg(std::max(0, layers - 1));
        case Item::Forward:
            return Legend::tr("forward");
        case Item::Backward:
            return Legend::tr("backward, gradients");
        case Item::Halves:
            return Legend::tr("B input gradient, W weight gradient");
        case Item::Update:
            return Legend::tr("update");
        case Item::Loss:
            return Legend::tr("loss");
        case Item::Collectives:
            return allToAll ? Legend::tr("collectives AR, AG, SR, A2A all-to-all")
                            : Legend::tr("collectives AR, AG, SR");
        case Item::Pass:
            return Legend::tr("pass, receive");
        case Item::Communication:
            return Legend::tr("communication, hatched for color-blind readers");
        case Item::Cells:
            return Legend::tr("held batches, shards");
        case Item::Updated:
            return Legend::tr("updated weight");
    }
    return {};
}

QFont legendFont(const LegendScene &scene)
{
    QFont font = scene.font;
    font.setPointSizeF(scene.look.scaled(kPoints));
    return font;
}

double swatchHeight(const QFontMetricsF &metrics)
{
    return std::round(metrics.height() * 0.8);
}

double swatchWidth(Item item, int layers, double height)
{
    switch (item) {
        case Item::Layers:
            return std::round(height * 0.9 * std::min(layers + 1, kMaxLayerSwatches));
        case Item::Loss:
            return 4.0;
        case Item::Cells:
            return std::round(height * 2.2);
        case Item::Forward:
        case Item::Backward:
        case Item::Collectives:
            return std::round(height * 0.6 * layerStripes(layers)); // one stripe per layer shown
        default:
            return std::round(height * 1.4);
    }
}

core::Event eventOf(core::OpKind op, int layer)
{
    core::Event event;
    event.op = op;
    event.layer = layer;
    return event;
}

void paintBlock(QPainter &painter, const QRectF &rect, const QColor &fill)
{
    painter.fillRect(rect, fill);
    painter.setPen(fill.darker(135));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
}

void paintLayers(QPainter &painter, const QRectF &rect, const LegendScene &scene)
{
    const int colors = std::max(1, scene.layers + 1);
    const double width = rect.width() / colors;
    for (int l = 0; l < colors; ++l)
        painter.fillRect(QRectF(rect.left() + l * width, rect.top(), width + 0.5, rect.height()),
                         scene.look.colors().layer(l, scene.layers));
}

void paintCells(QPainter &painter, const QRectF &rect, const QColor &fill)
{
    const CellColors colors = CellColors::of(fill);
    const double width = rect.width() / 4;
    for (int i = 0; i < 4; ++i) {
        const QRectF cell(rect.left() + i * width + 0.5, rect.top() + 0.5, width - 1,
                          rect.height() - 1);
        painter.setPen(
            QPen(i < 2 ? colors.edge : colors.hollow, 1, i < 2 ? Qt::SolidLine : Qt::DotLine));
        painter.setBrush(i < 2 ? QBrush(colors.fill) : Qt::NoBrush);
        painter.drawRect(cell);
    }
}

// A block kind that takes each layer's color: stripes of layers 0 to the last, evenly picked, in
// the color the painters give that kind at each.
void paintStripes(QPainter &painter, const QRectF &rect, core::OpKind op, const LegendScene &scene)
{
    const int stripes = layerStripes(scene.layers);
    const double width = rect.width() / stripes;
    QColor last;
    for (int i = 0; i < stripes; ++i) {
        const int layer =
            stripes == 1 ? 0
                         : int(std::lround(double(i) * (scene.layers - 1) / double(stripes - 1)));
        last = scene.look.colors().event(eventOf(op, layer), scene.layers);
        painter.fillRect(QRectF(rect.left() + i * width, rect.top(), width + 0.5, rect.height()),
                         last);
    }
    painter.setPen(QColor(last).darker(135));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
}

void paintSwatch(QPainter &painter, Item item, const QRectF &rect, const LegendScene &scene)
{
    const Palette &colors = scene.look.colors();
    const int layer = std::max(0, scene.layers / 2);
    painter.save();
    switch (item) {
        case Item::Layers:
            paintLayers(painter, rect, scene);
            break;
        case Item::Forward:
            paintStripes(painter, rect, core::OpKind::Forward, scene);
            break;
        case Item::Backward:
            paintStripes(painter, rect, core::OpKind::Backward, scene);
            break;
        case Item::Collectives:
            paintStripes(painter, rect, core::OpKind::AllReduce, scene);
            break;
        case Item::Halves: { // B on the left, W on the right, at a middle layer
            const QRectF left(rect.left(), rect.top(), rect.width() / 2, rect.height());
            paintBlock(painter, left,
                       colors.event(eventOf(core::OpKind::BackwardInput, layer), scene.layers));
            const core::Event weight = eventOf(core::OpKind::BackwardWeight, layer);
            const QRectF right = left.translated(left.width(), 0);
            paintBlock(painter, right, colors.event(weight, scene.layers));
            const QColor hatch = weightHatch(colors, weight, scene.layers); // as the timeline's W
            painter.fillRect(right, QBrush(hatch, Qt::FDiagPattern));
            painter.setPen(hatch);
            painter.drawRect(right.adjusted(0.5, 0.5, -0.5, -0.5));
            break;
        }
        case Item::Update:
            paintBlock(painter, rect, colors.event(eventOf(core::OpKind::Update, 0), scene.layers));
            break;
        case Item::Loss:
            paintBlock(painter, rect, colors.event(eventOf(core::OpKind::Loss, 0), scene.layers));
            break;
        case Item::Pass:
            paintBlock(painter, rect, colors.event(eventOf(core::OpKind::PassTo, 0), scene.layers));
            break;
        case Item::Communication: {
            const QColor ink = colors.event(eventOf(core::OpKind::AllReduce, layer), scene.layers);
            painter.fillRect(rect, scene.palette.base());
            painter.fillRect(rect, QBrush(ink, Qt::BDiagPattern));
            painter.setPen(ink.darker(150));
            painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
            break;
        }
        case Item::Cells: {
            core::Object grad;
            grad.kind = core::ObjectKind::WeightGrad;
            grad.layer = layer;
            paintCells(painter, rect, objectCellColors(grad, scene.layers, colors).fill);
            break;
        }
        case Item::Updated: {
            core::Object weight;
            weight.layer = layer;
            weight.step = 1;
            const CellColors cells = objectCellColors(weight, scene.layers, colors);
            painter.fillRect(rect, cells.fill);
            painter.setPen(QPen(cells.edge, 2));
            painter.drawRect(rect.adjusted(1, 1, -1, -1));
            break;
        }
    }
    painter.restore();
}

// Where each item goes, flowing left to right from (0, 0) and wrapping at `width`.
struct Placed {
    Item item;
    QRectF swatch, text;
};

std::vector<Placed> layOut(const LegendScene &scene, double width)
{
    const QFontMetricsF metrics(legendFont(scene));
    const double line = std::ceil(metrics.height() + 4);
    const double height = swatchHeight(metrics);
    std::vector<Placed> placed;
    double x = 0, y = 0;
    for (Item item : itemsOf(scene.look.colors(), scene.splitBackward)) {
        const double swatch = swatchWidth(item, scene.layers, height);
        const double text =
            std::ceil(metrics.horizontalAdvance(textOf(item, scene.layers, scene.allToAll)));
        const double itemWidth = swatch + kSwatchGap + text;
        if (x > 0 && x + itemWidth > width) {
            x = 0;
            y += line;
        }
        placed.push_back({item, QRectF(x, y + (line - height) / 2, swatch, height),
                          QRectF(x + swatch + kSwatchGap, y, text, line)});
        x += itemWidth + kItemGap;
    }
    return placed;
}

} // namespace

bool hasAllToAll(const core::Trace &trace)
{
    const auto isAllToAll = [](const core::Event &event) {
        return event.op == core::OpKind::AllToAll;
    };
    return std::any_of(trace.events.begin(), trace.events.end(), isAllToAll) ||
           std::any_of(trace.overlapped.begin(), trace.overlapped.end(), isAllToAll);
}

QColor weightHatch(const Palette &colors, const core::Event &event, int layers)
{
    constexpr double kHatchOpacity = 0.75;
    if (event.op != core::OpKind::BackwardWeight)
        return {};
    return Palette::faded(colors.layer(event.layer, layers), 1.0 - kHatchOpacity);
}

bool hasSplitBackward(const core::Trace &trace)
{
    return std::any_of(trace.events.begin(), trace.events.end(), [](const core::Event &event) {
        return event.op == core::OpKind::BackwardInput || event.op == core::OpKind::BackwardWeight;
    });
}

QStringList legendTexts(int layers, Palette::Scheme scheme)
{
    QStringList texts;
    for (Item item : itemsOf(Palette::of(scheme)))
        texts << textOf(item, layers);
    return texts;
}

std::vector<std::pair<QString, QRectF>> legendSwatches(const LegendScene &scene, double width)
{
    std::vector<std::pair<QString, QRectF>> swatches;
    for (const Placed &placed : layOut(scene, width))
        swatches.emplace_back(textOf(placed.item, scene.layers, scene.allToAll), placed.swatch);
    return swatches;
}

double legendHeight(const LegendScene &scene, double width)
{
    const std::vector<Placed> placed = layOut(scene, width);
    return placed.empty() ? 0.0 : placed.back().text.bottom();
}

double paintLegend(QPainter &painter, const QRectF &area, const LegendScene &scene)
{
    const std::vector<Placed> placed = layOut(scene, area.width());
    painter.save();
    painter.translate(area.topLeft());
    painter.setFont(legendFont(scene));
    for (const Placed &item : placed) {
        paintSwatch(painter, item.item, item.swatch, scene);
        painter.setPen(scene.palette.color(QPalette::WindowText));
        painter.drawText(item.text, Qt::AlignLeft | Qt::AlignVCenter,
                         textOf(item.item, scene.layers, scene.allToAll));
    }
    painter.restore();
    return placed.empty() ? 0.0 : placed.back().text.bottom();
}

} // namespace rankstep::gui
