// SPDX-License-Identifier: MIT
#include "tabstrip.h"

#include <QEvent>
#include <QPainter>
#include <QStyleOptionTabWidgetFrame>
#include <QTabBar>
#include <QTabWidget>

#include <algorithm>

namespace rankstep::gui {
namespace {

constexpr int kGap = 2; // between buttons and between rows

} // namespace

TabButton::TabButton(const QString &title, QWidget *parent) : QAbstractButton(parent)
{
    setText(title);
    setCheckable(true);
    setAutoExclusive(true);
    setFocusPolicy(Qt::TabFocus);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

QFont TabButton::boldFont() const
{
    QFont bold = font();
    bold.setBold(true);
    return bold;
}

QSize TabButton::sizeHint() const
{
    const QFontMetrics metrics(boldFont());
    const int padding = metrics.height() * 2 / 3;
    return {metrics.horizontalAdvance(text()) + 2 * padding, metrics.height() + padding};
}

void TabButton::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QPalette &colors = palette();
    const QRect area = rect();
    if (isChecked())
        painter.fillRect(area, colors.color(QPalette::Base));
    else if (m_hovered && isEnabled())
        painter.fillRect(area, colors.color(QPalette::Midlight));
    if (isChecked()) {
        const int bar = std::max(2, area.height() / 10);
        painter.fillRect(QRect(area.left(), area.bottom() - bar + 1, area.width(), bar),
                         colors.color(QPalette::Highlight));
    }
    if (hasFocus()) {
        painter.setPen(QPen(colors.color(QPalette::Highlight), 1, Qt::DotLine));
        painter.drawRect(area.adjusted(1, 1, -2, -2));
    }
    painter.setFont(isChecked() ? boldFont() : font());
    painter.setPen(
        colors.color(isEnabled() ? QPalette::Active : QPalette::Disabled, QPalette::WindowText));
    painter.drawText(area, Qt::AlignCenter | Qt::TextSingleLine, text());
}

void TabButton::enterEvent(QEnterEvent *event)
{
    m_hovered = true;
    update();
    QAbstractButton::enterEvent(event);
}

void TabButton::leaveEvent(QEvent *event)
{
    m_hovered = false;
    update();
    QAbstractButton::leaveEvent(event);
}

TabStrip::TabStrip(QTabWidget &tabs, QWidget *parent) : QWidget(parent), m_tabs(tabs)
{
    setObjectName(QStringLiteral("tabStrip"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    tabs.tabBar()->hide();
    for (int i = 0; i < tabs.count(); ++i) {
        auto *button = new TabButton(tabs.tabText(i), this);
        button->setObjectName(QStringLiteral("tabButton%1").arg(i));
        button->setToolTip(tabs.tabToolTip(i));
        connect(button, &QAbstractButton::clicked, &tabs, [&tabs, i] { tabs.setCurrentIndex(i); });
        m_buttons.push_back(button);
        // QTabWidget::setTabEnabled enables or disables the page too: the strip hears of it so.
        if (QWidget *page = tabs.widget(i))
            page->installEventFilter(this);
    }
    connect(&tabs, &QTabWidget::currentChanged, this, &TabStrip::sync);
    sync();
}

TabButton *TabStrip::button(int index) const
{
    return index >= 0 && index < int(m_buttons.size()) ? m_buttons[std::size_t(index)] : nullptr;
}

int TabStrip::rowCount() const
{
    return place(width(), false).second;
}

std::pair<int, int> TabStrip::place(int width, bool apply) const
{
    int x = 0, y = 0, rowHeight = 0, rows = 0;
    for (std::size_t i = 0; i < m_buttons.size(); ++i) {
        TabButton *button = m_buttons[i];
        if (!m_tabs.isTabEnabled(int(i)))
            continue;
        const QSize hint = button->sizeHint();
        const int buttonWidth = std::min(hint.width(), std::max(1, width));
        if (x > 0 && x + buttonWidth > width) { // the next row
            x = 0;
            y += rowHeight + kGap;
            rowHeight = 0;
        }
        if (rowHeight == 0)
            ++rows;
        if (apply)
            button->setGeometry(x, y, buttonWidth, hint.height());
        x += buttonWidth + kGap;
        rowHeight = std::max(rowHeight, hint.height());
    }
    return {y + rowHeight, rows};
}

int TabStrip::heightForWidth(int width) const
{
    return place(width, false).first;
}

QSize TabStrip::sizeHint() const
{
    int width = 0;
    for (std::size_t i = 0; i < m_buttons.size(); ++i)
        if (m_tabs.isTabEnabled(int(i)))
            width += m_buttons[i]->sizeHint().width() + kGap;
    return {width, heightForWidth(width)};
}

// As narrow as its widest title, as low as one row: its rows at the width it gets come from
// heightForWidth (the window's least height must not count a row for every tab).
QSize TabStrip::minimumSizeHint() const
{
    QSize least;
    for (const TabButton *button : m_buttons)
        least = least.expandedTo(button->sizeHint());
    return least;
}

void TabStrip::sync()
{
    for (std::size_t i = 0; i < m_buttons.size(); ++i) {
        TabButton *button = m_buttons[i];
        button->setVisible(m_tabs.isTabEnabled(int(i)));
        button->setChecked(int(i) == m_tabs.currentIndex());
    }
    updateGeometry();
    place(width(), true);
    fitHeight();
}

bool TabStrip::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::EnabledChange)
        sync();
    return QWidget::eventFilter(watched, event);
}

void TabStrip::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    place(width(), true);
    fitHeight();
}

// As tall as its rows at its width: layouts ask a widget's least height before its width is
// known, so the rows a width needs are asked for as they change.
void TabStrip::fitHeight()
{
    const int rows = heightForWidth(width());
    if (rows != minimumHeight())
        setMinimumHeight(rows);
}

void TabStrip::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) { // a zoom
        updateGeometry();
        place(width(), true);
        fitHeight();
    }
}

StripTabs::StripTabs(QWidget *parent) : QTabWidget(parent)
{
    // The least size follows the page shown.
    connect(this, &QTabWidget::currentChanged, this, [this] { updateGeometry(); });
}

QSize StripTabs::minimumSizeHint() const
{
    QSize least(0, 0);
    if (const QWidget *page = currentWidget()) {
        const QSizePolicy policy = page->sizePolicy();
        const QSize hint = page->minimumSizeHint().expandedTo(page->minimumSize());
        least = QSize(policy.horizontalPolicy() == QSizePolicy::Ignored ? 0 : hint.width(),
                      policy.verticalPolicy() == QSizePolicy::Ignored ? 0 : hint.height());
    }
    QStyleOptionTabWidgetFrame option;
    initStyleOption(&option);
    option.state = QStyle::State_None;
    option.tabBarSize = QSize(); // hidden: the strip above is the tabs
    return style()->sizeFromContents(QStyle::CT_TabWidget, &option, least, this);
}

} // namespace rankstep::gui
