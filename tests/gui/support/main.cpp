// SPDX-License-Identifier: MIT
// GUI tests run offscreen unless QT_QPA_PLATFORM names another platform, inside one QApplication,
// on a 1920x1080 screen (screen.json): the window fits its screen, and the offscreen platform's
// own 800x600 would shrink every window the tests open. A test wanting another size resizes.
#include <gtest/gtest.h>

#include <QApplication>

#include <cstdlib>
#include <string_view>

int main(int argc, char **argv)
{
    const char *platform = std::getenv("QT_QPA_PLATFORM");
    if (!platform || std::string_view(platform) == "offscreen")
        setenv("QT_QPA_PLATFORM", "offscreen:configfile=" RANKSTEP_TEST_SCREEN, 1);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rankstep-gui-tests"));
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
