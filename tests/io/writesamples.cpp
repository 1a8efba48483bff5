// SPDX-License-Identifier: MIT
// Writes the DDP reference run as Rankstep JSON and as a Chrome trace into a folder, for
// checksamples.py to read with a JSON parser that is not ours.
#include "testtraces.h"

#include "core/io/chrometrace.h"
#include "core/io/tracejson.h"

#include <filesystem>
#include <fstream>
#include <iostream>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "usage: io_write_samples FOLDER\n";
        return 2;
    }
    const std::filesystem::path folder = argv[1];
    std::filesystem::create_directories(folder);
    const rankstep::core::Trace trace = rankstep::testing::referenceTrace("ddp");
    std::ofstream(folder / "ddp.json", std::ios::binary)
        << rankstep::io::traceToJson(trace, {"ddp.py", "ddp"});
    std::ofstream(folder / "ddp-chrome.json", std::ios::binary)
        << rankstep::io::traceToChromeJson(trace);
    std::cout << "wrote " << (folder / "ddp.json") << " and " << (folder / "ddp-chrome.json")
              << "\n";
    return 0;
}
