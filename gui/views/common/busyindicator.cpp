// SPDX-License-Identifier: MIT
#include "busyindicator.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>

#include <algorithm>

namespace rankstep::gui {

BusyIndicator::BusyIndicator(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("busyIndicator"));
    setAccessibleName(tr("Busy"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel;
    m_label->setObjectName(QStringLiteral("busyText"));
    m_label->setTextFormat(Qt::PlainText); // a file's name is not markup
    row->addWidget(m_label);
    m_bar = new QProgressBar;
    m_bar->setRange(0, 0); // no share to show: the work says nothing until it ends
    m_bar->setTextVisible(false);
    m_bar->setMaximumWidth(90);
    m_bar->setMaximumHeight(14);
    row->addWidget(m_bar);
    m_ticker.setInterval(250);
    connect(&m_ticker, &QTimer::timeout, this, &BusyIndicator::tick);
    hide();
}

void BusyIndicator::begin(const QString &key, const QString &text)
{
    end(key);
    Work work{key, text, {}};
    work.clock.start();
    m_work.push_back(std::move(work));
    m_ticker.start();
    tick();
    show();
}

void BusyIndicator::end(const QString &key)
{
    m_work.erase(std::remove_if(m_work.begin(), m_work.end(),
                                [&key](const Work &work) { return work.key == key; }),
                 m_work.end());
    if (m_work.empty()) {
        m_ticker.stop();
        hide();
    } else {
        tick();
    }
}

QString BusyIndicator::text() const
{
    return m_label->text();
}

void BusyIndicator::tick()
{
    if (m_work.empty())
        return;
    const Work &newest = m_work.back();
    const QString seconds = QString::number(double(newest.clock.elapsed()) / 1000.0, 'f', 1);
    const QString text = tr("%1… %2 s").arg(newest.text, seconds);
    m_label->setText(m_work.size() > 1 ? tr("%1 (and %2 more)").arg(text).arg(m_work.size() - 1)
                                       : text);
    setAccessibleDescription(m_label->text());
}

} // namespace rankstep::gui
