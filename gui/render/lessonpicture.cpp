// SPDX-License-Identifier: MIT
#include "lessonpicture.h"

#include <QPainter>
#include <QPalette>
#include <QSvgRenderer>

#include <algorithm>
#include <array>
#include <cmath>

namespace rankstep::gui {
namespace {

QColor mixed(const QColor &a, const QColor &b, double amount)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * amount),
                            float(a.greenF() + (b.greenF() - a.greenF()) * amount),
                            float(a.blueF() + (b.blueF() - a.blueF()) * amount));
}

} // namespace

QByteArray pictureInColors(const QByteArray &svg, const QPalette &palette)
{
    const QColor ink = palette.color(QPalette::Text), paper = palette.color(QPalette::Base);
    const std::array<std::pair<QByteArray, QByteArray>, 3> tokens = {{
        {QByteArrayLiteral("#222222"), ink.name().toLatin1()},
        {QByteArrayLiteral("#888888"), mixed(ink, paper, 0.45).name().toLatin1()},
        {QByteArrayLiteral("#ffffff"), paper.name().toLatin1()},
    }};
    // One pass, so that a color put in (a dark theme's white ink) is never taken for a token.
    QByteArray colored;
    colored.reserve(svg.size());
    qsizetype from = 0;
    for (qsizetype at = svg.indexOf('#'); at >= 0; at = svg.indexOf('#', at + 1)) {
        const QByteArrayView rest = QByteArrayView(svg).sliced(at);
        for (const auto &[token, color] : tokens)
            if (rest.startsWith(token)) {
                colored.append(QByteArrayView(svg).sliced(from, at - from));
                colored.append(color);
                from = at + token.size();
                break;
            }
    }
    colored.append(QByteArrayView(svg).sliced(from));
    return colored;
}

QSize lessonPictureSize(const QSizeF &own, int available, double fontPixels)
{
    if (own.width() <= 0 || own.height() <= 0 || available <= 0)
        return {};
    double scale = std::max(fontPixels, 1.0) / kPictureFontUnits;
    scale = std::min(scale, available / own.width());
    scale = std::min(scale, kMaxPictureHeight / own.height());
    return QSize(std::max(1, int(std::floor(own.width() * scale))),
                 std::max(1, int(std::floor(own.height() * scale))));
}

QImage renderLessonPicture(const QByteArray &svg, int available, double fontPixels, double dpr)
{
    QSvgRenderer renderer(svg);
    if (!renderer.isValid())
        return {};
    const QSize size = lessonPictureSize(renderer.viewBoxF().size(), available, fontPixels);
    if (size.isEmpty())
        return {};
    dpr = std::clamp(dpr, 1.0, 4.0);
    QImage image(QSize(int(std::ceil(size.width() * dpr)), int(std::ceil(size.height() * dpr))),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(image.size())));
    }
    image.setDevicePixelRatio(dpr);
    return image;
}

} // namespace rankstep::gui
