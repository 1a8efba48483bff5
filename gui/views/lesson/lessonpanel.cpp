// SPDX-License-Identifier: MIT
#include "lessonpanel.h"

#include "core/lessons/pictures.h"
#include "lessonpicture.h"
#include "lessontitle.h"
#include "runsession.h"

#include <QEvent>
#include <QFontInfo>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QSvgRenderer>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>

namespace rankstep::gui {
namespace {

// Markdown's code spans and blocks come in the system's fixed font at its own size, which the
// app's zoom (the application font) does not reach: give them the size of the document's text.
// A code block's line wider than the pane wraps, as the editor's do, where it ran past the pane's
// edge behind a sideways scroll bar (the walk-through's error, four_d's command on a laptop).
void sizeCodeIn(QTextDocument &document, const QFont &font)
{
    QTextCursor cursor(&document);
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().nonBreakableLines()) {
            QTextBlockFormat wrapping = block.blockFormat();
            wrapping.setNonBreakableLines(false);
            cursor.setPosition(block.position());
            cursor.setBlockFormat(wrapping);
        }
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
}

// Whether the lesson has the picture and QtSvg can draw it.
bool drawable(const lessons::Lesson &lesson, const std::string &name)
{
    const auto it = lesson.pictures.find(name);
    if (it == lesson.pictures.end())
        return false;
    const QSvgRenderer renderer(QByteArray::fromStdString(it->second));
    return renderer.isValid() && !renderer.viewBoxF().isEmpty();
}

// The scheme of the lesson's pictures in the text browser's document: one it cannot read from
// disk, so that a picture comes from the lesson's files or not at all.
constexpr char kPictureScheme[] = "lesson-picture:";

// The lesson's text with each picture it can draw named in kPictureScheme, and each it cannot
// (missing from its folder, or no SVG) left as its alt text, in italics, where it would stand.
QString withDrawablePictures(const lessons::Lesson &lesson, const std::string &markdown)
{
    std::string text;
    std::size_t from = 0;
    for (const lessons::PictureReference &picture : lessons::pictureReferences(markdown)) {
        text += markdown.substr(from, picture.begin - from);
        if (drawable(lesson, picture.name))
            text += "![" + picture.alt + "](" + kPictureScheme + picture.name + ")";
        else if (!picture.alt.empty())
            text += "*" + picture.alt + "*";
        from = picture.begin + picture.length;
    }
    text += markdown.substr(from);
    return QString::fromStdString(text);
}

// The lesson's picture an image of the document shows, or null.
const std::string *pictureOf(const lessons::Lesson &lesson, const QTextImageFormat &format)
{
    const std::string name = format.name().toStdString();
    const std::string scheme = kPictureScheme;
    if (name.rfind(scheme, 0) != 0)
        return nullptr;
    const auto it = lesson.pictures.find(name.substr(scheme.size()));
    return it == lesson.pictures.end() ? nullptr : &it->second;
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
    m_text->installEventFilter(this); // its width draws the pictures
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
    m_text->setMarkdown(lesson ? withDrawablePictures(*lesson, lessonText(*lesson).toStdString())
                               : QString());
    m_picturesWidth = 0;
    drawPictures();
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
    if (event->type() == QEvent::FontChange) { // a zoom
        sizeCode();
        m_picturesWidth = 0;
        drawPictures();
    } else if (event->type() == QEvent::PaletteChange) {
        // A theme. The panel's own palette: the text browser, a child, gets the new one only
        // after this event.
        m_picturesWidth = 0;
        drawPictures();
    }
}

bool LessonPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_text && event->type() == QEvent::Resize)
        drawPictures();
    return QWidget::eventFilter(watched, event);
}

int LessonPanel::picturesWidth() const
{
    // The room beside a scroll bar whether or not one shows, so that a picture's height, which
    // may bring the scroll bar, never changes the width it is drawn at.
    const int scrollBar = m_text->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_text);
    const auto margin = int(std::ceil(2 * m_text->document()->documentMargin()));
    return std::max(1, m_text->contentsRect().width() - scrollBar - margin - 1);
}

void LessonPanel::drawPictures()
{
    const lessons::Lesson *lesson = m_session.lesson();
    const int width = picturesWidth();
    if (!lesson || width == m_picturesWidth)
        return;
    m_picturesWidth = width;
    QTextDocument &document = *m_text->document();
    const double fontPixels = QFontInfo(m_text->font()).pixelSize();
    QTextCursor cursor(&document);
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().isImageFormat())
                continue;
            QTextImageFormat format = fragment.charFormat().toImageFormat();
            const std::string *picture = pictureOf(*lesson, format);
            if (!picture)
                continue;
            const QImage image =
                renderLessonPicture(pictureInColors(QByteArray::fromStdString(*picture), palette()),
                                    width, fontPixels, m_text->devicePixelRatioF());
            if (image.isNull())
                continue;
            document.addResource(QTextDocument::ImageResource, QUrl(format.name()), image);
            if (format.toolTip().isEmpty()) // what the picture shows, in words, on hovering it
                format.setToolTip(format.stringProperty(QTextFormat::ImageAltText));
            format.setWidth(image.deviceIndependentSize().width());
            format.setHeight(image.deviceIndependentSize().height());
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(format);
        }
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
