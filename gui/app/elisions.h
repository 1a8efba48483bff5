// SPDX-License-Identifier: MIT
// The texts a window cuts, for `rankstep --describe` and for tests that hold a view to showing
// every word (docs/app.md).
#pragma once

#include <QStringList>

class QWidget;

namespace rankstep::gui {

// The full text of everything under root (root included) that shows on screen cut, elided or
// scrolled out of its place, each once, in the order the widgets are found:
// - a tab whose text is wider than its tab, or that is scrolled partly or wholly out of its bar;
// - a label without word wrap whose text is wider than the label, or whose text holds "…" (its
//   tooltip is reported when it carries the whole text);
// - an item view's cell whose text needs more room than its cell (wrapped, where the view wraps),
//   or whose column is scrolled partly or wholly out of the viewport; a row below or above the
//   viewport counts only when no scroll bar says there are more (a long list scrolls as lists do,
//   a column out of sight hides a whole kind of the table);
// - a header section whose text is wider than the section or that is scrolled out of the header;
// - a combo box whose current text (or the short form it draws, describable.h) is wider than its
//   field;
// - a button narrower than its size hint;
// - whatever each Describable view (gui/views/common/describable.h) says it cut at its last
//   paint. Such a view answers for itself: it is not checked as the widget it also is.
// Only widgets that are shown (hidden tabs' pages, closed popups and widgets clipped away by
// their parents are not) count.
QStringList elidedTexts(const QWidget &root);

} // namespace rankstep::gui
