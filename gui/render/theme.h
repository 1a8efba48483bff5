// SPDX-License-Identifier: MIT
#pragma once

#include <QPalette>
#include <QString>

#include <optional>

namespace rankstep::gui {

// The window's colors. System follows the desktop: its palette, light or dark, and its changes.
enum class Theme { System, Light, Dark, HighContrast };

// "system", "light", "dark", "high-contrast": for settings and --theme.
QString themeName(Theme theme);
std::optional<Theme> themeFromName(const QString &name);
// What the View > Theme menu says.
QString themeTitle(Theme theme);

// The palette of an explicit theme (every role set). For System, an empty palette: set as the
// application palette it leaves every role to the platform, which keeps updating them.
QPalette themePalette(Theme theme);

// Whether a palette draws light text on a dark window: Qt 6.4 has no color-scheme hint, so the
// window color decides.
bool isDark(const QPalette &palette);

} // namespace rankstep::gui
