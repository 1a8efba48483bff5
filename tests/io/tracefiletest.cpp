// SPDX-License-Identifier: MIT
// io::traceFromFile: a binary or JSON trace file by its first bytes, and anything that is not a
// regular file (a FIFO, /dev/zero, a folder, a link loop) refused at once with a plain message.
#include "testtraces.h"

#include "core/io/tracebinary.h"
#include "core/io/tracefile.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace rankstep::io {
namespace {

namespace fs = std::filesystem;

class TraceFile : public ::testing::Test
{
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "rankstep-tracefile-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        m_dir = pattern;
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(m_dir, ignored);
    }
    std::string write(const std::string &name, const std::string &bytes) const
    {
        const fs::path path = m_dir / name;
        std::ofstream(path, std::ios::binary) << bytes;
        return path.string();
    }
    std::string errorOf(const std::string &path) const
    {
        auto read = traceFromFile(path);
        EXPECT_FALSE(read.ok()) << path;
        return read.ok() ? std::string() : read.error().message;
    }

    fs::path m_dir;
    const core::Trace m_trace = testing::referenceTrace("ddp");
};

TEST_F(TraceFile, ReadsBinaryAndJsonByTheirFirstBytes)
{
    const std::string json = traceToJson(m_trace, {"ddp.py", "ddp"});
    TraceJsonOptions options;
    auto binary =
        traceFromFile(write("ddp.rstb", traceToBinary(m_trace, {"ddp.py", "ddp"})), &options);
    ASSERT_TRUE(binary.ok()) << binary.error().message;
    EXPECT_EQ(traceToJson(*binary, options), json);
    auto fromJson = traceFromFile(write("ddp.json", json), &options);
    ASSERT_TRUE(fromJson.ok()) << fromJson.error().message;
    EXPECT_EQ(traceToJson(*fromJson, options), json);
}

TEST_F(TraceFile, RefusesWhatIsNoRegularFileWithoutReadingIt)
{
    const std::string fifo = (m_dir / "trace.rstb").string();
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(errorOf(fifo).find("it is a pipe (FIFO), not a regular file"), std::string::npos);
    EXPECT_NE(errorOf("/dev/zero").find("it is a device"), std::string::npos);
    EXPECT_NE(errorOf(m_dir.string()).find("it is a folder"), std::string::npos);
    fs::create_symlink("loop.json", m_dir / "loop.json");
    EXPECT_NE(errorOf((m_dir / "loop.json").string()).find("a loop of symbolic links"),
              std::string::npos);
    EXPECT_NE(errorOf((m_dir / "none.json").string()).find("no such file"), std::string::npos);
}

} // namespace
} // namespace rankstep::io
