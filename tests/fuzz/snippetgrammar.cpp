// SPDX-License-Identifier: MIT
#include "snippetgrammar.h"

#include <array>

namespace rankstep::fuzz {

namespace {
constexpr int kMaxDepth = 3;
constexpr int kMaxStatementsPerBlock = 8;
constexpr std::array kMaps = {"weights", "opt_states", "activations", "grad_activations",
                              "grad_weights"};
} // namespace

std::string SnippetGrammar::source()
{
    m_text =
        "import asyncio\n"
        "from lib import Model, Weight, WeightGrad, PuzzleError, draw\n"
        "\n"
        "\n"
        "async def puzzle(model: Model) -> Model:\n"
        "    weights, opt_states, activations, grad_activations, grad_weights = "
        "model.storage()\n"
        "    v = [None] * 4\n";
    // Half the files go on past failed calls, as a learner's code inside try blocks does.
    m_forgiving = pick(2) == 1;
    block(1, 1 + pick(24));
    line(1, "return model");
    return m_text;
}

void SnippetGrammar::block(int depth, int statements)
{
    line(depth, "pass");
    for (int i = 0; i < statements && !exhausted(); ++i)
        statement(depth);
}

void SnippetGrammar::statement(int depth)
{
    if (depth < kMaxDepth && pick(6) == 0)
        compoundStatement(depth);
    else
        simpleStatement(depth);
}

void SnippetGrammar::simpleStatement(int depth)
{
    if (m_forgiving) {
        line(depth, "try:");
        simpleStatementBody(depth + 1);
        return line(depth,
                    "except Exception:\n" + std::string(std::size_t(depth + 1) * 4, ' ') + "pass");
    }
    simpleStatementBody(depth);
}

void SnippetGrammar::simpleStatementBody(int depth)
{
    switch (pick(16)) {
        case 0:
        case 1:
        case 2:
            return line(depth, target() + " = " + call());
        case 3:
        case 4:
            return line(depth, target() + ", " + target() + " = " + pairCall());
        case 5:
        case 6:
            return line(depth, target() + " = await " + communication());
        case 7:
            return line(depth, "await model.pass_to(" + integer() + ", " + expression() + ")");
        case 8:
            return line(depth, "del " + mapName() + "[" + key() + "]");
        case 9:
            return line(depth, mapName() + ".pop(" + key() + ")");
        case 10:
            return line(depth, "model.set_final_weight(" + layer() + ", " + expression() + ")");
        case 11:
            return line(depth, mapName() + "[" + key() + "] = " + expression());
        case 12: // started but never awaited, or awaited twice
            return line(
                depth, pick(2) ? communication() : "w = " + communication() + "; await w; await w");
        case 13:
            return line(depth,
                        pick(2) ? "await asyncio.sleep(0)" : "draw(model, " + expression() + ")");
        case 14:
            return line(depth, "v[" + std::to_string(pick(4)) + "] = " + expression() + " + " +
                                   expression());
        default:
            return line(depth, pick(2)
                                   ? "return " + expression()
                                   : "for k in list(" + mapName() + "): del " + mapName() + "[k]");
    }
}

void SnippetGrammar::compoundStatement(int depth)
{
    const int inner = 1 + pick(kMaxStatementsPerBlock);
    switch (pick(3)) {
        case 0:
            line(depth, "for i" + std::to_string(m_loopDepth) + " in range(" +
                            std::to_string(pick(5)) + "):");
            ++m_loopDepth;
            block(depth + 1, inner);
            --m_loopDepth;
            return;
        case 1:
            line(depth,
                 "if model.rank " + std::string(pick(2) ? "==" : "!=") + " " + integer() + ":");
            return block(depth + 1, inner);
        default:
            line(depth, "try:");
            block(depth + 1, inner);
            line(depth, pick(2) ? "except PuzzleError:" : "except Exception as e:");
            return block(depth + 1, pick(2));
    }
}

std::string SnippetGrammar::call()
{
    switch (pick(5)) {
        case 0:
            return "model.get_activation(" + batches() + ")";
        case 1:
            return "model.forward(" + layer() + ", " + expression() + ", " + expression() + ")";
        case 2:
            return "model.loss(" + expression() + ")";
        case 3:
            return "model.fake_grad(" + layer() + ", " + batches() + ")";
        default:
            return expression();
    }
}

std::string SnippetGrammar::pairCall()
{
    switch (pick(4)) {
        case 0:
            return "model.load_weights(" + layer() + ")";
        case 1:
            return "model.load_weights(" + layer() + ", " + integer() + ", " + integer() + ")";
        case 2:
            return "model.backward(" + layer() + ", " + expression() + ", " + expression() + ", " +
                   expression() + ")";
        default:
            return "model.update(" + layer() + ", " + expression() + ", " + expression() + ", " +
                   expression() + ")";
    }
}

std::string SnippetGrammar::communication()
{
    switch (pick(4)) {
        case 0:
            return "model.allreduce(" + expression() + ", " + layer() + group() + ")";
        case 1:
            return "model.allgather(" + expression() + ", " + layer() + group() + ")";
        case 2:
            return "model.scatterreduce(" + expression() + ", " + layer() + group() + ")";
        default:
            return pick(2) ? "model.receive()" : "model.receive(" + integer() + ")";
    }
}

std::string SnippetGrammar::expression()
{
    switch (pick(12)) {
        case 0:
        case 1:
        case 2:
        case 3:
            return mapName() + "[" + key() + "]";
        case 4:
            return mapName() + ".get(" + key() + ")";
        case 5:
        case 6:
            return "v[" + std::to_string(pick(4)) + "]";
        case 7:
            return "None";
        case 8:
            return integer();
        case 9:
            return pick(2) ? "\"text\"" : "model";
        case 10:
            return "Weight(" + layer() + ", model.LAYERS, 0, {0}, 1)";
        default:
            return "len(" + mapName() + ")";
    }
}

std::string SnippetGrammar::target()
{
    if (pick(4) == 0)
        return "v[" + std::to_string(pick(4)) + "]";
    return mapName() + "[" + key() + "]";
}

std::string SnippetGrammar::mapName()
{
    return kMaps[std::size_t(pick(int(kMaps.size())))];
}

std::string SnippetGrammar::key()
{
    if (pick(4) == 0)
        return layer() + ", " + integer();
    return layer();
}

std::string SnippetGrammar::layer()
{
    switch (pick(8)) {
        case 0:
            return m_loopDepth > 0 ? "i" + std::to_string(pick(m_loopDepth)) : "0";
        case 1:
            return "model.rank";
        case 2:
            return "model.LAYERS - 1";
        case 3:
            return "model.LAYERS";
        default:
            return std::to_string(pick(5) - 1);
    }
}

std::string SnippetGrammar::integer()
{
    switch (pick(6)) {
        case 0:
            return "model.rank + 1";
        case 1:
            return "model.RANKS";
        case 2:
            return "(model.rank - 1) % model.RANKS";
        default:
            return std::to_string(pick(6) - 1);
    }
}

std::string SnippetGrammar::batches()
{
    switch (pick(6)) {
        case 0:
            return "[model.rank]";
        case 1:
            return "range(model.BATCHES)";
        case 2:
            return "[" + integer() + ", " + integer() + "]";
        case 3:
            return "None";
        case 4:
            return "\"ab\"";
        default:
            return "{" + std::to_string(pick(4)) + "}";
    }
}

std::string SnippetGrammar::group()
{
    switch (pick(6)) {
        case 0:
            return ", [" + integer() + ", " + integer() + "]";
        case 1:
            return ", range(model.RANKS)";
        case 2:
            return ", [model.rank]";
        default:
            return "";
    }
}

void SnippetGrammar::line(int depth, const std::string &text)
{
    m_text.append(std::size_t(depth) * 4, ' ');
    m_text += text;
    m_text += '\n';
}

// The next byte picks among `choices`; once the input is used up, always the first choice.
int SnippetGrammar::pick(int choices)
{
    if (choices <= 1 || exhausted())
        return 0;
    return int(m_data[m_at++] % unsigned(choices));
}

} // namespace rankstep::fuzz
