// SPDX-License-Identifier: MIT
// The files learner code may read (cli/sandbox.h's Landlock rules) and the C extensions loaded
// for it before the lock-down, found from the Python interpreter running in this process.
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

struct SandboxFiles {
    std::vector<std::string> readable;   // a file, or a folder and everything beneath
    std::vector<std::string> listable;   // folders whose names (beneath) may be listed, no file
    std::vector<std::string> extensions; // lib-dynload's allowed C extensions (also readable)
    std::vector<std::string> devices;    // device files to read and write: a rank's GPUs
    bool pythonFound = false;            // the interpreter's library was found and allowed
    // Modules giving raw memory access (ctypes, cffi, CPython's test modules) that were imported
    // or loaded before the lock-down: the learner's code could use them.
    std::vector<std::string> rawMemoryLoaded;
};

// The modules that give code raw access to the process's memory: never loaded in a run.
const std::vector<std::string> &rawMemoryModules();
// C extensions of the standard library a run does without (a terminal, the network, native code
// loaded by other means, the system's databases): not loaded either.
const std::vector<std::string> &unavailableModules();

// What a simulated run reads: Python's standard library (without its lib-dynload folder, of which
// only the extensions a run may use are readable, and without site or dist packages), the time
// zone, /dev/null, /dev/urandom, the CPU list and the run's folder (given to Landlock separately).
// No shared library: every one the run needs is loaded before (see preloadExtensions).
// `realRank`: a rank of a real run, with PyTorch loaded, reads the system's libraries (/usr/lib,
// /lib) and every folder on its sys.path instead; with `gpu` (a rank of `--backend nccl`) also
// opens NVIDIA's device files in `devFolder` (gpuDeviceFiles) and reads the driver's state in
// /proc and the PCI devices in /sys. `gpu` is ignored for any other process.
SandboxFiles sandboxFiles(bool realRank, bool gpu = false, const std::string &devFolder = "/dev");

// NVIDIA's device files in `devFolder` (nvidiactl, nvidia0, nvidia-uvm, nvidia-caps...), sorted;
// none where there is no NVIDIA driver.
std::vector<std::string> gpuDeviceFiles(const std::string &devFolder);

// Loads every one of `files.extensions` the way Python's import
// would (dlopen, RTLD_NOW), so that importing one after the lock-down maps no new code.
void preloadExtensions(const SandboxFiles &files);

} // namespace rankstep::cli
