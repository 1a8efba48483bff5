// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractButton>
#include <QTabWidget>
#include <QWidget>

#include <vector>

namespace rankstep::gui {

// One tab's button in a TabStrip: its whole title, the current one marked by a bar beneath it
// and bold type (as wide as the plain one, so that choosing a tab moves no other).
class TabButton : public QAbstractButton
{
    Q_OBJECT
public:
    explicit TabButton(const QString &title, QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent *event) override;
    void enterEvent(QEnterEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    QFont boldFont() const;
    bool m_hovered = false;
};

// A tab widget's tabs as buttons that wrap onto as many rows as the width needs: every tab's
// whole title shows at any width, zoom and language (its tab bar showed "Why it" and "Experi…" and
// scrolled the rest out of sight at 1280x800). The tab widget stays what the window and scripts
// talk to (its current tab, titles, tooltips, enabled tabs); its own bar is hidden. A disabled
// tab (the hang's before a hang, a PyTorch lesson's simulated views) has no button: it takes no
// room until it has something to show.
class TabStrip : public QWidget
{
    Q_OBJECT
public:
    explicit TabStrip(QTabWidget &tabs, QWidget *parent = nullptr);

    TabButton *button(int index) const;
    int rowCount() const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void sync(); // buttons shown and checked as the tabs are
    void fitHeight();
    // Lays the shown buttons out in rows `width` wide (moving them when apply is true); returns
    // the height and the number of rows.
    std::pair<int, int> place(int width, bool apply) const;

    QTabWidget &m_tabs;
    std::vector<TabButton *> m_buttons;
};

// The tab widget under a TabStrip: its least size is its current page's in its frame. A
// QTabWidget counts every page's least size and its own bar's height though the bar is hidden:
// presenting at 1280x800 with the quiz, the What if tab's least height (never shown) and the
// hidden bar made the window 928 px high on an 800 px screen.
class StripTabs : public QTabWidget
{
    Q_OBJECT
public:
    explicit StripTabs(QWidget *parent = nullptr);
    QSize minimumSizeHint() const override;
};

} // namespace rankstep::gui
