// SPDX-License-Identifier: MIT
#include "layout.h"

namespace rankstep::core {

const char *axisName(Axis axis)
{
    switch (axis) {
        case Axis::Tensor:
            return "tensor";
        case Axis::Context:
            return "context";
        case Axis::Pipeline:
            return "pipeline";
        case Axis::Data:
            return "data";
        case Axis::Expert:
            return "expert";
    }
    return "?";
}

bool axisNamed(const std::string &name, Axis &axis)
{
    for (Axis a : kAxes)
        if (name == axisName(a)) {
            axis = a;
            return true;
        }
    return false;
}

int Coords::along(Axis axis) const
{
    switch (axis) {
        case Axis::Tensor:
            return tensor;
        case Axis::Context:
            return context;
        case Axis::Pipeline:
            return pipeline;
        case Axis::Data:
            return data;
        case Axis::Expert:
            return expert;
    }
    return 0;
}

namespace {

long long model(const Layout &layout)
{
    return (long long)layout.tensor * layout.context * layout.pipeline;
}

} // namespace

RankLayout::RankLayout(int ranks, Layout layout)
    : m_ranks(ranks)
    , m_layout(layout)
    , m_data(layoutProblem(ranks, layout).empty() ? int(ranks / model(layout)) : 0)
{}

int RankLayout::degree(Axis axis) const
{
    switch (axis) {
        case Axis::Tensor:
            return m_layout.tensor;
        case Axis::Context:
            return m_layout.context;
        case Axis::Pipeline:
            return m_layout.pipeline;
        case Axis::Data:
            return m_data;
        case Axis::Expert:
            return m_layout.expert;
    }
    return 1;
}

Coords RankLayout::coords(int rank) const
{
    Coords c;
    int rest = rank;
    c.tensor = rest % m_layout.tensor;
    rest /= m_layout.tensor;
    c.context = rest % m_layout.context;
    rest /= m_layout.context;
    c.pipeline = rest % m_layout.pipeline;
    c.data = rest / m_layout.pipeline;
    c.expert = c.data % m_layout.expert;
    return c;
}

int RankLayout::rankAt(const Coords &c) const
{
    return c.tensor + m_layout.tensor * (c.context + m_layout.context *
                                                         (c.pipeline + m_layout.pipeline * c.data));
}

std::vector<int> RankLayout::group(int rank, Axis axis) const
{
    const Coords at = coords(rank);
    std::vector<int> ranks;
    if (axis == Axis::Expert) {
        // The EXPERT data-parallel neighbours: data coordinates that share data / expert.
        const int first = at.data - at.expert;
        for (int e = 0; e < m_layout.expert; ++e) {
            Coords c = at;
            c.data = first + e;
            ranks.push_back(rankAt(c));
        }
        return ranks;
    }
    const int n = degree(axis);
    for (int i = 0; i < n; ++i) {
        Coords c = at;
        switch (axis) {
            case Axis::Tensor:
                c.tensor = i;
                break;
            case Axis::Context:
                c.context = i;
                break;
            case Axis::Pipeline:
                c.pipeline = i;
                break;
            case Axis::Data:
            case Axis::Expert:
                c.data = i;
                break;
        }
        ranks.push_back(rankAt(c));
    }
    return ranks;
}

std::string layoutText(const Layout &layout)
{
    std::string text;
    for (auto [name, degree] : {std::pair{"tensor", layout.tensor},
                                {"context", layout.context},
                                {"pipeline", layout.pipeline},
                                {"expert", layout.expert}})
        if (degree != 1)
            text += (text.empty() ? "" : " x ") + std::string(name) + " " + std::to_string(degree);
    return text;
}

std::string layoutProblem(int ranks, const Layout &layout)
{
    for (Axis axis : {Axis::Tensor, Axis::Context, Axis::Pipeline, Axis::Expert}) {
        const int degree = axis == Axis::Tensor     ? layout.tensor
                           : axis == Axis::Context  ? layout.context
                           : axis == Axis::Pipeline ? layout.pipeline
                                                    : layout.expert;
        if (degree < 1)
            return std::string("--") + axisName(axis) + " must be at least 1, not " +
                   std::to_string(degree);
    }
    const long long product = model(layout);
    if (product > ranks || ranks % product != 0) {
        std::string named;
        for (Axis axis : {Axis::Tensor, Axis::Context, Axis::Pipeline}) {
            const int degree = axis == Axis::Tensor    ? layout.tensor
                               : axis == Axis::Context ? layout.context
                                                       : layout.pipeline;
            if (degree == 1)
                continue;
            named += (named.empty() ? "" : " x ") + std::string("--") + axisName(axis) + " " +
                     std::to_string(degree);
        }
        const bool several = named.find(" x ") != std::string::npos;
        return named + (several ? " need" : " needs") + " a multiple of " +
               std::to_string(product) + " ranks, and " + std::to_string(ranks) + " is not one";
    }
    const long long data = ranks / product;
    if (data % layout.expert != 0)
        return "--expert " + std::to_string(layout.expert) +
               " splits the data-parallel ranks into expert groups, and there are " +
               std::to_string(data) +
               " of them (ranks / (tensor x context x pipeline)): give a "
               "divisor of " +
               std::to_string(data);
    return {};
}

} // namespace rankstep::core
