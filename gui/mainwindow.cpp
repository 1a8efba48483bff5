// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include <QFont>
#include <QLabel>

namespace rankstep::gui {

namespace {

// Large enough to read from a classroom projector.
constexpr qreal placeholderPointSize = 16.0;

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_placeholder(new QLabel(tr("Rankstep: distributed training, step by step. "
                                  "Lessons arrive in the next release."),
                               this))
{
    setWindowTitle(QStringLiteral("Rankstep"));

    QFont font = m_placeholder->font();
    font.setPointSizeF(placeholderPointSize);
    m_placeholder->setFont(font);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setMargin(24);
    setCentralWidget(m_placeholder);

    resize(900, 560);
}

} // namespace rankstep::gui
