// SPDX-License-Identifier: MIT
#include "lessonpanel.h"

#include "lessontitle.h"
#include "runsession.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

namespace rankstep::gui {
namespace {

// Markdown's code spans and blocks come in the system's fixed font at its own size, which the
// app's zoom (the application font) does not reach: give them the size of the document's text.
void sizeCodeIn(QTextDocument &document, const QFont &font)
{
    QTextCursor cursor(&document);
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            QTextCharFormat format = fragment.charFormat();
            if (!format.fontFixedPitch() && !format.font().fixedPitch())
                continue;
            if (font.pointSizeF() > 0)
                format.setFontPointSize(font.pointSizeF());
            else
                format.setProperty(QTextFormat::FontPixelSize, font.pixelSize());
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(format);
        }
}

} // namespace

LessonPanel::LessonPanel(RunSession &session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_text(new QTextBrowser(this))
    , m_hints(new QTextBrowser(this))
    , m_hintButton(new QPushButton(this))
    , m_solutionButton(new QPushButton(tr("Show solution…"), this))
{
    m_text->setOpenExternalLinks(true);
    m_hints->setVisible(false);
    m_hints->setMaximumHeight(180);
    m_hintButton->setObjectName(QStringLiteral("hintButton"));
    m_solutionButton->setObjectName(QStringLiteral("solutionButton"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_hintButton);
    buttons->addWidget(m_solutionButton);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_hints);
    layout->addLayout(buttons);
    connect(m_hintButton, &QPushButton::clicked, this, &LessonPanel::showNextHint);
    connect(m_solutionButton, &QPushButton::clicked, this, &LessonPanel::askForSolution);
    connect(&m_session, &RunSession::lessonChanged, this, &LessonPanel::onLessonChanged);
    if (m_session.lesson())
        onLessonChanged();
    else
        updateHintButton();
}

void LessonPanel::onLessonChanged()
{
    const lessons::Lesson *lesson = m_session.lesson();
    m_hintsShown = 0;
    m_hints->clear();
    m_hints->setVisible(false);
    m_text->setMarkdown(lesson ? lessonText(*lesson) : QString());
    sizeCode();
    m_solutionButton->setEnabled(lesson != nullptr);
    updateHintButton();
}

void LessonPanel::showNextHint()
{
    const lessons::Lesson *lesson = m_session.lesson();
    if (!lesson || m_hintsShown >= int(lessonHints(*lesson).size()))
        return;
    ++m_hintsShown;
    QString markdown;
    for (int i = 0; i < m_hintsShown; ++i)
        markdown += tr("**Hint %1.** ").arg(i + 1) +
                    QString::fromStdString(lessonHints(*lesson)[std::size_t(i)]) +
                    QStringLiteral("\n\n");
    m_hints->setMarkdown(markdown);
    sizeCode();
    m_hints->setVisible(true);
    updateHintButton();
}

void LessonPanel::askForSolution()
{
    if (!m_session.lesson())
        return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Show the solution?"),
                                tr("The reference solution will replace the code in the editor. "
                                   "Your code stays one Undo (Ctrl+Z) away.\n\n"
                                   "Trying one more hint first often teaches more."),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->button(QMessageBox::Yes)->setText(tr("Show solution"));
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::accepted, this, [this] {
        if (const lessons::Lesson *lesson = m_session.lesson())
            Q_EMIT solutionRequested(QString::fromStdString(lesson->solution));
    });
    box->open();
}

void LessonPanel::setSpoilersHidden(bool hidden)
{
    m_solutionButton->setVisible(!hidden);
    m_hintButton->setVisible(!hidden);
    m_hints->setVisible(!hidden && m_hintsShown > 0);
}

const QTextDocument *LessonPanel::textDocument() const
{
    return m_text->document();
}

void LessonPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) // a zoom
        sizeCode();
}

void LessonPanel::sizeCode()
{
    sizeCodeIn(*m_text->document(), m_text->font());
    sizeCodeIn(*m_hints->document(), m_hints->font());
}

void LessonPanel::updateHintButton()
{
    const lessons::Lesson *lesson = m_session.lesson();
    const int total = lesson ? int(lessonHints(*lesson).size()) : 0;
    m_hintButton->setEnabled(m_hintsShown < total);
    m_hintButton->setText(m_hintsShown < total
                              ? tr("Show hint %1 of %2").arg(m_hintsShown + 1).arg(total)
                              : tr("No more hints"));
}

} // namespace rankstep::gui
