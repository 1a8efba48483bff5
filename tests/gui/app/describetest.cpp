// SPDX-License-Identifier: MIT
// One moment on screen: `rankstep --describe` says what the window shows, and at every lesson's
// solution, at three window sizes and in every step mode, every view that shows a moment of the
// run shows the cursor's time (stepping by snapshot or operation, the state panels and the step
// bar said one time and the timeline's and memory chart's cursors stood at another).
#include "guitestsupport.h"
#include "layoutwaits.h"

#include "appearance.h"
#include "describable.h"
#include "elisions.h"
#include "presentation.h"
#include "stepcontroller.h"
#include "windowdescription.h"

#include <QJsonArray>
#include <QLabel>
#include <QVBoxLayout>

#include <gtest/gtest.h>

#include <string>

namespace rankstep::gui::testing {
namespace {

using Mode = StepController::StepMode;

struct WindowSize {
    int width, height;
    bool presenting;
};

std::string where(const QString &lesson, const WindowSize &size, Mode mode, std::size_t index)
{
    return QStringLiteral("%1 at %2x%3%4, mode %5, step %6")
        .arg(lesson)
        .arg(size.width)
        .arg(size.height)
        .arg(size.presenting ? QStringLiteral(" presenting") : QString())
        .arg(int(mode))
        .arg(index)
        .toStdString();
}

class DescribeWindow : public WindowTest
{};

TEST_F(DescribeWindow, EveryViewShowsTheCursorsTimeForEverySolutionSizeAndMode)
{
    const WindowSize sizes[] = {{1280, 800, false}, {1500, 940, false}, {1920, 1080, true}};
    const Mode modes[] = {Mode::Time, Mode::Operation, Mode::Snapshot, Mode::Slice};
    int lessonsSeen = 0;
    for (const lessons::Lesson &lesson : builtinLessons()) {
        if (lesson.isTorch() || lesson.solution.empty())
            continue;
        const QString id = QString::fromStdString(lesson.id);
        auto window = makeWindow();
        ASSERT_TRUE(window->openLesson(id)) << lesson.id;
        window->showScriptCode(QString::fromStdString(lesson.solution));
        ASSERT_TRUE(runAndWait(*window)) << lesson.id;
        StepController &stepper = *window->parts().stepper;
        ASSERT_TRUE(stepper.trace()) << lesson.id;
        ++lessonsSeen;
        for (const WindowSize &size : sizes) {
            window->parts().presentation->setActive(size.presenting);
            window->parts().appearance->setZoom(size.presenting ? 1.5 : 1.0);
            window->resize(size.width, size.height);
            ASSERT_TRUE(settleLayouts(*window));
            for (const Mode mode : modes) {
                stepper.setStepMode(mode);
                const std::size_t count = stepper.stepCount();
                for (const std::size_t index : {std::size_t(1), count / 2, count}) {
                    if (index == 0 || index > count)
                        continue;
                    stepper.toStepIndex(index);
                    const QJsonObject described = describeWindow(*window, stepper);
                    const QJsonObject cursor = described[QStringLiteral("cursor")].toObject();
                    ASSERT_EQ(cursor[QStringLiteral("index")].toInt(), int(index))
                        << where(id, size, mode, index);
                    const double time = cursor[QStringLiteral("time")].toDouble(-1.0);
                    ASSERT_GE(time, 0.0) << where(id, size, mode, index);
                    int timed = 0;
                    for (const QJsonValue &value : described[QStringLiteral("views")].toArray()) {
                        const QJsonObject view = value.toObject();
                        if (!view[QStringLiteral("visible")].toBool() ||
                            view[QStringLiteral("time")].isNull())
                            continue;
                        ++timed;
                        EXPECT_EQ(view[QStringLiteral("time")].toDouble(), time)
                            << view[QStringLiteral("name")].toString().toStdString() << " in "
                            << where(id, size, mode, index);
                    }
                    // The timeline and the step bar at least: the check is not empty.
                    EXPECT_GE(timed, 2) << where(id, size, mode, index);
                }
            }
        }
    }
    EXPECT_GE(lessonsSeen, 20);
}

// A hang whose last turn is rank 1's: rank 0 runs three forwards in its one turn and waits for
// rank 1, which waits for rank 0. Every operation step is a moment before the end, which every
// view shows; the step bar once said "operation 1 of 3 · t = 12 · end of the run" over state
// panels at t = 0, and its steps went no further.
constexpr char kThreeForwardsThenAHang[] = R"(from lib import Model


async def pass_along(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    weights[0], opt_states[0] = model.load_weights(0)
    if model.rank == 0:
        activations[0] = model.get_activation(range(model.BATCHES))
        for _ in range(3):
            activations[1] = model.forward(0, activations[0], weights[0])
            del activations[1]
        grad_activations[1] = await model.receive(1)
    else:
        activations[1] = await model.receive(0)
    return model
)";

TEST_F(DescribeWindow, EveryViewShowsTheOperationStepsMomentInAHungRun)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("pass_along")));
    window->showScriptCode(QString::fromLatin1(kThreeForwardsThenAHang));
    ASSERT_TRUE(runAndWait(*window));
    StepController &stepper = *window->parts().stepper;
    ASSERT_TRUE(stepper.trace());
    ASSERT_EQ(stepper.trace()->status, core::RunStatus::Deadlock);
    window->resize(1500, 940);
    ASSERT_TRUE(settleLayouts(*window));
    stepper.setStepMode(Mode::Operation);
    ASSERT_EQ(stepper.stepCount(), 3U);
    stepper.home();
    const auto &events = stepper.trace()->events; // rank 0's three forwards
    ASSERT_EQ(events.size(), 3U);
    for (std::size_t index = 1; index <= 3; ++index) {
        stepper.next();
        const QJsonObject described = describeWindow(*window, stepper);
        const QJsonObject cursor = described[QStringLiteral("cursor")].toObject();
        ASSERT_EQ(cursor[QStringLiteral("index")].toInt(), int(index)) << "operation " << index;
        const double time = cursor[QStringLiteral("time")].toDouble(-1.0);
        EXPECT_EQ(time, events[index - 1].start.toDouble()) << "operation " << index;
        int timed = 0;
        for (const QJsonValue &value : described[QStringLiteral("views")].toArray()) {
            const QJsonObject view = value.toObject();
            if (!view[QStringLiteral("visible")].toBool() || view[QStringLiteral("time")].isNull())
                continue;
            ++timed;
            EXPECT_EQ(view[QStringLiteral("time")].toDouble(), time)
                << view[QStringLiteral("name")].toString().toStdString() << " at operation "
                << index;
        }
        EXPECT_GE(timed, 2) << "operation " << index;
    }
}

// A view that paints its own text and says what it cut.
class PaintedLabel
    : public QWidget
    , public Describable
{
public:
    QString describedName() const override { return QStringLiteral("painted"); }
    std::optional<core::SimTime> shownTime() const override { return core::SimTime::steps(3); }
    QStringList elidedTexts() const override { return {QStringLiteral("a label it dropped")}; }
};

TEST(DescribeElisions, ALabelCutOnPurposeIsListedAndAWideOneIsNot)
{
    QWidget root;
    auto *layout = new QVBoxLayout(&root);
    auto *narrow = new QLabel(QStringLiteral("Broadcast the initial weights to every rank"));
    narrow->setFixedWidth(60);
    auto *wide = new QLabel(QStringLiteral("fits"));
    auto *painted = new PaintedLabel;
    painted->setFixedSize(40, 20);
    layout->addWidget(narrow);
    layout->addWidget(wide);
    layout->addWidget(painted);
    root.resize(400, 200);
    root.show();
    ASSERT_TRUE(settleLayouts(root));
    const QStringList cut = elidedTexts(root);
    EXPECT_TRUE(cut.contains(narrow->text()));
    EXPECT_FALSE(cut.contains(wide->text()));
    EXPECT_TRUE(cut.contains(QStringLiteral("a label it dropped")));
    narrow->setFixedWidth(380);
    EXPECT_FALSE(elidedTexts(root).contains(narrow->text()));
}

} // namespace
} // namespace rankstep::gui::testing
