// SPDX-License-Identifier: MIT
#include "kindcolors.h"

#include "statepainter.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QPainter>

namespace rankstep::gui {
namespace {

struct KindText {
    Q_DECLARE_TR_FUNCTIONS(KindText)
};

} // namespace

QColor kindColor(core::ObjectKind kind, const Palette &palette)
{
    // The key's sample: layer 1 of 2 (statesummary.cpp), so an activation gradient, which sits on
    // the boundary above its layer, takes the output's red, faded.
    core::Object sample;
    sample.kind = kind;
    sample.layer = 1;
    return objectColor(sample, 2, palette);
}

QBrush kindBrush(core::ObjectKind kind, const Palette &palette)
{
    // Qt's patterns repeat every 8 pixels: one tile of them over the fill.
    QPixmap tile(8, 8);
    const QColor fill = kindColor(kind, palette);
    tile.fill(fill);
    if (kindPattern(kind) != Qt::NoBrush) {
        QPainter painter(&tile);
        painter.fillRect(tile.rect(), QBrush(kindInk(fill), kindPattern(kind)));
    }
    return QBrush(tile);
}

QPixmap kindSwatch(core::ObjectKind kind, int side, const Palette &palette)
{
    QPixmap swatch(side, side);
    swatch.fill(Qt::transparent);
    QPainter painter(&swatch);
    paintKindSwatch(painter, QRectF(0, 0, side, side), kind, kindColor(kind, palette));
    return swatch;
}

QString kindSwatchHtml(core::ObjectKind kind, int side, const Palette &palette)
{
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    kindSwatch(kind, side, palette).save(&buffer, "PNG");
    return QStringLiteral("<img src=\"data:image/png;base64,%1\" width=\"%2\" height=\"%2\">")
        .arg(QString::fromLatin1(png.toBase64()))
        .arg(side);
}

QString kindPlural(core::ObjectKind kind)
{
    switch (kind) {
        case core::ObjectKind::Weight:
            return KindText::tr("weights");
        case core::ObjectKind::OptState:
            return KindText::tr("optimizer states");
        case core::ObjectKind::Activation:
            return KindText::tr("activations");
        case core::ObjectKind::ActivationGrad:
            return KindText::tr("activation gradients");
        case core::ObjectKind::WeightGrad:
            return KindText::tr("weight gradients");
        case core::ObjectKind::KeysValues:
            return KindText::tr("keys and values");
    }
    return QString::fromUtf8(core::kindWords(kind)) + QStringLiteral("s");
}

} // namespace rankstep::gui
