// SPDX-License-Identifier: MIT
// GUI tests run offscreen unless QT_QPA_PLATFORM is set, inside one QApplication.
#include <gtest/gtest.h>

#include <QApplication>

#include <cstdlib>

int main(int argc, char **argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rankstep-gui-tests"));
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
