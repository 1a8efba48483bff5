// SPDX-License-Identifier: MIT
#include "costmodelactions.h"

#include "core/io/costfile.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

namespace rankstep::gui {

CostModelActions::CostModelActions(QMenu *run, QObject *parent)
    : QObject(parent), m_menu(run->addMenu(tr("Cost &Model")))
{
    m_menu->setObjectName(QStringLiteral("costMenu"));
    auto *group = new QActionGroup(this);
    for (const std::string &name : io::costPresetNames()) {
        QAction *action = m_menu->addAction(QString::fromStdString(name));
        action->setObjectName(QStringLiteral("cost:") + QString::fromStdString(name));
        action->setCheckable(true);
        action->setChecked(name == "notebook");
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, name] {
            m_preset = QString::fromStdString(name);
            Q_EMIT message(
                name == "notebook"
                    ? tr("The notebook's costs: runs are graded against the lesson's targets.")
                    : tr("Cost model %1: runs are checked, not graded; the results give "
                         "seconds, the views milliseconds (F5 runs it).")
                          .arg(m_preset));
        });
    }
}

bool CostModelActions::choose(const QString &name, bool again)
{
    for (QAction *action : m_menu->actions())
        if (action->objectName() == QStringLiteral("cost:") + name) {
            if (again || !action->isChecked())
                action->trigger();
            return true;
        }
    return false;
}

} // namespace rankstep::gui
