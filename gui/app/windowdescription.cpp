// SPDX-License-Identifier: MIT
#include "windowdescription.h"

#include "describable.h"
#include "elisions.h"
#include "stepcontroller.h"

#include <QJsonArray>
#include <QScreen>
#include <QWidget>

namespace rankstep::gui {
namespace {

QString modeName(StepController::StepMode mode)
{
    switch (mode) {
        case StepController::StepMode::Operation:
            return QStringLiteral("operation");
        case StepController::StepMode::Snapshot:
            return QStringLiteral("snapshot");
        case StepController::StepMode::Slice:
            return QStringLiteral("turn");
        case StepController::StepMode::Time:
            break;
    }
    return QStringLiteral("time");
}

QJsonValue timeValue(const std::optional<core::SimTime> &time)
{
    return time ? QJsonValue(time->toDouble()) : QJsonValue();
}

QJsonObject sizeObject(QSize size)
{
    return QJsonObject{{QStringLiteral("width"), size.width()},
                       {QStringLiteral("height"), size.height()}};
}

// On screen: shown, and some of it inside every parent up to the window (not scrolled or laid
// out of it). Not visibleRegion(): a view its own children cover wholly has none.
bool onScreen(const QWidget &widget)
{
    if (!widget.isVisible())
        return false;
    QRect area = widget.rect();
    const QWidget *at = &widget;
    while (!at->isWindow() && at->parentWidget()) {
        area = at->parentWidget()->rect() & area.translated(at->pos());
        at = at->parentWidget();
    }
    return !area.isEmpty();
}

// Every Describable widget under `widget`, in the order of the tree.
void collectViews(QWidget &widget, QJsonArray &views)
{
    if (const auto *view = dynamic_cast<const Describable *>(&widget)) {
        const bool visible = onScreen(widget);
        views.append(QJsonObject{
            {QStringLiteral("name"), view->describedName()},
            {QStringLiteral("visible"), visible},
            {QStringLiteral("time"), visible ? timeValue(view->shownTime()) : QJsonValue()}});
    }
    for (QObject *child : widget.children())
        if (auto *childWidget = qobject_cast<QWidget *>(child);
            childWidget && !childWidget->isWindow())
            collectViews(*childWidget, views);
}

} // namespace

QJsonObject describeWindow(QWidget &window, StepController &stepper)
{
    QJsonObject cursor;
    const bool stepping = stepper.cursor().has_value();
    cursor.insert(QStringLiteral("mode"), modeName(stepper.stepMode()));
    cursor.insert(QStringLiteral("index"), stepping ? qint64(stepper.stepIndex()) : QJsonValue());
    cursor.insert(QStringLiteral("count"), stepping ? qint64(stepper.stepCount()) : QJsonValue());
    cursor.insert(QStringLiteral("time"),
                  stepping ? QJsonValue(stepper.cursorTime().toDouble()) : QJsonValue());
    const auto rank = stepper.movedRank();
    cursor.insert(QStringLiteral("rank"), rank ? QJsonValue(*rank) : QJsonValue());

    QJsonArray views;
    collectViews(window, views);
    QJsonArray elided;
    for (const QString &text : elidedTexts(window))
        elided.append(text);
    const QScreen *screen = window.screen();
    return QJsonObject{{QStringLiteral("window"), sizeObject(window.size())},
                       {QStringLiteral("screen"),
                        sizeObject(screen ? screen->availableGeometry().size() : QSize())},
                       {QStringLiteral("cursor"), cursor},
                       {QStringLiteral("views"), views},
                       {QStringLiteral("elided"), elided}};
}

} // namespace rankstep::gui
