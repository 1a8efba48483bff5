// SPDX-License-Identifier: MIT
#include "paintrecorder.h"

#include <QFontMetricsF>
#include <QPaintEngineState>
#include <QPainter>
#include <QTextItem>
#include <QWidget>

#include <algorithm>

namespace rankstep::gui::testing {
namespace {

class RecordingEngine : public QPaintEngine
{
public:
    RecordingEngine() : QPaintEngine(QPaintEngine::AllFeatures) {}

    bool begin(QPaintDevice *) override { return true; }
    bool end() override { return true; }
    Type type() const override { return QPaintEngine::User; }
    void updateState(const QPaintEngineState &changed) override
    {
        if (changed.state() & QPaintEngine::DirtyPen)
            m_pen = changed.pen();
    }
    void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override {}
    void drawLines(const QLineF *, int) override { stroked(); }
    void drawRects(const QRectF *, int) override { stroked(); }
    void drawEllipse(const QRectF &) override { stroked(); }
    void drawPath(const QPainterPath &) override { stroked(); }
    void drawPolygon(const QPointF *, int, PolygonDrawMode) override { stroked(); }
    void drawTextItem(const QPointF &, const QTextItem &item) override
    {
        sizes.tallestText = std::max(sizes.tallestText, QFontMetricsF(item.font()).height());
        ++sizes.texts;
    }

    PaintSizes sizes;

private:
    void stroked()
    {
        if (m_pen.style() != Qt::NoPen)
            sizes.widestPen = std::max(sizes.widestPen, m_pen.widthF());
    }

    QPen m_pen;
};

class RecordingDevice : public QPaintDevice
{
public:
    explicit RecordingDevice(QSize size) : m_size(size) {}
    QPaintEngine *paintEngine() const override { return &m_engine; }
    RecordingEngine &engine() { return m_engine; }

protected:
    int metric(PaintDeviceMetric metric) const override
    {
        switch (metric) {
            case PdmWidth:
                return m_size.width();
            case PdmHeight:
                return m_size.height();
            case PdmDpiX:
            case PdmDpiY:
            case PdmPhysicalDpiX:
            case PdmPhysicalDpiY:
                return 96;
            case PdmDevicePixelRatio:
                return 1;
            case PdmDevicePixelRatioScaled:
                return int(QPaintDevice::devicePixelRatioFScale());
            case PdmDepth:
                return 32;
            case PdmNumColors:
                return 0;
            default:
                return QPaintDevice::metric(metric);
        }
    }

private:
    QSize m_size;
    mutable RecordingEngine m_engine;
};

} // namespace

PaintSizes recordPaint(QWidget &widget)
{
    RecordingDevice device(widget.size());
    widget.render(&device, QPoint(), QRegion(), QWidget::DrawChildren);
    return device.engine().sizes;
}

PaintSizes recordPaint(QSize size, const std::function<void(QPainter &)> &paint)
{
    RecordingDevice device(size);
    {
        QPainter painter(&device);
        paint(painter);
    }
    return device.engine().sizes;
}

} // namespace rankstep::gui::testing
