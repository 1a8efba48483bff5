// SPDX-License-Identifier: MIT
#include "staterankpicker.h"

#include "stateranks.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QToolButton>

#include <algorithm>

namespace rankstep::gui {
namespace {

// The button says as much of "Ranks 0-8, 16, 24, … ▾" as fits from its start (its menu's arrow
// stays beside it), and the whole in its tooltip: in the state tab at 1280x800 it was narrower than
// its text and showed "6, 24, 32, 40,", cut at both ends. It asks for the whole text's width, to
// take it back as the pane widens.
class FittedToolButton : public QToolButton
{
public:
    void setFullText(const QString &text, const QString &toolTip)
    {
        m_full = text;
        m_toolTip = toolTip;
        setText(text);
        setToolTip(toolTip);
        updateGeometry();
        // Fitted once the layout gave it its width for this text, not the width of the last.
        QMetaObject::invokeMethod(
            this, [this] { fit(); }, Qt::QueuedConnection);
    }
    QSize sizeHint() const override
    {
        const QSize shown = QToolButton::sizeHint();
        return {shown.width() + fontMetrics().horizontalAdvance(m_full) -
                    fontMetrics().horizontalAdvance(text()),
                shown.height()};
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QToolButton::resizeEvent(event);
        fit();
    }
    void showEvent(QShowEvent *event) override
    {
        QToolButton::showEvent(event);
        fit();
    }

private:
    void fit()
    {
        const int frame = QToolButton::sizeHint().width() - fontMetrics().horizontalAdvance(text());
        // Hidden, it has no width of its own yet: the whole.
        const QString shown = isVisible() ? fontMetrics().elidedText(m_full, Qt::ElideRight,
                                                                     std::max(0, width() - frame))
                                          : m_full;
        if (shown != text())
            setText(shown);
        setToolTip(shown == m_full ? m_toolTip : m_full);
    }

    QString m_full, m_toolTip;
};

} // namespace

StateRankPicker::StateRankPicker(QWidget *parent)
    : QWidget(parent)
    , m_button(new FittedToolButton)
    , m_menu(new QMenu(this))
    , m_field(new QLineEdit)
    , m_message(new QLabel)
{
    static_cast<FittedToolButton *>(m_button)->setFullText({}, tr("Tick the ranks to show"));
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
    static_cast<FittedToolButton *>(m_button)->setFullText(
        tr("Ranks %1 ▾").arg(rankListText(m_shown)), tr("Tick the ranks to show"));
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
