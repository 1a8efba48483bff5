// SPDX-License-Identifier: MIT
#include "sandboxfiles.h"

#include "core/python/interpreterfiles.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <system_error>

namespace rankstep::cli {
namespace {

namespace fs = std::filesystem;

// Read by every run: the time zone (the link and the zone data it names), the loader's cache,
// /dev/null, /dev/urandom and the CPU list (os.cpu_count).
constexpr std::string_view kSystemFiles[] = {"/etc/localtime",   "/usr/share/zoneinfo",
                                             "/etc/ld.so.cache", "/dev/null",
                                             "/dev/urandom",     "/sys/devices/system/cpu"};
// A real run's rank: PyTorch and the libraries it loads as it goes.
constexpr std::string_view kSystemLibraries[] = {"/usr/lib", "/lib", "/lib64", "/usr/local/lib"};

// "_ctypes" of "_ctypes.cpython-311-x86_64-linux-gnu.so".
std::string moduleName(const fs::path &file)
{
    const std::string name = file.filename().string();
    return name.substr(0, name.find('.'));
}

bool among(const std::string &name, const std::vector<std::string> &names)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

// The standard library's folders and files, without lib-dynload and the package folders (which
// hold other programs' extensions, cffi's among them).
void allowStandardLibrary(const std::string &folder, SandboxFiles &files)
{
    std::error_code error;
    files.listable.push_back(folder);
    for (const fs::directory_entry &entry : fs::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        if (name == "lib-dynload" || name == "site-packages" || name == "dist-packages")
            continue;
        files.readable.push_back(entry.path().string());
    }
}

// lib-dynload: every C extension but the refused ones, file by file (Landlock allows, it cannot
// exclude, so the folder itself is only listable).
void allowExtensions(const std::string &folder, SandboxFiles &files)
{
    std::error_code error;
    files.listable.push_back(folder);
    for (const fs::directory_entry &entry : fs::directory_iterator(folder, error)) {
        const std::string name = moduleName(entry.path());
        if (among(name, rawMemoryModules()) || among(name, unavailableModules()) ||
            !entry.is_regular_file(error))
            continue;
        // The path as Python's FileFinder spells it (entry + "/" + name): dlopen finds a loaded
        // library by that string.
        files.extensions.push_back(folder + "/" + entry.path().filename().string());
        files.readable.push_back(files.extensions.back());
    }
}

int noteLoaded(dl_phdr_info *info, std::size_t, void *data)
{
    auto &loaded = *static_cast<std::vector<std::string> *>(data);
    if (info->dlpi_name && *info->dlpi_name) {
        const std::string name = moduleName(info->dlpi_name);
        if (among(name, rawMemoryModules()) && !among(name, loaded))
            loaded.push_back(name);
    }
    return 0;
}

} // namespace

const std::vector<std::string> &rawMemoryModules()
{
    static const std::vector<std::string> names = {"ctypes",
                                                   "_ctypes",
                                                   "_ctypes_test",
                                                   "cffi",
                                                   "_cffi_backend",
                                                   "_testcapi",
                                                   "_testinternalcapi",
                                                   "_testbuffer",
                                                   "_testmultiphase",
                                                   "_testimportmultiple",
                                                   "_testclinic",
                                                   "_testsinglephase",
                                                   "_xxtestfuzz",
                                                   "xxlimited",
                                                   "xxlimited_35"};
    return names;
}

const std::vector<std::string> &unavailableModules()
{
    static const std::vector<std::string> names = {
        "_sqlite3",   "_xxsubinterpreters", "readline", "_curses", "_curses_panel", "_tkinter",
        "_ssl",       "_hashlib",           "nis",      "_dbm",    "_gdbm",         "_crypt",
        "ossaudiodev"};
    return names;
}

std::vector<std::string> gpuDeviceFiles(const std::string &devFolder)
{
    std::vector<std::string> devices;
    std::error_code error;
    for (const fs::directory_entry &entry : fs::directory_iterator(devFolder, error))
        if (entry.path().filename().string().starts_with("nvidia"))
            devices.push_back(entry.path().string());
    std::sort(devices.begin(), devices.end());
    return devices;
}

SandboxFiles sandboxFiles(bool realRank, bool gpu, const std::string &devFolder)
{
    SandboxFiles files;
    for (std::string_view path : kSystemFiles)
        files.readable.emplace_back(path);
    const python::InterpreterFiles python = python::interpreterFiles();
    files.pythonFound = !python.standardLibrary.empty();
    if (realRank) {
        files.readable.insert(files.readable.end(), std::begin(kSystemLibraries),
                              std::end(kSystemLibraries));
        files.readable.insert(files.readable.end(), python.path.begin(), python.path.end());
        if (gpu) { // CUDA and NCCL open the devices and read the driver's and the bus's state
            files.devices = gpuDeviceFiles(devFolder);
            files.readable.insert(files.readable.end(),
                                  {"/proc/driver/nvidia", "/sys/bus/pci", "/sys/devices"});
        }
    } else {
        if (files.pythonFound)
            allowStandardLibrary(python.standardLibrary, files);
        if (!python.extensionModules.empty())
            allowExtensions(python.extensionModules, files);
        std::error_code error;
        for (const std::string &entry : python.path) // python311.zip, where there is one
            if (fs::is_regular_file(entry, error))
                files.readable.push_back(entry);
    }
    files.rawMemoryLoaded = python::importedAmong(rawMemoryModules());
    dl_iterate_phdr(noteLoaded, &files.rawMemoryLoaded);
    return files;
}

void preloadExtensions(const SandboxFiles &files)
{
    for (const std::string &path : files.extensions)
        dlopen(path.c_str(), RTLD_NOW); // never closed; one that fails is not importable
}

} // namespace rankstep::cli
