// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

namespace rankstep::gui {

class CodeEditor;
class RunSession;
class WaitForView;

// Each rank's line in the editor while stepping: a chip in the margin where every rank stands at
// the cursor; at the end of a hung run, the call each rank waits in (a click on the "Why it
// hung" picture puts its rank's chip on the line it names).
class RankLineMarkers : public QObject
{
    Q_OBJECT
public:
    RankLineMarkers(RunSession &session, CodeEditor &editor, WaitForView &waitFor,
                    QObject *parent = nullptr);

Q_SIGNALS:
    // The cursor stands inside the run: the window shows what every rank holds.
    void stepping();

private:
    void onCursorChanged();

    RunSession &m_session;
    CodeEditor &m_editor;
};

} // namespace rankstep::gui
