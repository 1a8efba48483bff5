// SPDX-License-Identifier: MIT
#include "statepainter.h"

#include "palette.h"

#include <QPainter>
#include <QPalette>

#include <algorithm>

namespace rankstep::gui {
namespace {

// Toward yellow: what forward produced keeps a hint of its layer.
QColor mixed(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QRectF scaled(const QRectF &rect, double scale)
{
    const QPointF center = rect.center();
    return {center.x() - rect.width() * scale / 2, center.y() - rect.height() * scale / 2,
            rect.width() * scale, rect.height() * scale};
}

// `total` cells across `rect`, the ones in `held` filled with color, the rest left hollow.
void paintCells(QPainter &painter, const QRectF &rect, const core::IndexSet &held, int total,
                const QColor &color)
{
    const QColor edge = color.darker(150);
    for (int i = 0; i < total; ++i) {
        const QRectF cell = shardCell(rect, i, total).adjusted(0.5, 0.5, -0.5, -0.5);
        if (held.contains(i)) {
            painter.setPen(QPen(edge, 1));
            painter.setBrush(color);
        } else {
            painter.setPen(QPen(Palette::faded(edge, 0.5), 1, Qt::DotLine));
            painter.setBrush(Qt::NoBrush);
        }
        painter.drawRect(cell);
    }
}

void paintLayerLabels(QPainter &painter, const PanelLayout &layout, const QPalette &palette)
{
    QFont font = painter.font();
    font.setPointSizeF(std::max(6.0, font.pointSizeF() - 2));
    painter.setFont(font);
    for (int l = 0; l < layout.layers; ++l) {
        const QRectF row = layerBand(layout, l);
        const QRectF label(layout.labels.left(), row.top(), layout.labels.width(), row.height());
        painter.fillRect(row, Palette::faded(Palette::current().layer(l, layout.layers), 0.88));
        painter.setPen(palette.color(QPalette::PlaceholderText));
        painter.drawText(label, Qt::AlignCenter, QStringLiteral("L%1").arg(l));
    }
}

} // namespace

QColor objectColor(const core::Object &object, int layers)
{
    const Palette &palette = Palette::current();
    switch (object.kind) {
        case core::ObjectKind::Weight:
        case core::ObjectKind::OptState:
            return object.step == 0 ? palette.input() : palette.update();
        case core::ObjectKind::Activation:
            if (object.layer <= 0)
                return palette.input();
            return mixed(palette.layer(object.layer - 1, layers), palette.update(), 0.45);
        case core::ObjectKind::ActivationGrad:
            if (object.layer >= layers - 1)
                return palette.loss();
            return Palette::faded(palette.layer(std::max(0, object.layer + 1), layers), 0.45);
        case core::ObjectKind::WeightGrad:
            return Palette::faded(palette.layer(object.layer, layers), 0.45);
    }
    return palette.message();
}

void paintObject(QPainter &painter, const core::Object &object, const QRectF &rect, int layers,
                 const ObjectLook &look)
{
    painter.save();
    painter.setOpacity(painter.opacity() * std::clamp(look.opacity, 0.0, 1.0));
    const QRectF box = scaled(rect, std::clamp(look.scale, 0.0, 1.0));
    const QColor color = objectColor(object, layers);
    switch (object.kind) {
        case core::ObjectKind::Weight:
        case core::ObjectKind::OptState:
            paintCells(painter, box, object.shards, object.total, color);
            break;
        case core::ObjectKind::Activation:
        case core::ObjectKind::ActivationGrad:
            paintCells(painter, box, object.batches, object.totalBatches, color);
            break;
        case core::ObjectKind::WeightGrad:
            if (object.total <= 1) {
                paintCells(painter, box, object.batches, object.totalBatches, color);
                break;
            }
            paintCells(painter, box.adjusted(0, 0, 0, -box.height() / 2), object.batches,
                       object.totalBatches, color);
            paintCells(painter, box.adjusted(0, box.height() / 2, 0, 0), object.shards,
                       object.total, color);
            break;
    }
    if (look.arrived) {
        painter.setPen(QPen(Palette::current().message().darker(130), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(box.adjusted(-1.5, -1.5, 1.5, 1.5));
    }
    painter.restore();
}

void paintPanel(QPainter &painter, const PanelLayout &layout, const PanelLook &look,
                const QPalette &palette)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(look.selected ? QPen(palette.color(QPalette::Highlight), 2.5)
                                 : QPen(palette.color(QPalette::Mid), 1));
    painter.setBrush(palette.color(QPalette::Base));
    painter.drawRoundedRect(layout.frame.adjusted(1, 1, -1, -1), 4, 4);
    painter.setRenderHint(QPainter::Antialiasing, false);
    if (look.running)
        painter.fillRect(layout.title, Palette::faded(Palette::current().update(), 0.55));
    painter.setPen(palette.color(QPalette::Text));
    QFont bold = painter.font();
    bold.setBold(look.selected);
    painter.setFont(bold);
    painter.drawText(layout.title.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
                     painter.fontMetrics().elidedText(look.title, Qt::ElideRight,
                                                      int(layout.title.width()) - 6));
    painter.fillRect(layout.memory, palette.color(QPalette::AlternateBase));
    QRectF used = layout.memory;
    used.setWidth(layout.memory.width() * std::clamp(look.memory, 0.0, 1.0));
    painter.fillRect(used, Palette::current().message());
    painter.setPen(palette.color(QPalette::Mid));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(layout.memory);
    paintLayerLabels(painter, layout, palette);
    painter.restore();
}

} // namespace rankstep::gui
