// SPDX-License-Identifier: MIT
#include "theme.h"

#include <QCoreApplication>

#include <array>
#include <utility>

namespace rankstep::gui {
namespace {

constexpr std::array kNames = {std::pair(Theme::System, "system"), std::pair(Theme::Light, "light"),
                               std::pair(Theme::Dark, "dark"),
                               std::pair(Theme::HighContrast, "high-contrast")};

struct Colors {
    QColor window, text, base, alternate, button, highlight, highlightedText, mid, placeholder,
        link, disabled;
};

QPalette paletteOf(const Colors &c)
{
    QPalette p;
    for (auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const bool off = group == QPalette::Disabled;
        p.setColor(group, QPalette::Window, c.window);
        p.setColor(group, QPalette::WindowText, off ? c.disabled : c.text);
        p.setColor(group, QPalette::Base, c.base);
        p.setColor(group, QPalette::AlternateBase, c.alternate);
        p.setColor(group, QPalette::ToolTipBase, c.base);
        p.setColor(group, QPalette::ToolTipText, c.text);
        p.setColor(group, QPalette::PlaceholderText, c.placeholder);
        p.setColor(group, QPalette::Text, off ? c.disabled : c.text);
        p.setColor(group, QPalette::Button, c.button);
        p.setColor(group, QPalette::ButtonText, off ? c.disabled : c.text);
        p.setColor(group, QPalette::BrightText, c.highlight);
        p.setColor(group, QPalette::Highlight, off ? c.mid : c.highlight);
        p.setColor(group, QPalette::HighlightedText, c.highlightedText);
        p.setColor(group, QPalette::Link, c.link);
        p.setColor(group, QPalette::LinkVisited, c.link);
        p.setColor(group, QPalette::Light, c.button.lighter(150));
        p.setColor(group, QPalette::Midlight, c.button.lighter(125));
        p.setColor(group, QPalette::Mid, c.mid);
        p.setColor(group, QPalette::Dark, c.mid.darker(130));
        p.setColor(group, QPalette::Shadow, Qt::black);
    }
    return p;
}

} // namespace

QString themeName(Theme theme)
{
    for (const auto &[value, name] : kNames)
        if (value == theme)
            return QString::fromLatin1(name);
    return QStringLiteral("system");
}

std::optional<Theme> themeFromName(const QString &name)
{
    for (const auto &[value, known] : kNames)
        if (name.compare(QLatin1String(known), Qt::CaseInsensitive) == 0)
            return value;
    return std::nullopt;
}

QString themeTitle(Theme theme)
{
    switch (theme) {
        case Theme::System:
            return QCoreApplication::translate("Theme", "System");
        case Theme::Light:
            return QCoreApplication::translate("Theme", "Light");
        case Theme::Dark:
            return QCoreApplication::translate("Theme", "Dark");
        case Theme::HighContrast:
            return QCoreApplication::translate("Theme", "High contrast");
    }
    return {};
}

QPalette themePalette(Theme theme)
{
    switch (theme) {
        case Theme::System:
            break;
        case Theme::Light:
            return paletteOf({QColor(0xef, 0xef, 0xef), QColor(0x1e, 0x1e, 0x1e), Qt::white,
                              QColor(0xf5, 0xf5, 0xf5), QColor(0xe8, 0xe8, 0xe8),
                              QColor(0x30, 0x8c, 0xc6), Qt::white, QColor(0xa0, 0xa0, 0xa0),
                              QColor(0x80, 0x80, 0x80), QColor(0x00, 0x55, 0xb0),
                              QColor(0xa0, 0xa0, 0xa0)});
        case Theme::Dark:
            return paletteOf({QColor(0x2d, 0x2d, 0x30), QColor(0xe6, 0xe6, 0xe6),
                              QColor(0x1e, 0x1e, 0x1e), QColor(0x33, 0x33, 0x37),
                              QColor(0x3c, 0x3c, 0x40), QColor(0x3d, 0x8e, 0xd8), Qt::white,
                              QColor(0x70, 0x70, 0x74), QColor(0x9a, 0x9a, 0x9a),
                              QColor(0x6c, 0xb4, 0xff), QColor(0x80, 0x80, 0x80)});
        case Theme::HighContrast:
            // Pure white on black, yellow selection: the most a projector in a lit room can keep.
            return paletteOf({Qt::black, Qt::white, Qt::black, QColor(0x1a, 0x1a, 0x1a),
                              QColor(0x10, 0x10, 0x10), QColor(0xff, 0xeb, 0x3b), Qt::black,
                              QColor(0xd0, 0xd0, 0xd0), QColor(0xd0, 0xd0, 0xd0),
                              QColor(0x7f, 0xdb, 0xff), QColor(0xa0, 0xa0, 0xa0)});
    }
    return QPalette();
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

} // namespace rankstep::gui
