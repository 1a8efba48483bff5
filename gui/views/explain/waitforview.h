// SPDX-License-Identifier: MIT
#pragma once

#include "describable.h"
#include "look.h"

#include "core/explain/hangexplain.h"
#include "core/trace.h"
#include "waitfortext.h"

#include <QWidget>

class QPushButton;

#include <memory>
#include <optional>
#include <vector>

namespace rankstep::gui {

class Appearance;
class RunSession;

// The hang of `trace` (explain::explainHang) with the calls its ranks wait in said in the language
// of the user interface ("receive von Rank 2"), as the hang's picture and the error dialog's
// details quote them; nullopt for a trace without a diagnosis.
std::optional<explain::Hang> hangInWords(const core::Trace &trace);

// The wait-for picture of a hang, under a title that says what happened (an error, a call one rank
// never made, a cycle of waits): one rounded node per rank, drawn and worded after where it stands
// (explain::Standing): stopped by an error (thick outline, a cross), waiting (its rank color, an
// hourglass), finished (dashed gray, a tick), never started (dotted and hollow, an empty ring).
// An arrow goes from each waiting rank to every rank it really waits on (thin and dashed for a
// receive from any rank). A run without a diagnosis shows "No hang in this run." Hovering a node
// tells the rank's whole story; clicking it goes to its line.
// Follows the session: shows its trace when that hung, and selects a clicked rank. The picture is
// the moment the run stopped: while the cursor stands before it, the picture is faded under a
// notice that says both times, with a button to the end, so it never passes for the moment the
// other views show.
class WaitForView
    : public QWidget
    , public Describable
{
    Q_OBJECT

public:
    WaitForView(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    // The session's trace when that hung, else null.
    const std::shared_ptr<const core::Trace> &trace() const { return m_trace; }
    bool hasDiagnosis() const;
    // What happened, as drawn (nullopt without a diagnosis).
    const std::optional<explain::Hang> &hang() const { return m_hang; }

    // Who waits on whom, as drawn (empty without a diagnosis).
    const std::vector<WaitArrow> &arrows() const { return m_arrows; }
    // Node rects by position in the diagnosis, in widget pixels, for the current size.
    std::vector<QRectF> nodeRects() const;
    QRectF nodeRectOf(int rank) const;  // empty when the rank has no node
    int rankAt(QPointF position) const; // -1 away from any node
    QString captionOf(int rank) const;  // the text under "rank r"
    QString toolTipAt(QPointF position) const;
    QString title() const;  // what happened ("" without a diagnosis)
    QString detail() const; // the line under the title: who waits for whom, who never started
    QRectF titleRect() const;
    QRectF detailRect() const; // empty when there is no detail
    QFont titleFont() const;   // bold, up to 125%, smaller where the pane is narrow
    // The cursor stands before the end of a run that hung: the picture is not of that moment.
    bool beforeTheHang() const;
    // What the faded picture's notice says ("" at the end), and where it stands.
    QString noticeText() const;
    QRectF noticeRect() const; // empty at the end
    // The notice's button to the end of the run, where the ranks hung.
    QPushButton *toTheHangButton() const { return m_toTheHang; }

    // The end of the run when the cursor stands there; nullopt before it (the picture is faded:
    // it shows no moment of the cursor's).
    std::optional<core::SimTime> shownTime() const override;

    QString describedName() const override { return QStringLiteral("hang"); }
    QStringList elidedTexts() const override { return m_elided.texts(); }

    QSize sizeHint() const override { return {500, 400}; }
    QSize minimumSizeHint() const override { return {260, 200}; }

Q_SIGNALS:
    // A click on a rank's node: the line it waits on (1-based; 0 when it finished).
    void rankActivated(int rank, int line);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void onTraceChanged();
    void placeButton();
    QString timeText(core::SimTime time) const;
    const explain::RankStanding *standingOf(int rank) const;
    double legendHeight() const;
    void paintHeader(QPainter &painter);
    void paintNotice(QPainter &painter);
    void paintArrows(QPainter &painter, const std::vector<QRectF> &nodes) const;
    void paintNode(QPainter &painter, const QRectF &rect, const explain::RankStanding &rank);
    void paintCaption(QPainter &painter, const QRectF &body, const explain::RankStanding &rank);
    void paintLegend(QPainter &painter);

    RunSession &m_session;
    Appearance &m_appearance;
    Look m_look;
    std::shared_ptr<const core::Trace> m_trace;
    std::optional<explain::Hang> m_hang;
    std::vector<WaitArrow> m_arrows;
    ElidedTexts m_elided; // what the last paint cut
    QPushButton *m_toTheHang = nullptr;
};

} // namespace rankstep::gui
