// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

class QLabel;

namespace rankstep::gui {

// The application window. For now it only shows what Rankstep is.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

private:
    QLabel *m_placeholder = nullptr;
};

} // namespace rankstep::gui
