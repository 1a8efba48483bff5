// SPDX-License-Identifier: MIT
#pragma once

#include "look.h"

#include "core/trace.h"
#include "waitfortext.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

namespace rankstep::gui {

class Appearance;
class RunSession;

// The wait-for picture of a hang: one rounded node per rank in its rank color, saying what it is
// stuck in and on which line, finished ranks gray, and an arrow from each waiting rank to every
// rank it waits on (thin and dashed for a receive from any rank). A run without a diagnosis
// shows "No hang in this run." Hovering a node tells the rank's whole wait; clicking it goes
// to the line the rank waits on.
// Follows the session: shows its trace when that hung, and selects a clicked rank.
class WaitForView : public QWidget
{
    Q_OBJECT

public:
    WaitForView(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    // The session's trace when that hung, else null.
    const std::shared_ptr<const core::Trace> &trace() const { return m_trace; }
    bool hasDiagnosis() const;

    // Who waits on whom, as drawn (empty without a diagnosis).
    const std::vector<WaitArrow> &arrows() const { return m_arrows; }
    // Node rects by position in the diagnosis, in widget pixels, for the current size.
    std::vector<QRectF> nodeRects() const;
    QRectF nodeRectOf(int rank) const;  // empty when the rank has no node
    int rankAt(QPointF position) const; // -1 away from any node
    QString captionOf(int rank) const;  // the text under "rank r"
    QString toolTipAt(QPointF position) const;
    QRectF titleRect() const;
    QFont titleFont() const; // bold, up to 125%, smaller where the pane is narrow

    QSize sizeHint() const override { return {500, 400}; }
    QSize minimumSizeHint() const override { return {260, 200}; }

Q_SIGNALS:
    // A click on a rank's node: the line it waits on (1-based; 0 when it finished).
    void rankActivated(int rank, int line);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    void onTraceChanged();
    const core::RankWait *waitOf(int rank) const;
    void paintArrows(QPainter &painter, const std::vector<QRectF> &nodes) const;
    void paintNode(QPainter &painter, const QRectF &rect, const core::RankWait &wait) const;
    void paintCaption(QPainter &painter, const QRectF &body, const core::RankWait &wait) const;
    void paintLegend(QPainter &painter) const;

    RunSession &m_session;
    Appearance &m_appearance;
    Look m_look;
    std::shared_ptr<const core::Trace> m_trace;
    std::vector<WaitArrow> m_arrows;
};

} // namespace rankstep::gui
