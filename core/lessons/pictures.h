// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::lessons {

struct Lesson;

// A picture a lesson's Markdown shows: ![alt](name).
struct PictureReference {
    std::string alt;  // what a reader without the picture reads instead (screen readers, the CLI)
    std::string name; // the file's name in the lesson's folder: "tensor.svg"
    std::size_t begin = 0, length = 0; // where the whole reference stands in the text, in bytes
};

// Whether `name` may be a lesson's picture: lower-case letters, digits, '-' and '_', an optional
// language (".de") and ".svg": "tensor_block.svg", "tensor_block.de.svg". No folders.
bool isPictureFileName(const std::string &name);
// Every ![alt](name) in `markdown`, in order; a title after the name ("...") is left out.
std::vector<PictureReference> pictureReferences(const std::string &markdown);
// One problem per picture the lesson's texts (every language) show but its folder lacks, naming
// the text file: "97-tensor_parallel/text.md: shows block.svg, which is not in the folder". The
// build refuses such a lesson; the app shows the picture's alt text instead.
std::vector<std::string> missingPictures(const Lesson &lesson);

} // namespace rankstep::lessons
