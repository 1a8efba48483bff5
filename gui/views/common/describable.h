// SPDX-License-Identifier: MIT
// What a view says about itself for `rankstep --describe FILE.json` (docs/app.md): the simulated
// time it shows and the texts it had to cut. Widgets Qt lays out (tab bars, labels, item views,
// headers) are checked by the describer itself; a view that paints its own text reports what it
// could not fit, since only it knows.
#pragma once

#include "core/simtime.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace rankstep::gui {

// The texts a painted view left out or shortened at its last paint. The view clears it when a
// paint begins and notes each full text it elides, drops (a label that did not fit) or draws
// outside its own rectangle.
class ElidedTexts
{
public:
    void clear() { m_texts.clear(); }
    void note(const QString &fullText)
    {
        if (!m_texts.contains(fullText))
            m_texts.append(fullText);
    }
    const QStringList &texts() const { return m_texts; }

private:
    QStringList m_texts;
};

// A widget that draws a short form of its text on purpose (the step bar's snapshot list shows
// "line 64" for "line 64: draw(...)", whose whole text is in its list and tooltip) keeps the text
// it draws in this property: the check for cut texts measures that instead.
inline constexpr char kShownTextProperty[] = "shownText";

// Implemented by a view widget (next to QWidget) that shows a moment of the run or paints text.
class Describable
{
public:
    virtual ~Describable() = default;
    // The name `--describe` lists the view under ("timeline", "memory", "state", ...).
    virtual QString describedName() const = 0;
    // The simulated time the view draws its cursor at or shows its state for; nullopt for a view
    // that shows no moment (or shows none now).
    virtual std::optional<core::SimTime> shownTime() const { return std::nullopt; }
    // What it cut at its last paint; texts of child widgets Qt lays out are found without it.
    virtual QStringList elidedTexts() const { return {}; }
};

} // namespace rankstep::gui
