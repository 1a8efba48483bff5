// SPDX-License-Identifier: MIT
#include "lesson.h"
#include "pictures.h"

#include "core/io/jsonfields.h"
#include "core/limits.h"
#include "core/regularfile.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>

namespace rankstep::lessons {
namespace {

// The language of a translated text's or hints' file name ("text.de.md": "de"), or "".
std::string translationLanguage(const std::string &name, const std::string &stem)
{
    const std::string prefix = stem + ".", suffix = ".md";
    if (name.size() != prefix.size() + 2 + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.compare(prefix.size() + 2, suffix.size(), suffix) != 0)
        return {};
    const std::string language = name.substr(prefix.size(), 2);
    return std::all_of(language.begin(), language.end(),
                       [](char c) { return c >= 'a' && c <= 'z'; })
               ? language
               : std::string();
}

bool isLessonFileName(const std::string &name)
{
    for (const char *known : {"lesson.json", "text.md", "starter.py", "solution.py", "hints.md"})
        if (name == known)
            return true;
    return !translationLanguage(name, "text").empty() ||
           !translationLanguage(name, "hints").empty() || isPictureFileName(name);
}

struct LessonError {
    std::string message;
};

std::string idFromFolder(const std::string &folder)
{
    std::size_t i = 0;
    while (i < folder.size() && std::isdigit(static_cast<unsigned char>(folder[i])))
        ++i;
    if (i > 0 && i < folder.size() && folder[i] == '-')
        return folder.substr(i + 1);
    return folder;
}

const std::string &requireFile(const LessonFiles &files, const std::string &folder,
                               const std::string &name)
{
    auto it = files.find(folder + "/" + name);
    if (it == files.end())
        throw LessonError{folder + "/" + name + ": the file is missing"};
    if (it->second.find_first_not_of(" \t\r\n") == std::string::npos)
        throw LessonError{folder + "/" + name + ": the file is empty"};
    return it->second;
}

Targets readTargets(const io::Fields &fields, const std::string &key)
{
    const io::Fields t = fields.object(key);
    return Targets{t.time("time"), t.integer("memory", 1)};
}

std::vector<std::string> splitHints(const std::string &text)
{
    std::vector<std::string> hints;
    std::istringstream in(text);
    std::string line, current;
    auto flush = [&] {
        const auto first = current.find_first_not_of(" \t\r\n");
        if (first != std::string::npos)
            hints.push_back(current.substr(first, current.find_last_not_of(" \t\r\n") - first + 1));
        current.clear();
    };
    while (std::getline(in, line)) {
        if (line == "---" || line == "---\r")
            flush();
        else
            current += line + "\n";
    }
    flush();
    return hints;
}

// How the ranks divide the model, which picks the formula beside a run; none when left out.
Parallelism readParallelism(const io::Fields &f)
{
    if (!f.has("parallelism"))
        return Parallelism::None;
    const std::string name = f.string("parallelism");
    if (name == "data_parallel")
        return Parallelism::DataParallel;
    if (name == "sharded")
        return Parallelism::Sharded;
    if (name != "pipeline")
        io::failAt(f.get("parallelism"), f.pathOf("parallelism"),
                   "expected \"data_parallel\", \"sharded\" or \"pipeline\"");
    return Parallelism::Pipeline;
}

// The settings of a simulated puzzle lesson (lessons/README.md, "lesson.json").
void readPuzzleConfig(Lesson &lesson, const io::Fields &f)
{
    lesson.config.ranks = f.integer32("ranks", 1, core::kMostRanks);
    lesson.config.layers = f.integer32("layers", 1, 4096);
    lesson.config.batches = f.integer32("batches", 1, 65535);
    core::Layout &layout = lesson.config.layout; // core/layout.h
    for (auto [name, degree] : {std::pair{"tensor", &layout.tensor},
                                {"context", &layout.context},
                                {"pipeline", &layout.pipeline},
                                {"expert", &layout.expert}})
        if (f.has(name))
            *degree = f.integer32(name, 1, core::kMostRanks);
    if (const std::string problem = core::layoutProblem(lesson.config.ranks, layout);
        !problem.empty())
        io::failAt(f.get("ranks"), f.pathOf("ranks"), problem);
    const std::string goal = f.has("goal") ? f.string("goal") : "train";
    if (goal != "train" && goal != "run")
        io::failAt(f.get("goal"), f.pathOf("goal"), "expected \"train\" or \"run\"");
    lesson.goal = goal == "run" ? Goal::Run : Goal::Train;
    lesson.parallelism = readParallelism(f);
    lesson.gradientsComputed =
        lesson.goal == Goal::Train && !(f.has("fake_gradients") && f.boolean("fake_gradients"));
    if (f.has("targets"))
        lesson.targets = readTargets(f, "targets");
    if (f.has("notebook_targets"))
        lesson.notebookTargets = readTargets(f, "notebook_targets");
    if (f.has("experiments")) {
        const auto &items = f.array("experiments");
        for (std::size_t i = 0; i < items.size(); ++i) {
            const io::Fields e(items[i], "experiments[" + std::to_string(i) + "]");
            lesson.experiments.push_back(Experiment{
                e.string("label"),
                e.has("ranks") ? e.integer32("ranks", 1, core::kMostRanks) : lesson.config.ranks,
                e.has("layers") ? e.integer32("layers", 1, 4096) : lesson.config.layers,
                e.has("batches") ? e.integer32("batches", 1, 65535) : lesson.config.batches});
        }
    }
}

void readConfig(Lesson &lesson, const std::string &json, const std::string &file)
{
    auto parsed = io::parseJson(json);
    if (!parsed)
        throw LessonError{file + ": " + parsed.error().message};
    try {
        const io::Fields f(*parsed, "");
        lesson.title = f.string("title");
        lesson.order = f.integer32("order", 0, 100000);
        lesson.function = f.string("function");
        const std::string kind = f.has("kind") ? f.string("kind") : "puzzle";
        if (kind != "puzzle" && kind != "torch")
            io::failAt(f.get("kind"), f.pathOf("kind"), "expected \"puzzle\" or \"torch\"");
        if (kind == "torch") {
            lesson.config.ranks = f.integer32("ranks", 1, 64);
            const io::Fields t = f.object("torch");
            TorchSettings torch;
            torch.check = t.string("check");
            static const std::set<std::string> kChecks{"loop", "amp",  "ddp",        "ddp_accum",
                                                       "zero", "fsdp", "checkpoint", "checklist"};
            if (!kChecks.contains(torch.check))
                io::failAt(t.get("check"), t.pathOf("check"),
                           "expected \"loop\", \"amp\", \"ddp\", \"ddp_accum\", \"zero\", "
                           "\"fsdp\", \"checkpoint\" or \"checklist\"");
            torch.steps = t.integer32("steps", 1, 100000);
            torch.accumulation = t.has("accumulation") ? t.integer32("accumulation", 1, 1024) : 1;
            torch.embd = t.has("embd") ? t.integer32("embd", 1, 8192) : torch.embd;
            lesson.torch = torch;
        } else {
            readPuzzleConfig(lesson, f);
        }
    } catch (const io::FieldError &e) {
        throw LessonError{file + ": " + e.message};
    }
    if (lesson.title.empty())
        throw LessonError{file + ": title: must not be empty"};
    if (lesson.function.empty() ||
        !std::all_of(lesson.function.begin(), lesson.function.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        }))
        throw LessonError{file + ": function: expected a Python function name"};
}

// text.de.md and hints.de.md beside the English files: each hint has its translation, so the
// n-th hint shown is the same hint in either language.
void readTranslations(Lesson &lesson, const LessonFiles &files, const std::string &folder)
{
    const std::string prefix = folder + "/";
    for (auto it = files.lower_bound(prefix); it != files.end() && it->first.rfind(prefix, 0) == 0;
         ++it) {
        const std::string name = it->first.substr(prefix.size());
        if (const std::string language = translationLanguage(name, "text"); !language.empty()) {
            lesson.translations[language].text = requireFile(files, folder, name);
        } else if (const std::string hinted = translationLanguage(name, "hints"); !hinted.empty()) {
            std::vector<std::string> hints = splitHints(requireFile(files, folder, name));
            if (hints.size() != lesson.hints.size())
                throw LessonError{prefix + name + ": has " + std::to_string(hints.size()) +
                                  " hints, but hints.md has " +
                                  std::to_string(lesson.hints.size()) +
                                  "; each hint needs its translation"};
            lesson.translations[hinted].hints = std::move(hints);
        }
    }
}

void readPictures(Lesson &lesson, const LessonFiles &files, const std::string &folder)
{
    const std::string prefix = folder + "/";
    for (auto it = files.lower_bound(prefix); it != files.end() && it->first.rfind(prefix, 0) == 0;
         ++it)
        if (const std::string name = it->first.substr(prefix.size()); isPictureFileName(name))
            lesson.pictures[name] = it->second;
}

Lesson loadOne(const LessonFiles &files, const std::string &folder)
{
    Lesson lesson;
    lesson.folder = folder;
    lesson.id = idFromFolder(folder);
    readConfig(lesson, requireFile(files, folder, "lesson.json"), folder + "/lesson.json");
    lesson.text = requireFile(files, folder, "text.md");
    lesson.starter = requireFile(files, folder, "starter.py");
    lesson.solution = requireFile(files, folder, "solution.py");
    lesson.hints = splitHints(requireFile(files, folder, "hints.md"));
    if (lesson.hints.size() < 2)
        throw LessonError{folder +
                          "/hints.md: needs at least two hints, separated by a line "
                          "holding only ---"};
    readTranslations(lesson, files, folder);
    readPictures(lesson, files, folder);
    return lesson;
}

} // namespace

LessonSet loadLessonsSkippingBroken(const LessonFiles &files)
{
    std::set<std::string> folders;
    for (const auto &[path, text] : files) {
        const auto slash = path.find('/');
        if (slash != std::string::npos && path.find('/', slash + 1) == std::string::npos)
            folders.insert(path.substr(0, slash));
    }
    LessonSet set;
    std::set<std::string> ids;
    for (const std::string &folder : folders) {
        try {
            Lesson lesson = loadOne(files, folder);
            if (ids.insert(lesson.id).second)
                set.lessons.push_back(std::move(lesson));
            else
                set.problems.push_back(folder + ": another folder already has the name '" +
                                       lesson.id + "'");
        } catch (const LessonError &e) {
            set.problems.push_back(e.message);
        }
    }
    if (set.lessons.empty() && set.problems.empty())
        set.problems.push_back("no lesson folders found");
    std::stable_sort(set.lessons.begin(), set.lessons.end(),
                     [](const Lesson &a, const Lesson &b) { return a.order < b.order; });
    return set;
}

core::Result<std::vector<Lesson>> loadLessons(const LessonFiles &files)
{
    LessonSet set = loadLessonsSkippingBroken(files);
    if (!set.problems.empty())
        return core::Error(core::ErrorKind::Usage, -1, 0, set.problems.front());
    return std::move(set.lessons);
}

core::Result<LessonFiles> readLessonFolder(const std::string &root)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(root, ec))
        return core::Error(core::ErrorKind::Usage, -1, 0, root + ": not a folder of lessons");
    LessonFiles files;
    // The error_code forms throughout: a symbolic link loop in the folder must not throw.
    for (fs::directory_iterator dir(root, ec), end; !ec && dir != end; dir.increment(ec)) {
        std::error_code kind;
        if (!dir->is_directory(kind))
            continue;
        std::error_code inner;
        for (fs::directory_iterator entry(dir->path(), inner); !inner && entry != end;
             entry.increment(inner)) {
            const std::string file = entry->path().filename().string();
            if (!isLessonFileName(file))
                continue; // other files are not read, whatever they are
            auto text = core::readRegularFile(entry->path().string(), core::kMaxLessonFileBytes);
            if (!text)
                return core::Error(
                    core::ErrorKind::Usage, -1, 0,
                    dir->path().filename().string() + "/" + file + ": " + text.error().message);
            files[dir->path().filename().string() + "/" + file] = std::move(*text);
        }
        if (inner)
            return core::Error(core::ErrorKind::Usage, -1, 0,
                               dir->path().string() + ": " + inner.message());
    }
    if (ec)
        return core::Error(core::ErrorKind::Usage, -1, 0, root + ": " + ec.message());
    return files;
}

const std::string &lessonText(const Lesson &lesson, const std::string &language)
{
    const auto it = lesson.translations.find(language);
    return it != lesson.translations.end() && !it->second.text.empty() ? it->second.text
                                                                       : lesson.text;
}

const std::vector<std::string> &lessonHints(const Lesson &lesson, const std::string &language)
{
    const auto it = lesson.translations.find(language);
    return it != lesson.translations.end() && !it->second.hints.empty() ? it->second.hints
                                                                        : lesson.hints;
}

const Lesson *findLesson(const std::vector<Lesson> &lessons, const std::string &idOrFunction)
{
    for (const Lesson &lesson : lessons)
        if (lesson.id == idOrFunction || lesson.folder == idOrFunction)
            return &lesson;
    for (const Lesson &lesson : lessons)
        if (lesson.function == idOrFunction)
            return &lesson;
    return nullptr;
}

} // namespace rankstep::lessons
