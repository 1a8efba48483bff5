// SPDX-License-Identifier: MIT
#include "quizpanel.h"

#include <QEvent>
#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>

namespace rankstep::gui {
namespace {

constexpr int kMostChoices = 4;
// The room reads these from its seats: larger than the window's (already zoomed) text.
constexpr double kQuestionScale = 1.4;
constexpr double kChoiceScale = 1.25;

QFont scaled(const QFont &base, double factor, bool bold)
{
    QFont font = base;
    font.setPointSizeF(base.pointSizeF() * factor);
    font.setBold(bold);
    return font;
}

} // namespace

QuizPanel::QuizPanel(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("quizPanel"));
    setAccessibleName(tr("Predict the next step"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(4);
    // The question and, at its right, what to press (then the answer's sentence): one line less
    // than below each other, which a 1280x800 projector at 150 % needs.
    auto *top = new QHBoxLayout;
    top->setSpacing(16);
    m_question = new QLabel;
    m_question->setObjectName(QStringLiteral("quizQuestion"));
    m_question->setWordWrap(true);
    m_question->setTextFormat(Qt::PlainText);
    top->addWidget(m_question, 3);
    m_footer = new QLabel;
    m_footer->setObjectName(QStringLiteral("quizFooter"));
    m_footer->setWordWrap(true);
    m_footer->setTextFormat(Qt::PlainText);
    m_footer->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    top->addWidget(m_footer, 2);
    layout->addLayout(top);
    m_grid = new QGridLayout;
    m_grid->setHorizontalSpacing(24);
    m_grid->setVerticalSpacing(2);
    for (int i = 0; i < kMostChoices; ++i) {
        auto *label = new QLabel;
        label->setObjectName(QStringLiteral("quizChoice%1").arg(i));
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setMargin(3);
        m_choices.append(label);
    }
    placeChoices(2);
    layout->addLayout(m_grid);
    updateFonts();
    hide();
}

QLabel *QuizPanel::choice(int index) const
{
    return index >= 0 && index < m_choices.size() ? m_choices[index] : nullptr;
}

// Short choices (ranks, operations) in one row; phrases of objects two by two.
void QuizPanel::placeChoices(int columns)
{
    for (QLabel *label : m_choices)
        m_grid->removeWidget(label);
    for (int c = 0; c < kMostChoices; ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
    for (int i = 0; i < m_choices.size(); ++i)
        m_grid->addWidget(m_choices[i], i / columns, i % columns);
}

void QuizPanel::updateFonts()
{
    m_question->setFont(scaled(font(), kQuestionScale, true));
    for (QLabel *label : m_choices)
        label->setFont(scaled(font(), kChoiceScale, label->property("answer").toBool()));
}

void QuizPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateFonts();
}

void QuizPanel::paintEvent(QPaintEvent *event)
{
    QWidget::paintEvent(event);
    // A frame in the palette's highlight: the question stands apart in every theme.
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
    painter.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 6, 6);
}

void QuizPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    Q_EMIT shownChanged(true);
}

void QuizPanel::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    Q_EMIT shownChanged(false);
}

void QuizPanel::ask(const QString &question, const QStringList &choices)
{
    m_revealed = false;
    m_question->setText(tr("Predict: %1").arg(question));
    for (int i = 0; i < m_choices.size(); ++i) {
        QLabel *label = m_choices[i];
        label->setProperty("answer", false);
        label->setAutoFillBackground(false);
        label->setPalette(palette());
        label->setEnabled(true);
        label->setVisible(i < choices.size());
        if (i < choices.size())
            label->setText(QStringLiteral("%1  %2").arg(QChar(u'A' + i)).arg(choices[i]));
    }
    m_footer->setText(tr("PageDown: the answer, with the step"));
    updateFonts();
    const QFontMetrics metrics(scaled(font(), kChoiceScale, true));
    int widest = 0;
    for (int i = 0; i < choices.size(); ++i)
        widest = std::max(widest, metrics.horizontalAdvance(m_choices[i]->text()) + 12);
    const int room = std::max(width(), parentWidget() ? parentWidget()->width() : 0) - 20;
    placeChoices(widest * kMostChoices + m_grid->horizontalSpacing() * 3 <= room ? kMostChoices
                                                                                 : 2);
    show();
}

void QuizPanel::reveal(int answer, const QString &sentence)
{
    m_revealed = true;
    for (int i = 0; i < m_choices.size(); ++i) {
        QLabel *label = m_choices[i];
        const bool right = i == answer;
        label->setProperty("answer", right);
        // Green with white text reads on light, dark and high-contrast palettes alike; the
        // others are greyed by the palette.
        QPalette colors = palette();
        if (right) {
            colors.setColor(QPalette::Window, QColor(0x1b, 0x7f, 0x3b));
            colors.setColor(QPalette::WindowText, Qt::white);
        }
        label->setPalette(colors);
        label->setAutoFillBackground(right);
        label->setEnabled(right);
        if (right && !label->text().startsWith(QStringLiteral("✓")))
            label->setText(QStringLiteral("✓ ") + label->text());
    }
    m_footer->setText(sentence);
    updateFonts();
}

void QuizPanel::hidePanel()
{
    m_revealed = false;
    hide();
}

} // namespace rankstep::gui
