// SPDX-License-Identifier: MIT
// The What if tab's settings to sweep: a cost model, and lists of ranks, layers, batches (or
// batches a rank), bandwidth, tensor and pipeline degrees as the command line takes them ("2,4,8"),
// two pairs of a label and a field a line where the tab is wide; and, in a pipeline lesson, the
// choice to compare the schedules.
#pragma once

#include "core/lessons/lesson.h"
#include "sweepcontroller.h"

#include <QWidget>

#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLineEdit;

namespace rankstep::gui {

class WhatIfFields : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfFields(QWidget *parent = nullptr);

    // The lesson's own setting (none: the run's defaults), the cost model and bandwidth kept.
    void fillFrom(const core::RunConfig &config);
    // Sets a field of a scripted sweep ("ranks", "layers", "batches", "batches-per-rank",
    // "bandwidth", "tensor", "pipeline", "cost"); false for another key or an unknown preset.
    bool setField(const QString &key, const QString &value);
    // The lists and the cost model into what the sweep runs.
    void fill(SweepSpec &spec) const;
    // How many settings the lists name together (at most INT_MAX).
    int expectedSettings() const;
    QString costModel() const;
    // Two pairs a line, or one.
    void arrange(bool twoColumns);
    void focusRanks();
    // Below the fields, shown in a pipeline lesson only.
    QCheckBox *compare() const { return m_compare; }

Q_SIGNALS:
    void runRequested(); // Enter in a field

private:
    void updateBandwidthField();

    QGridLayout *m_form;
    std::vector<std::pair<QWidget *, QWidget *>> m_pairs; // a label (or choice), its field
    bool m_twoColumns = true;
    QComboBox *m_cost;
    QLineEdit *m_ranks;
    QLineEdit *m_layers;
    QComboBox *m_batchesKind;
    QLineEdit *m_batches;
    QLineEdit *m_bandwidth;
    QLineEdit *m_tensor;
    QLineEdit *m_pipeline;
    QCheckBox *m_compare;
};

} // namespace rankstep::gui
