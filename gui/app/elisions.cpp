// SPDX-License-Identifier: MIT
#include "elisions.h"

#include "describable.h"

#include <QAbstractButton>
#include <QAbstractItemDelegate>
#include <QAbstractItemView>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QScrollBar>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QStyleOptionTab>
#include <QStyleOptionViewItem>
#include <QTabBar>
#include <QTableView>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QTreeView>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {
namespace {

const QChar kEllipsis(0x2026);

// What a text needs across, widest line first; mnemonics' ampersands take no room.
int textWidth(const QFontMetrics &metrics, const QString &text)
{
    return metrics.size(Qt::TextShowMnemonic, text).width();
}

// On screen: shown, with its parents, and not clipped away by them (scrolled out of a scroll
// area). Children covering it do not count: a view's viewport covers the view.
bool onScreen(const QWidget &widget)
{
    if (!widget.isVisible())
        return false;
    QRect shown = widget.rect();
    for (const QWidget *w = &widget; !w->isWindow() && w->parentWidget(); w = w->parentWidget())
        shown = shown.translated(w->pos()).intersected(w->parentWidget()->rect());
    return !shown.isEmpty();
}

// The bar's own room for tabs: its rectangle less its scroll buttons while they show.
QRect tabRoom(const QTabBar &bar)
{
    QRect room = bar.rect();
    for (const QToolButton *button : bar.findChildren<QToolButton *>(Qt::FindDirectChildrenOnly)) {
        if (!button->isVisible())
            continue;
        const QRect taken = button->geometry();
        if (bar.shape() == QTabBar::RoundedNorth || bar.shape() == QTabBar::RoundedSouth ||
            bar.shape() == QTabBar::TriangularNorth || bar.shape() == QTabBar::TriangularSouth) {
            if (taken.center().x() < room.center().x())
                room.setLeft(std::max(room.left(), taken.right() + 1));
            else
                room.setRight(std::min(room.right(), taken.left() - 1));
        } else if (taken.center().y() < room.center().y()) {
            room.setTop(std::max(room.top(), taken.bottom() + 1));
        } else {
            room.setBottom(std::min(room.bottom(), taken.top() - 1));
        }
    }
    return room;
}

// As QTabBar elides a tab's text (QTabBar::initStyleOption): to the width of the style's text
// rectangle inside the tab.
void tabBarTexts(const QTabBar &bar, QStringList &out)
{
    const QRect room = tabRoom(bar);
    for (int i = 0; i < bar.count(); ++i) {
        if (!bar.isTabVisible(i))
            continue;
        const QString text = bar.tabText(i);
        QStyleOptionTab option;
        option.initFrom(&bar);
        option.rect = bar.tabRect(i);
        option.text = text;
        option.shape = bar.shape();
        option.icon = bar.tabIcon(i);
        option.iconSize = bar.iconSize();
        option.documentMode = bar.documentMode();
        if (const QWidget *left = bar.tabButton(i, QTabBar::LeftSide))
            option.leftButtonSize = left->size();
        if (const QWidget *right = bar.tabButton(i, QTabBar::RightSide))
            option.rightButtonSize = right->size();
        const QRect textRect = bar.style()->subElementRect(QStyle::SE_TabBarTabText, &option, &bar);
        const bool cut = textWidth(bar.fontMetrics(), text) > textRect.width();
        if (cut || !room.contains(option.rect))
            out << text;
    }
}

void labelTexts(const QLabel &label, QStringList &out)
{
    const QString text = label.text();
    if (text.isEmpty())
        return;
    if (text.contains(kEllipsis)) {
        const QString tip = label.toolTip();
        out << (tip.isEmpty() || Qt::mightBeRichText(tip) ? text : tip);
        return;
    }
    if (label.wordWrap())
        return;
    const int room =
        label.contentsRect().width() - 2 * label.margin() - std::max(0, label.indent());
    const bool rich = label.textFormat() == Qt::RichText ||
                      (label.textFormat() == Qt::AutoText && Qt::mightBeRichText(text));
    int needed = 0;
    if (rich) {
        QTextDocument document;
        document.setDefaultFont(label.font());
        document.setDocumentMargin(0);
        document.setHtml(text);
        needed = int(std::ceil(document.idealWidth()));
    } else {
        needed = textWidth(label.fontMetrics(), text);
    }
    if (needed > room)
        out << (rich ? QTextDocumentFragment::fromHtml(text).toPlainText() : text);
}

bool wraps(const QAbstractItemView &view)
{
    if (const auto *table = qobject_cast<const QTableView *>(&view))
        return table->wordWrap();
    if (const auto *list = qobject_cast<const QListView *>(&view))
        return list->wordWrap();
    if (const auto *tree = qobject_cast<const QTreeView *>(&view))
        return tree->wordWrap();
    return false;
}

// The size the view's delegate wants for the cell, given the cell's width when the view wraps.
QSize neededSize(const QAbstractItemView &view, const QModelIndex &index, const QRect &cell)
{
    QStyleOptionViewItem option;
    option.initFrom(view.viewport());
    option.font = view.font();
    option.fontMetrics = view.fontMetrics();
    option.rect = cell;
    option.decorationSize = view.iconSize().isValid()
                                ? view.iconSize()
                                : QSize(view.style()->pixelMetric(QStyle::PM_SmallIconSize),
                                        view.style()->pixelMetric(QStyle::PM_SmallIconSize));
    option.textElideMode = view.textElideMode();
    if (wraps(view))
        option.features |= QStyleOptionViewItem::WrapText;
    if (const auto *list = qobject_cast<const QListView *>(&view);
        list && list->viewMode() == QListView::IconMode)
        option.decorationPosition = QStyleOptionViewItem::Top;
    return view.itemDelegateForIndex(index)->sizeHint(option, index);
}

void itemViewTexts(const QAbstractItemView &view, QStringList &out)
{
    const QAbstractItemModel *model = view.model();
    if (!model)
        return;
    const QRect viewport = view.viewport()->rect();
    // Rows out of sight count only where nothing says there are more.
    const QScrollBar *vertical = view.verticalScrollBar();
    const bool rowsScroll = vertical && vertical->isVisible() && vertical->maximum() > 0;
    const auto *table = qobject_cast<const QTableView *>(&view);
    const auto *list = qobject_cast<const QListView *>(&view);
    const QModelIndex root = view.rootIndex();
    for (int row = 0; row < model->rowCount(root); ++row) {
        if ((table && table->isRowHidden(row)) || (list && list->isRowHidden(row)))
            continue;
        for (int column = 0; column < model->columnCount(root); ++column) {
            if ((table && table->isColumnHidden(column)) || (list && column != list->modelColumn()))
                continue;
            const QModelIndex index = model->index(row, column, root);
            const QString text = index.data(Qt::DisplayRole).toString();
            if (text.isEmpty())
                continue;
            const QRect cell = view.visualRect(index);
            if (cell.isEmpty())
                continue;
            const bool columnOut = cell.left() < viewport.left() || cell.right() > viewport.right();
            const bool rowOut = cell.top() < viewport.top() || cell.bottom() > viewport.bottom();
            const QSize needed = neededSize(view, index, cell);
            const bool cut = needed.width() > cell.width() || needed.height() > cell.height();
            if (cut || columnOut || (rowOut && !rowsScroll))
                out << text;
        }
    }
}

void headerTexts(const QHeaderView &header, QStringList &out)
{
    const QAbstractItemModel *model = header.model();
    if (!model)
        return;
    const bool horizontal = header.orientation() == Qt::Horizontal;
    const int length = horizontal ? header.viewport()->width() : header.viewport()->height();
    const int margin = header.style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, &header);
    const bool wrap = (header.defaultAlignment().toInt() & Qt::TextWordWrap) != 0;
    for (int logical = 0; logical < header.count(); ++logical) {
        if (header.isSectionHidden(logical))
            continue;
        const QString text =
            model->headerData(logical, header.orientation(), Qt::DisplayRole).toString();
        if (text.isEmpty())
            continue;
        const int start = header.sectionViewportPosition(logical);
        const int size = header.sectionSize(logical);
        const bool scrolledOut = start < 0 || start + size > length;
        QFont font = header.font();
        if (const QVariant role = model->headerData(logical, header.orientation(), Qt::FontRole);
            role.canConvert<QFont>())
            font = role.value<QFont>();
        const QFontMetrics metrics(font);
        const int across = (horizontal ? size : header.viewport()->width()) - 2 * margin;
        const int down = (horizontal ? header.viewport()->height() : size);
        bool cut = false;
        if (wrap) {
            const QRect needed =
                metrics.boundingRect(QRect(0, 0, across, 100000), Qt::TextWordWrap, text);
            cut = needed.width() > across || needed.height() > down;
        } else {
            cut = textWidth(metrics, text) > across;
        }
        if (cut || scrolledOut)
            out << text;
    }
}

void comboTexts(const QComboBox &combo, QStringList &out)
{
    const QVariant shown = combo.property(kShownTextProperty);
    const QString text = shown.isValid() ? shown.toString() : combo.currentText();
    if (text.isEmpty())
        return;
    QStyleOptionComboBox option;
    option.initFrom(&combo);
    option.editable = combo.isEditable();
    option.frame = combo.hasFrame();
    option.currentText = text;
    option.currentIcon = combo.itemIcon(combo.currentIndex());
    option.iconSize = combo.iconSize();
    QRect field = combo.style()->subControlRect(QStyle::CC_ComboBox, &option,
                                                QStyle::SC_ComboBoxEditField, &combo);
    if (!option.currentIcon.isNull())
        field.setLeft(field.left() + option.iconSize.width() + 4);
    if (textWidth(combo.fontMetrics(), text) > field.width())
        out << combo.currentText();
}

// A button narrower than it asks to be: its text is cut (a tab's button, a tool button).
void buttonTexts(const QAbstractButton &button, QStringList &out)
{
    const QString text = button.text();
    if (!text.isEmpty() && button.width() < button.sizeHint().width())
        out << QString(text).remove(QLatin1Char('&'));
}

void widgetTexts(const QWidget &widget, QStringList &out)
{
    if (const auto *view = dynamic_cast<const Describable *>(&widget)) {
        out << view->elidedTexts();
        return;
    }
    if (const auto *bar = qobject_cast<const QTabBar *>(&widget))
        tabBarTexts(*bar, out);
    else if (const auto *label = qobject_cast<const QLabel *>(&widget))
        labelTexts(*label, out);
    else if (const auto *header = qobject_cast<const QHeaderView *>(&widget))
        headerTexts(*header, out);
    else if (const auto *view = qobject_cast<const QAbstractItemView *>(&widget))
        itemViewTexts(*view, out);
    else if (const auto *combo = qobject_cast<const QComboBox *>(&widget))
        comboTexts(*combo, out);
    else if (const auto *button = qobject_cast<const QAbstractButton *>(&widget))
        buttonTexts(*button, out);
}

} // namespace

QStringList elidedTexts(const QWidget &root)
{
    QStringList found;
    if (!onScreen(root))
        return found;
    widgetTexts(root, found);
    for (const QWidget *widget : root.findChildren<QWidget *>()) {
        // A combo box's list and other popups are windows of their own: closed, they show nothing.
        if (widget->isWindow() || !onScreen(*widget))
            continue;
        widgetTexts(*widget, found);
    }
    found.removeDuplicates();
    return found;
}

} // namespace rankstep::gui
