// SPDX-License-Identifier: MIT
// rankstep-iconrender SVG OUT.png SIZE: draws the app's SVG icon as a SIZE x SIZE PNG, so the
// build makes the fixed-size icons from the one drawing instead of keeping copies in git.
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char *argv[])
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: rankstep-iconrender SVG OUT.png SIZE\n");
        return 64;
    }
    // Painting shapes (no text) into an image needs no QGuiApplication, hence no display.
    const QStringList args = {QString(), QString::fromLocal8Bit(argv[1]),
                              QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3])};
    bool sizeOk = false;
    const int size = args.at(3).toInt(&sizeOk);
    if (!sizeOk || size < 1 || size > 4096) {
        std::fprintf(stderr, "rankstep-iconrender: SIZE must be 1 to 4096, not %s\n", argv[3]);
        return 64;
    }
    QSvgRenderer renderer(args.at(1));
    if (!renderer.isValid()) {
        std::fprintf(stderr, "rankstep-iconrender: %s is not a valid SVG file\n", argv[1]);
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter, QRectF(0, 0, size, size));
    painter.end();
    if (!image.save(args.at(2), "PNG")) {
        std::fprintf(stderr, "rankstep-iconrender: cannot write %s\n", argv[2]);
        return 1;
    }
    return 0;
}
