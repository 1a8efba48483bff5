// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>

class QPalette;

namespace rankstep::gui {

// A lesson's picture (lessons/README.md, "Pictures") as the lesson pane draws it. The files
// (scripts/lesson_pictures.py) write three colors of their own that stand for the window's: ink
// #222222 (its text), muted #888888 (lines and words in between) and paper #ffffff (its page).
// Every other color is the palette's (the layers' scale, the ranks', a message's gray), drawn
// half transparent where it fills, so that it reads on a light and a dark page alike.
QByteArray pictureInColors(const QByteArray &svg, const QPalette &palette);

// The size a picture of `own` size (its view box) takes in a pane `available` pixels wide whose
// text is `fontPixels` high: its words (kPictureFontUnits of its own) as large as the text's, but
// never wider than the pane, nor higher than kMaxPictureHeight. Empty for an empty picture.
inline constexpr double kPictureFontUnits = 14;
inline constexpr int kMaxPictureHeight = 4000;
QSize lessonPictureSize(const QSizeF &own, int available, double fontPixels);

// The picture drawn at lessonPictureSize, with the device pixel ratio `dpr` (a 2x screen gets
// twice the pixels at the same size). A null image when `svg` is no picture QtSvg can draw.
QImage renderLessonPicture(const QByteArray &svg, int available, double fontPixels, double dpr);

} // namespace rankstep::gui
