// SPDX-License-Identifier: MIT
// Shared by the tests that drive the whole window: isolation from the user's settings and code,
// the built-in lessons, a run awaited by signal, and finding the dialogs a run opens.
#pragma once

#include "classactions.h"
#include "core/lessons/lesson.h"
#include "lessonrunactions.h"
#include "mainwindow.h"
#include "progressstore.h"
#include "runsession.h"

#include <gtest/gtest.h>

#include <QMessageBox>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <string>
#include <vector>

class QImage;

namespace rankstep::core {
struct Trace;
}

namespace rankstep::gui::testing {

inline constexpr int kRunTimeoutMs = 30000;

// For comparisons whose failure should print readable text, not QChar bytes.
inline std::string utf8(const QString &text)
{
    return text.toStdString();
}

// The text of a lesson's saved code; empty when there is none.
inline QString savedText(const ProgressStore &store, const QString &lessonId)
{
    const auto stored = store.code(lessonId);
    return stored ? stored->text : QString();
}

// Every built-in lesson, loaded once (a test failure if they do not load).
const std::vector<lessons::Lesson> &builtinLessons();
const lessons::Lesson &builtinLesson(const QString &id);

// The 1-based number of the first line of text containing needle after the line containing
// after (both searched from the top); 0 when either is missing.
int lineContaining(const std::string &text, const QString &needle, const QString &after = {});

// The visible message box with this object name (any when empty), or null.
QMessageBox *visibleMessageBox(const QString &objectName = {});
// Presses button on the next message box that opens, even a blocking one, within timeoutMs.
void answerNextMessageBox(QMessageBox::StandardButton button, int timeoutMs = 5000);

// Opens the file as the window does (a trace on the open's worker) and waits until no trace
// opens any more: the run shown, or why not in a dialog. What openFile returned, false also when
// the open never settled.
bool openFileAndWait(MainWindow &window, const QString &path);

// How many different colors the image holds (a blank or one-color frame has very few).
int distinctColors(const QImage &image);
// The trace of one of the eight reference puzzles (tests/core/referencepuzzles.h) by name;
// null for an unknown name.
std::shared_ptr<const core::Trace> referenceTrace(const std::string &name);

// A window over an isolated progress store: QStandardPaths in test mode, QSettings in a file of
// this test's own (cleared), code files in a temporary folder, and RANKSTEP_CLI set to the
// freshly built runner.
class WindowTest : public ::testing::Test
{
protected:
    void SetUp() override;
    void TearDown() override;

    // A new window over the same store (a restart); shown and exposed when show is true.
    std::unique_ptr<MainWindow> makeWindow(bool show = true);
    // Starts the current code and waits for MainWindow::runFinished; false on a timeout.
    static bool runAndWait(MainWindow &window, int timeoutMs = kRunTimeoutMs);

    QString root() const { return m_progress->root(); }
    ProgressStore &progress() { return *m_progress; }
    // Writes `bytes` to traces/NAME under root() (a trace file for the window to open); its path.
    QString write(const QString &name, const std::string &bytes) const;

private:
    QTemporaryDir m_dir;
    std::unique_ptr<ProgressStore> m_progress;
};

} // namespace rankstep::gui::testing
