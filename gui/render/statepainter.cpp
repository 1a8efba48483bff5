// SPDX-License-Identifier: MIT
#include "statepainter.h"

#include "palette.h"
#include "statebatch.h"
#include "statetext.h"

#include "core/attention.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {
namespace {

// The label goes to the side with fewer held cells, so that it hides as little as possible.
QFont labelFont(QFont font, double zoom)
{
    font.setPointSizeF(7 * zoom);
    return font;
}

bool labelOnRight(const core::Object &object)
{
    const bool shards = core::hasShards(object.kind) && !core::hasBatches(object.kind);
    const core::IndexSet &held = shards ? object.shards : object.batches;
    const int total = shards ? object.total : object.totalBatches;
    return total > 1 && held.first() >= 0 && held.first() < (total + 1) / 2 && held.size() < total;
}

// The first of `labels` (longest first) that fits on `rect`; the full one goes to `elided`
// when a shorter one or none is drawn.
void paintLabel(QPainter &painter, const QRectF &rect, double room, const QStringList &labels,
                bool right, double zoom, QStringList *elided)
{
    if (labels.isEmpty() || labels.front().isEmpty())
        return;
    const auto drop = [&] {
        if (elided && !elided->contains(labels.front()))
            elided->append(labels.front());
    };
    const QFont font = labelFont(painter.font(), zoom);
    const QFontMetricsF metrics(font);
    // The height first: shaping the text is what costs, and most objects of a deep model are
    // too thin for any label. A label may cover the gaps between the bands (`room` tall).
    if (metrics.height() > std::max(room, rect.height()))
        return drop();
    for (const QString &label : labels) {
        const double width = metrics.horizontalAdvance(label) + 4;
        if (width > rect.width() - 3)
            continue;
        if (label != labels.front())
            drop();
        painter.setFont(font);
        // At the object's top left; over a thin object, centered on it.
        const double top = metrics.height() + 4 <= rect.height()
                               ? rect.top() + 2
                               : rect.center().y() - metrics.height() / 2;
        const QRectF box(right ? rect.right() - 2 - width : rect.left() + 2, top, width,
                         metrics.height());
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(255, 255, 255, 190));
        painter.drawRect(box);
        painter.setPen(Qt::black);
        painter.drawText(box, Qt::AlignCenter, label);
        return;
    }
    drop();
}

// "gw1", then its kind alone: "gw".
QStringList labelChoices(const QString &label)
{
    QString kind = label;
    while (!kind.isEmpty() && !kind.back().isLetter())
        kind.chop(1);
    QStringList choices{label};
    if (!kind.isEmpty() && kind != label)
        choices << kind;
    return choices;
}

QFont layerLabelFont(QFont font)
{
    font.setPointSizeF(std::max(6.0, font.pointSizeF() - 2));
    return font;
}

// Many thin layers (96 in a panel 100 pixels tall): a legible label every few, not a smear.
int layerStep(const PanelLayout &layout, const QFont &font)
{
    const double spacing = std::abs(layerBand(layout, 1).top() - layerBand(layout, 0).top());
    return layerLabelStep(spacing, QFontMetricsF(font).height());
}

void paintLayerLabels(QPainter &painter, const PanelLayout &layout, const QPalette &palette,
                      const Palette &colors)
{
    const QFont font = layerLabelFont(painter.font());
    painter.setFont(font);
    painter.setPen(palette.color(QPalette::PlaceholderText));
    const int step = layerStep(layout, font);
    for (int l = 0; l < layout.layers; ++l) {
        const QRectF row = layerBand(layout, l);
        painter.fillRect(row, Palette::toward(colors.layer(l, layout.layers),
                                              palette.color(QPalette::Base), 0.88));
        if (l % step != 0)
            continue;
        const QRectF label(layout.labels.left(), row.top(), layout.labels.width(), row.height());
        painter.drawText(label, Qt::AlignCenter, QStringLiteral("L%1").arg(l));
    }
}

// The frame of a panel, its layer bands and their labels: what every step leaves as it was.
void paintBackground(QPainter &painter, const PanelLayout &layout, const QPalette &palette,
                     const Look &style, bool selected, bool bands)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(selected ? QPen(palette.color(QPalette::Highlight), style.scaled(2.5))
                            : QPen(palette.color(QPalette::Mid), style.scaled(1)));
    painter.setBrush(palette.color(QPalette::Base));
    painter.drawRoundedRect(layout.frame.adjusted(1, 1, -1, -1), 4, 4);
    painter.setRenderHint(QPainter::Antialiasing, false);
    if (bands)
        paintLayerLabels(painter, layout, palette, style.colors());
    painter.restore();
}

} // namespace

QString fittedTitle(const QString &title, const QFontMetrics &metrics, int width)
{
    const QStringList parts = title.split(QStringLiteral(" · "));
    QStringList candidates{title};
    // A clock of its own (stepping by operation) is what no other view shows.
    if (parts.size() > 2 && isOwnClock(parts[1]))
        candidates << parts.front() + QStringLiteral(" · ") + parts[1];
    if (parts.size() > 2) // the memory tells more than the clock, which the timeline shows too
        candidates << parts.front() + QStringLiteral(" · ") + parts.back();
    candidates << parts.front();
    // The number is what tells one panel from the next: "12" rather than "rank…".
    const QString number = parts.front().section(QLatin1Char(' '), -1);
    candidates << number;
    for (const QString &candidate : candidates)
        if (metrics.horizontalAdvance(candidate) <= width)
            return candidate;
    return number;
}

QFont titleFont(const QFont &font, const QString &text, int width)
{
    const int advance = QFontMetrics(font).horizontalAdvance(text);
    if (advance <= width || advance <= 0)
        return font;
    QFont smaller = font;
    const double size = font.pointSizeF() > 0 ? font.pointSizeF() : 9.0;
    smaller.setPointSizeF(std::max(5.0, size * width / advance));
    return smaller;
}

QStringList droppedLayerLabels(const PanelLayout &layout, const QFont &font)
{
    QStringList dropped;
    const int step = layerStep(layout, layerLabelFont(font));
    for (int l = 0; l < layout.layers && step > 1; ++l)
        if (l % step != 0)
            dropped << QStringLiteral("L%1").arg(l);
    return dropped;
}

QPixmap panelBackground(const PanelLayout &layout, const QPalette &palette, const Look &style,
                        const QFont &font, qreal devicePixelRatio, bool selected, bool bands)
{
    QPixmap pixmap((layout.frame.size() * devicePixelRatio).toSize().expandedTo(QSize(1, 1)));
    pixmap.setDevicePixelRatio(devicePixelRatio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setFont(font);
    painter.translate(-layout.frame.topLeft());
    paintBackground(painter, layout, palette, style, selected, bands);
    return pixmap;
}

QColor objectColor(const core::Object &object, int layers, const Palette &palette)
{
    // The notebook's draw_network: weights and activations in their layer's color, gradients
    // the same at half opacity (on white: half faded).
    switch (object.kind) {
        case core::ObjectKind::Weight:
        case core::ObjectKind::OptState:
            return palette.layer(object.layer, layers);
        case core::ObjectKind::Activation:
        case core::ObjectKind::KeysValues: // made from the activation at the layer's input
            return palette.layer(object.layer, layers);
        case core::ObjectKind::ActivationGrad: // sits on boundary layer + 1, the notebook's color
            return Palette::faded(palette.layer(object.layer + 1, layers), kGradientFade);
        case core::ObjectKind::WeightGrad:
            return Palette::faded(palette.layer(object.layer, layers), kGradientFade);
    }
    return palette.message();
}

Qt::BrushStyle kindPattern(core::ObjectKind kind)
{
    switch (kind) {
        case core::ObjectKind::Weight:
            return Qt::NoBrush;
        case core::ObjectKind::OptState:
            return Qt::HorPattern;
        case core::ObjectKind::Activation:
            return Qt::Dense6Pattern;
        case core::ObjectKind::ActivationGrad:
            return Qt::FDiagPattern;
        case core::ObjectKind::WeightGrad:
            return Qt::BDiagPattern;
        case core::ObjectKind::KeysValues:
            return Qt::CrossPattern;
    }
    return Qt::NoBrush;
}

QColor kindInk(const QColor &fill)
{
    QColor ink = fill.darker(210);
    ink.setAlpha(200);
    return ink;
}

void paintKindSwatch(QPainter &painter, const QRectF &rect, core::ObjectKind kind,
                     const QColor &fill)
{
    painter.save();
    painter.setBrushOrigin(rect.topLeft()); // the same stripes in every swatch
    painter.setPen(QPen(fill.darker(150), 1));
    painter.setBrush(fill);
    painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
    if (kindPattern(kind) != Qt::NoBrush) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(QBrush(kindInk(fill), kindPattern(kind)));
        painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
    }
    painter.restore();
}

bool isUpdated(const core::Object &object)
{
    return (object.kind == core::ObjectKind::Weight || object.kind == core::ObjectKind::OptState) &&
           object.step > 0;
}

double labelMinHeight(const QFont &font, double zoom)
{
    return QFontMetricsF(labelFont(font, zoom)).height();
}

QSizeF kindLabelSize(const QFont &font, double zoom)
{
    const QFontMetricsF metrics(labelFont(font, zoom));
    return {metrics.horizontalAdvance(QStringLiteral("opt")) + 4 + 3, metrics.height()};
}

// Tensor and sequence parallelism (docs/colors.md): a partial activation (gradient) is half
// veiled, its right half pale behind a dashed outline (one term of a sum, not the value yet); a
// sequence shard is outlined in dots.
// An unfinished attention (a context chunk's output that has seen some chunks' keys and values
// only) is veiled the same way over the share of the chunks it lacks, behind a dash-dot outline.
bool hasObjectMarks(const core::Object &object)
{
    // A context chunk holds a part of the sequence as a sequence shard does: the same dots.
    return object.partial || object.isSequenceShard() || object.isContextChunk() ||
           core::isUnfinishedAttention(object);
}

void paintObjectMarks(QPainter &painter, const core::Object &object, const QRectF &rect,
                      double zoom)
{
    if (!hasObjectMarks(object))
        return;
    const bool unfinished = core::isUnfinishedAttention(object);
    painter.save();
    const QRectF box = rect.adjusted(0.5, 0.5, -0.5, -0.5);
    const double seen =
        unfinished ? double(core::attendedChunks(object).size()) / std::max(1, object.total) : 0.5;
    if (object.partial || unfinished) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(255, 255, 255, 150));
        const double left = box.left() + box.width() * std::clamp(seen, 0.0, 1.0);
        painter.drawRect(QRectF(left, box.top(), box.right() - left, box.height()));
    }
    QPen pen(QColor(20, 20, 20), std::max(1.0, 1.5 * zoom),
             unfinished       ? Qt::DashDotLine
             : object.partial ? Qt::DashLine
                              : Qt::DotLine);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(box);
    painter.restore();
}

void paintObject(QPainter &painter, const core::Object &object, const PlacedObject &placed,
                 int layers, const ObjectLook &look, const Look &style, const QString &label,
                 QStringList *elided)
{
    painter.save();
    painter.setOpacity(painter.opacity() * std::clamp(look.opacity, 0.0, 1.0));
    const QPointF center = placed.rect.center();
    const double scale = std::clamp(look.scale, 0.0, 1.0);
    painter.translate(center);
    painter.scale(scale, scale);
    painter.translate(-center);
    CellBatch batch;
    addObjectCells(batch, object, placed, objectCellColors(object, layers, style.colors()));
    batch.draw(painter);
    paintObjectMarks(painter, object, placed.rect, style.zoom);
    if (look.arrived) {
        painter.setPen(QPen(style.colors().message().darker(130), style.scaled(2)));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(placed.rect.adjusted(-1.5, -1.5, 1.5, 1.5));
    }
    paintObjectLabel(painter, object, placed, label, style.zoom, elided);
    painter.restore();
}

void paintObjectLabel(QPainter &painter, const core::Object &object, const PlacedObject &placed,
                      const QString &label, double zoom, QStringList *elided)
{
    paintLabel(painter, placed.rect, placed.room, labelChoices(label),
               !placed.heldOnly && labelOnRight(object), zoom, elided);
}

void paintPanel(QPainter &painter, const PanelLayout &layout, const PanelLook &look,
                const QPalette &palette, const Look &style, const QPixmap &background)
{
    painter.save();
    if (background.isNull())
        paintBackground(painter, layout, palette, style, look.selected, look.bands);
    else
        painter.drawPixmap(layout.frame.topLeft(), background);
    QColor titleText = palette.color(QPalette::Text);
    if (look.running) {
        const QColor running =
            Palette::toward(style.colors().update(), palette.color(QPalette::Base), 0.55);
        painter.fillRect(layout.title, running);
        titleText = Palette::textOn(running);
    }
    painter.setPen(titleText);
    QFont bold = painter.font();
    bold.setBold(look.selected);
    painter.setFont(bold);
    const int width = int(layout.title.width()) - 6;
    QString text =
        look.titleFits ? look.title : fittedTitle(look.title, painter.fontMetrics(), width);
    QRectF room = layout.title.adjusted(3, 0, -3, 0);
    if (painter.fontMetrics().horizontalAdvance(text) > width) {
        // A number too wide for the panel: smaller, with the margins given to it.
        room = layout.title.adjusted(1, 0, -1, 0);
        painter.setFont(titleFont(bold, text, int(room.width())));
        text = painter.fontMetrics().elidedText(text, Qt::ElideRight, int(room.width()));
    }
    painter.drawText(room, Qt::AlignVCenter | Qt::AlignLeft, text);
    painter.fillRect(layout.memory, palette.color(QPalette::AlternateBase));
    QRectF used = layout.memory;
    used.setWidth(layout.memory.width() * std::clamp(look.memory, 0.0, 1.0));
    painter.fillRect(used, style.colors().message());
    painter.setPen(palette.color(QPalette::Mid));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(layout.memory);
    painter.restore();
}

} // namespace rankstep::gui
