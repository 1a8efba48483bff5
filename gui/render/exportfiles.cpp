// SPDX-License-Identifier: MIT
#include "exportfiles.h"

#include "explainfigure.h"

#include "core/io/chrometrace.h"
#include "core/wholefile.h"

#include <QBuffer>
#include <QFile>
#include <QGuiApplication>
#include <QPainter>
#include <QRegularExpression>
#include <QScreen>
#include <QSvgGenerator>

#include <string>

namespace rankstep::gui {
namespace {

// Not QSaveFile: Qt 6.4's commit() misses an error of the write it makes at close (a full disk
// took a 0-byte file for written and renamed it over the good one, /dev/full "succeeded").
QString saveBytes(const QString &path, const QByteArray &bytes)
{
    const auto failed = core::writeWholeFile(QFile::encodeName(path).toStdString(),
                                             std::string_view(bytes.constData(), bytes.size()));
    if (!failed)
        return {};
    return QObject::tr("Could not write %1: %2").arg(path, QString::fromStdString(failed->reason));
}

QString saveText(const QString &path, const std::string &text)
{
    return saveBytes(path, QByteArray::fromStdString(text));
}

// QSvgGenerator gives the size in millimetres; slide programs place a figure best when it says
// its size in pixels, as the viewBox does.
QByteArray withPixelSize(const QByteArray &svg, QSize size)
{
    static const QRegularExpression root(QStringLiteral(R"(<svg width="[^"]*" height="[^"]*")"));
    QString text = QString::fromUtf8(svg);
    text.replace(
        root,
        QStringLiteral(R"(<svg width="%1" height="%2")").arg(size.width()).arg(size.height()));
    return text.toUtf8();
}

} // namespace

QByteArray timelineFigureSvg(const std::shared_ptr<const core::Trace> &trace,
                             const FigureOptions &options)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(options.size);
    generator.setViewBox(QRect(QPoint(0, 0), options.size));
    // Text is laid out with the screen's font metrics: draw it at the same resolution.
    if (const QScreen *screen = QGuiApplication::primaryScreen())
        generator.setResolution(qRound(screen->logicalDotsPerInchY()));
    generator.setTitle(options.title.isEmpty() ? QStringLiteral("Rankstep timeline")
                                               : options.title);
    generator.setDescription(figureSummary(*trace));
    {
        QPainter painter(&generator);
        paintTimelineFigure(painter, trace, options);
    }
    return withPixelSize(buffer.data(), options.size);
}

QString writeTimelineSvg(const std::shared_ptr<const core::Trace> &trace,
                         const FigureOptions &options, const QString &path)
{
    return saveBytes(path, timelineFigureSvg(trace, options));
}

QString writeTimelinePng(const std::shared_ptr<const core::Trace> &trace,
                         const FigureOptions &options, const QString &path)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    renderTimelineFigure(trace, options).save(&buffer, "PNG");
    return saveBytes(path, bytes);
}

QString writeStatePng(const std::shared_ptr<const core::Trace> &trace,
                      const replay::RunState &state, const FigureOptions &options,
                      const QString &path)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    renderStateFigure(trace, state, options).save(&buffer, "PNG");
    return saveBytes(path, bytes);
}

QString writeExplainFigure(const core::Trace &trace, const FigureOptions &options,
                           const QString &path, bool svg)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (svg) {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(options.size);
        generator.setViewBox(QRect(QPoint(0, 0), options.size));
        if (const QScreen *screen = QGuiApplication::primaryScreen())
            generator.setResolution(qRound(screen->logicalDotsPerInchY()));
        generator.setTitle(options.title.isEmpty() ? QStringLiteral("Rankstep: why")
                                                   : options.title);
        {
            QPainter painter(&generator);
            paintExplainFigure(painter, trace, options);
        }
        return saveBytes(path, withPixelSize(bytes, options.size));
    }
    renderExplainFigure(trace, options).save(&buffer, "PNG");
    return saveBytes(path, bytes);
}

QString writeTraceJson(const core::Trace &trace, const io::TraceJsonOptions &options,
                       const QString &path)
{
    return saveText(path, io::traceToJson(trace, options));
}

QString writePerfettoTrace(const core::Trace &trace, const QString &path)
{
    return saveText(path, io::traceToChromeJson(trace));
}

} // namespace rankstep::gui
