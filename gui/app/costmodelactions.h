// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

class QMenu;

namespace rankstep::gui {

// Run > Cost Model (docs/cost-models.md): what if at real scale. Lessons are graded under the
// notebook's costs only; another preset checks the code and shows seconds and bytes.
class CostModelActions : public QObject
{
    Q_OBJECT
public:
    // Adds the Cost Model menu (object name "costMenu", each preset's action "cost:NAME") to run.
    CostModelActions(QMenu *run, QObject *parent = nullptr);

    // The chosen preset's name; "notebook" unless another was chosen.
    const QString &preset() const { return m_preset; }
    // Chooses the preset as its menu entry does (again: even when it is chosen, and the status
    // bar says so once more); false when there is none of that name.
    bool choose(const QString &name, bool again = false);

Q_SIGNALS:
    void message(const QString &text); // for the status bar

private:
    QMenu *m_menu;
    QString m_preset = QStringLiteral("notebook");
};

} // namespace rankstep::gui
