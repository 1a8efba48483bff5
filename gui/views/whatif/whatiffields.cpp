// SPDX-License-Identifier: MIT
#include "whatiffields.h"

#include "core/io/costfile.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSet>

#include <algorithm>
#include <limits>

namespace rankstep::gui {
namespace {

// How many different values a list field names ("2,4,4,8": 3); 1 when empty (run's default).
int countOf(const QString &list)
{
    QSet<QString> values;
    for (const QString &word : list.split(QLatin1Char(','), Qt::SkipEmptyParts))
        values.insert(word.trimmed());
    return std::max(1, int(values.size()));
}

bool isRealScale(const QString &preset)
{
    const auto recipe = io::loadCostRecipe(preset.toStdString());
    return recipe && !recipe->fixed;
}

} // namespace

WhatIfFields::WhatIfFields(QWidget *parent)
    : QWidget(parent)
    , m_form(new QGridLayout(this))
    , m_cost(new QComboBox)
    , m_ranks(new QLineEdit)
    , m_layers(new QLineEdit)
    , m_batchesKind(new QComboBox)
    , m_batches(new QLineEdit)
    , m_bandwidth(new QLineEdit)
    , m_tensor(new QLineEdit)
    , m_pipeline(new QLineEdit)
    , m_compare(new QCheckBox(tr("Compare the pipeline schedules: 1F1B, interleaved and "
                                 "zero-bubble (their lessons' solutions) beside your code")))
{
    setObjectName(QStringLiteral("whatIfFields"));
    for (const std::string &name : io::costPresetNames())
        m_cost->addItem(QString::fromStdString(name));
    m_cost->setCurrentText(QStringLiteral("notebook"));
    m_cost->setObjectName(QStringLiteral("whatIfCost"));
    // Lists as the command line takes them: "2,4,8".
    auto *integers = new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral("^\\s*\\d{1,5}(\\s*,\\s*\\d{1,5})*\\s*,?\\s*$")), this);
    auto *numbers = new QRegularExpressionValidator(
        QRegularExpression(
            QStringLiteral("^\\s*\\d{1,7}(\\.\\d*)?(\\s*,\\s*\\d{1,7}(\\.\\d*)?)*\\s*,?\\s*$")),
        this);
    const struct {
        QLineEdit *edit;
        const char *name;
        QValidator *validator;
    } fields[] = {{m_ranks, "whatIfRanks", integers},     {m_layers, "whatIfLayers", integers},
                  {m_batches, "whatIfBatches", integers}, {m_bandwidth, "whatIfBandwidth", numbers},
                  {m_tensor, "whatIfTensor", integers},   {m_pipeline, "whatIfPipeline", integers}};
    for (const auto &field : fields) {
        field.edit->setObjectName(QString::fromLatin1(field.name));
        field.edit->setValidator(field.validator);
        connect(field.edit, &QLineEdit::returnPressed, this, &WhatIfFields::runRequested);
    }
    m_ranks->setToolTip(tr("Numbers of ranks, separated by commas: 2,4,8"));
    m_batchesKind->addItems({tr("Batches"), tr("Batches per rank")});
    m_batchesKind->setObjectName(QStringLiteral("whatIfBatchesKind"));
    m_batchesKind->setToolTip(
        tr("Batches per rank: each setting runs ranks x K batches, as data parallelism needs."));
    m_bandwidth->setPlaceholderText(tr("the cost model's own"));
    m_bandwidth->setToolTip(
        tr("Gigabytes a second on every link, inside and between nodes: 25,50,450. Only a "
           "real-scale cost model moves data by its bytes."));
    connect(m_cost, &QComboBox::currentTextChanged, this, &WhatIfFields::updateBandwidthField);
    // Two fields a line where the tab is wide, so that the chart keeps the height (arrange).
    const auto label = [](const QString &text, QWidget *buddy) {
        auto *name = new QLabel(text);
        name->setBuddy(buddy);
        return name;
    };
    m_pairs = {{label(tr("&Cost model"), m_cost), m_cost},
               {label(tr("Band&width, GB/s"), m_bandwidth), m_bandwidth},
               {label(tr("&Ranks"), m_ranks), m_ranks},
               {label(tr("&Layers"), m_layers), m_layers},
               {m_batchesKind, m_batches},
               {label(tr("Te&nsor"), m_tensor), m_tensor},
               {label(tr("P&ipeline"), m_pipeline), m_pipeline}};
    arrange(true);
    m_compare->setObjectName(QStringLiteral("whatIfCompare"));
    m_compare->setToolTip(
        tr("Runs the other pipeline lessons' solutions at every setting too, and draws each "
           "schedule's bubble over micro-batches beside its paper's formula (the Bubble tab)."));
    m_form->addWidget(m_compare, 100, 0, 1, 4); // below the pairs, however arranged
    m_form->setContentsMargins(0, 0, 0, 0);
}

void WhatIfFields::fillFrom(const core::RunConfig &config)
{
    m_ranks->setText(QString::number(config.ranks));
    m_layers->setText(QString::number(config.layers));
    m_batchesKind->setCurrentIndex(0);
    m_batches->setText(QString::number(config.batches));
    m_bandwidth->clear();
    // A laid-out lesson's layout; empty (1) for the others.
    m_tensor->setText(config.layout.tensor > 1 ? QString::number(config.layout.tensor) : QString());
    m_pipeline->setText(config.layout.pipeline > 1 ? QString::number(config.layout.pipeline)
                                                   : QString());
    updateBandwidthField();
}

bool WhatIfFields::setField(const QString &key, const QString &value)
{
    if (key == QStringLiteral("ranks")) {
        m_ranks->setText(value);
    } else if (key == QStringLiteral("layers")) {
        m_layers->setText(value);
    } else if (key == QStringLiteral("batches") || key == QStringLiteral("batches-per-rank")) {
        m_batchesKind->setCurrentIndex(key == QStringLiteral("batches") ? 0 : 1);
        m_batches->setText(value);
    } else if (key == QStringLiteral("bandwidth")) {
        m_bandwidth->setText(value);
    } else if (key == QStringLiteral("tensor")) {
        m_tensor->setText(value);
    } else if (key == QStringLiteral("pipeline")) {
        m_pipeline->setText(value);
    } else if (key == QStringLiteral("cost") && m_cost->findText(value) >= 0) {
        m_cost->setCurrentText(value);
    } else {
        return false;
    }
    return true;
}

void WhatIfFields::fill(SweepSpec &spec) const
{
    spec.ranks = m_ranks->text();
    spec.layers = m_layers->text();
    spec.batches = m_batches->text();
    spec.batchesPerRank = m_batchesKind->currentIndex() == 1;
    spec.bandwidth = m_bandwidth->isEnabled() ? m_bandwidth->text() : QString();
    spec.tensor = m_tensor->text();
    spec.pipeline = m_pipeline->text();
    spec.cost =
        m_cost->currentText() == QStringLiteral("notebook") ? QString() : m_cost->currentText();
}

int WhatIfFields::expectedSettings() const
{
    const bool bandwidth = m_bandwidth->isEnabled() && !m_bandwidth->text().trimmed().isEmpty();
    // Long lists must not overflow: the sweep refuses such a grid with a sentence of its own.
    qint64 settings = 1;
    for (const int count :
         {countOf(m_ranks->text()), countOf(m_layers->text()), countOf(m_batches->text()),
          bandwidth ? countOf(m_bandwidth->text()) : 1, countOf(m_tensor->text()),
          countOf(m_pipeline->text())})
        settings = std::min<qint64>(settings * count, std::numeric_limits<int>::max());
    return int(settings);
}

QString WhatIfFields::costModel() const
{
    return m_cost->currentText();
}

void WhatIfFields::arrange(bool twoColumns)
{
    if (m_twoColumns == twoColumns && m_form->count() > 0)
        return;
    m_twoColumns = twoColumns;
    for (const auto &[name, field] : m_pairs) {
        m_form->removeWidget(name);
        m_form->removeWidget(field);
    }
    const int perLine = twoColumns ? 2 : 1;
    int at = 0;
    for (const auto &[name, field] : m_pairs) {
        m_form->addWidget(name, at / perLine, 2 * (at % perLine));
        m_form->addWidget(field, at / perLine, 2 * (at % perLine) + 1);
        ++at;
    }
    for (int column = 0; column < 4; ++column)
        m_form->setColumnStretch(column, column % 2 == 1 && (twoColumns || column == 1) ? 1 : 0);
}

void WhatIfFields::focusRanks()
{
    m_ranks->setFocus();
    m_ranks->selectAll();
}

void WhatIfFields::updateBandwidthField()
{
    const bool real = isRealScale(m_cost->currentText());
    m_bandwidth->setEnabled(real);
    m_bandwidth->setPlaceholderText(real ? tr("the cost model's own")
                                         : tr("needs a real-scale cost model"));
}

} // namespace rankstep::gui
