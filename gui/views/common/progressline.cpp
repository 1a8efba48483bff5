// SPDX-License-Identifier: MIT
#include "progressline.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

#include <algorithm>
#include <limits>

namespace rankstep::gui {

ProgressLine::ProgressLine(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("progressLine"));
    setAccessibleName(tr("Progress"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel;
    m_label->setObjectName(QStringLiteral("progressText"));
    m_label->setTextFormat(Qt::PlainText); // a file's name is not markup
    row->addWidget(m_label);
    m_bar = new QProgressBar;
    m_bar->setObjectName(QStringLiteral("progressBar"));
    m_bar->setTextVisible(false);
    m_bar->setFixedWidth(160);
    m_bar->setMaximumHeight(14);
    row->addWidget(m_bar);
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("progressCancel"));
    m_cancel->setToolTip(tr("Stops this work; the window keeps what it showed"));
    m_cancel->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed); // a button, not a bar
    connect(m_cancel, &QPushButton::clicked, this, &ProgressLine::cancelRequested);
    row->addWidget(m_cancel);
    hide();
}

void ProgressLine::setProgress(const QString &text, std::int64_t done, std::int64_t total)
{
    m_label->setText(text);
    // QProgressBar counts in int: a share of a thousand is enough for a bar.
    const int permille =
        total > 0 ? int(std::clamp<std::int64_t>(done * 1000 / total, 0, 1000)) : 0;
    m_bar->setRange(0, total > 0 ? 1000 : 0);
    m_bar->setValue(permille);
}

QString ProgressLine::text() const
{
    return m_label->text();
}

} // namespace rankstep::gui
