// SPDX-License-Identifier: MIT
// Turns fuzz bytes into a learner's puzzle file: one `async def puzzle(model)` whose body is
// built from the puzzle API's calls (model.forward/backward/update/load_weights, the collectives,
// pass_to/receive, storage dictionary sets, reads, deletes and pops), loops, ifs, try blocks,
// awaits of foreign awaitables and values of the wrong type. Always valid Python syntax.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace rankstep::fuzz {

class SnippetGrammar
{
public:
    SnippetGrammar(const std::uint8_t *data, std::size_t size) : m_data(data), m_size(size) {}

    // The whole file: imports, the puzzle function, and nothing else.
    std::string source();

private:
    void block(int depth, int statements);
    void statement(int depth);
    void simpleStatement(int depth);
    void simpleStatementBody(int depth);
    void compoundStatement(int depth);
    std::string call();
    std::string pairCall();
    std::string communication();
    std::string expression();
    std::string target();
    std::string mapName();
    std::string key();
    std::string layer();
    std::string integer();
    std::string batches();
    std::string group();
    void line(int depth, const std::string &text);

    int pick(int choices);
    bool exhausted() const { return m_at >= m_size; }

    const std::uint8_t *m_data;
    std::size_t m_size;
    std::size_t m_at = 0;
    bool m_forgiving = false; // every simple statement inside `try: ... except Exception: pass`
    int m_loopDepth = 0;      // loop variables i0 .. i{m_loopDepth - 1} are in scope
    std::string m_text;
};

} // namespace rankstep::fuzz
