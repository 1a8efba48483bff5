// SPDX-License-Identifier: MIT
#include "staterankpicker.h"

#include "describable.h"
#include "stateranks.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QStyleOptionToolButton>
#include <QStylePainter>
#include <QToolButton>

#include <algorithm>

namespace rankstep::gui {
namespace {

// The button says as much of "Ranks 0-8, 16, 24, … ▾" as fits: whole ranks and ranges from the
// start, then "…" (its menu's arrow stays beside it), and the whole in its tooltip. In the state
// tab at 1280x800 it was narrower than its text and showed "6, 24, 32, 40,", cut at both ends; a
// list cut inside a number ("Ranks 0-1…" for "Ranks 0-15") names other ranks. Its text stays
// whole, so that it asks for the whole text's width: asked from a text it had shortened while
// narrow, the legend's button kept too little room and read "Ranks 0-1…" at 1280x800 and
// 1500x940. It chooses what to draw as its width changes, and keeps that in kShownTextProperty.
class FittedToolButton : public QToolButton
{
public:
    // `text` whole and its shorter forms, longest first: the first that fits is drawn.
    void setTexts(const QString &text, QStringList shorter, const QString &toolTip)
    {
        m_shorter = std::move(shorter);
        m_toolTip = toolTip;
        setText(text);
        fit();
    }
    // A layout may give it the room of its shortest form.
    QSize minimumSizeHint() const override
    {
        const QSize whole = sizeHint();
        const QString shortest = m_shorter.isEmpty() ? text() : m_shorter.last();
        return {std::min(whole.width(), frame() + fontMetrics().horizontalAdvance(shortest)),
                whole.height()};
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QToolButton::resizeEvent(event);
        fit();
    }
    void changeEvent(QEvent *event) override
    {
        QToolButton::changeEvent(event);
        if (event->type() == QEvent::FontChange)
            fit();
    }
    void paintEvent(QPaintEvent *) override
    {
        QStylePainter painter(this);
        QStyleOptionToolButton option;
        initStyleOption(&option);
        option.text = m_shown;
        painter.drawComplexControl(QStyle::CC_ToolButton, option);
    }

private:
    // The width beside its text, from its size for the whole text (the size it asks for).
    int frame() const { return sizeHint().width() - fontMetrics().horizontalAdvance(text()); }
    void fit()
    {
        QString shown = text();
        if (width() < sizeHint().width()) {
            const int room = std::max(0, width() - frame());
            const auto fits = std::find_if(m_shorter.begin(), m_shorter.end(), [&](const auto &s) {
                return fontMetrics().horizontalAdvance(s) <= room;
            });
            shown = fits != m_shorter.end()
                        ? *fits
                        : fontMetrics().elidedText(m_shorter.isEmpty() ? text() : m_shorter.last(),
                                                   Qt::ElideRight, room);
        }
        m_shown = shown;
        setProperty(kShownTextProperty, shown);
        setToolTip(shown == text() ? m_toolTip : text());
        update();
    }

    QStringList m_shorter;
    QString m_toolTip, m_shown;
};

// "Ranks 0-8, 16, 24, … ▾" and shorter, down to "Ranks … ▾": the list cut after whole items.
QStringList shorterForms(const std::vector<int> &ranks)
{
    const QStringList items = rankListText(ranks).split(QStringLiteral(", "));
    QStringList forms;
    for (qsizetype kept = items.size() - 1; kept >= 0; --kept) {
        QStringList list = items.first(kept);
        list << QStringLiteral("…");
        forms << StateRankPicker::tr("Ranks %1 ▾").arg(list.join(QStringLiteral(", ")));
    }
    return forms;
}

} // namespace

StateRankPicker::StateRankPicker(QWidget *parent)
    : QWidget(parent)
    , m_button(new FittedToolButton)
    , m_menu(new QMenu(this))
    , m_field(new QLineEdit)
    , m_message(new QLabel)
{
    static_cast<FittedToolButton *>(m_button)->setTexts({}, {}, tr("Tick the ranks to show"));
    m_button->setMenu(m_menu);
    m_button->setPopupMode(QToolButton::InstantPopup);
    m_field->setPlaceholderText(tr("ranks, e.g. 0-3, 8, 12-15"));
    m_field->setClearButtonEnabled(true);
    m_field->setMaximumWidth(220);
    m_message->setStyleSheet(QStringLiteral("color: #b00020"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 0);
    layout->addWidget(m_button);
    layout->addWidget(m_field);
    layout->addWidget(m_message, 1);
    connect(m_field, &QLineEdit::returnPressed, this, &StateRankPicker::onTextEntered);
    connect(m_menu, &QMenu::aboutToShow, this, &StateRankPicker::fillMenu);
}

void StateRankPicker::setRanks(int rankCount, int most, std::vector<int> shown)
{
    m_count = rankCount;
    m_most = most;
    m_shown = std::move(shown);
    static_cast<FittedToolButton *>(m_button)->setTexts(tr("Ranks %1 ▾").arg(rankListText(m_shown)),
                                                        shorterForms(m_shown),
                                                        tr("Tick the ranks to show"));
}

QString StateRankPicker::message() const
{
    return m_message->text();
}

void StateRankPicker::onTextEntered()
{
    const RankList list = parseRankList(m_field->text(), m_count, m_most);
    if (!list.ok())
        return complain(list.error);
    choose(list.ranks);
}

void StateRankPicker::onRankToggled(QAction *action, int rank, bool checked)
{
    const auto refuse = [&](const QString &message) {
        const QSignalBlocker quiet(action);
        action->setChecked(!checked);
        complain(message);
    };
    std::vector<int> ranks = m_shown;
    if (checked && int(ranks.size()) >= m_most)
        return refuse(tr("at most %1 ranks fit: untick one first").arg(m_most));
    if (checked)
        ranks.push_back(rank);
    else
        ranks.erase(std::remove(ranks.begin(), ranks.end(), rank), ranks.end());
    if (ranks.empty())
        return refuse(tr("at least one rank stays shown"));
    std::sort(ranks.begin(), ranks.end());
    choose(std::move(ranks));
}

void StateRankPicker::fillMenu()
{
    m_menu->clear();
    for (int rank = 0; rank < m_count; ++rank) {
        QAction *action = m_menu->addAction(tr("rank %1").arg(rank));
        action->setCheckable(true);
        action->setChecked(std::find(m_shown.begin(), m_shown.end(), rank) != m_shown.end());
        connect(action, &QAction::toggled, this,
                [this, action, rank](bool checked) { onRankToggled(action, rank, checked); });
    }
}

void StateRankPicker::choose(std::vector<int> ranks)
{
    m_message->clear();
    setRanks(m_count, m_most, std::move(ranks));
    m_field->setText(rankListText(m_shown));
    Q_EMIT ranksChosen(m_shown);
}

void StateRankPicker::complain(const QString &message)
{
    m_message->setText(message);
}

} // namespace rankstep::gui
