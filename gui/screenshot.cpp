// SPDX-License-Identifier: MIT
#include "screenshot.h"

#include <QCoreApplication>
#include <QEvent>
#include <QPixmap>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <chrono>
#include <cstdio>
#include <utility>

namespace rankstep::gui {

namespace {

// Without a paint (a window manager that never exposes the window), shoot anyway.
constexpr auto paintTimeout = std::chrono::seconds(5);

// Waits for the widget's first paint, then saves the picture and quits.
class ScreenshotTaker : public QObject
{
public:
    ScreenshotTaker(QWidget *widget, QString path)
        : QObject(widget), m_widget(widget), m_path(std::move(path))
    {
        widget->installEventFilter(this);
        QTimer::singleShot(paintTimeout, this, &ScreenshotTaker::shoot);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_widget && event->type() == QEvent::Paint) {
            m_widget->removeEventFilter(this);
            // Queued, so the paint in progress completes first.
            QTimer::singleShot(0, this, &ScreenshotTaker::shoot);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    void shoot()
    {
        if (m_done) {
            return;
        }
        m_done = true;
        const bool saved = m_widget && m_widget->grab().save(m_path);
        if (!saved) {
            std::fprintf(stderr, "rankstep: cannot write screenshot to %s\n", qPrintable(m_path));
        }
        QCoreApplication::exit(saved ? 0 : 1);
    }

    QPointer<QWidget> m_widget;
    QString m_path;
    bool m_done = false;
};

} // namespace

void saveScreenshotAndQuit(QWidget *widget, const QString &path)
{
    new ScreenshotTaker(widget, path); // owned by the widget
}

} // namespace rankstep::gui
