// SPDX-License-Identifier: MIT
// How a run's ranks are laid out in four dimensions (docs/simulation.md, "Layouts"): tensor
// parallel innermost, then context, then pipeline, data parallel outermost, the order of Llama 3's
// training run (Dubey et al., 2024, section 3.3.1), so that a tensor group's ranks are neighbours
// (one node's GPUs). Expert parallelism is carved out of the data-parallel ranks: the experts of a
// MoE layer spread over EXPERT data-parallel neighbours.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace rankstep::core {

enum class Axis { Tensor, Context, Pipeline, Data, Expert };
inline constexpr std::array<Axis, 5> kAxes = {Axis::Tensor, Axis::Context, Axis::Pipeline,
                                              Axis::Data, Axis::Expert};
// "tensor", "context", "pipeline", "data", "expert": the names of the command line and of Python.
const char *axisName(Axis axis);
// The axis of that name; false when there is none.
bool axisNamed(const std::string &name, Axis &axis);

// The degrees a run gives (1: that parallelism is not used). The data-parallel degree is what
// remains of the ranks: ranks / (tensor * context * pipeline).
struct Layout {
    int tensor = 1;
    int context = 1;
    int pipeline = 1;
    int expert = 1;
    bool isPlain() const { return tensor == 1 && context == 1 && pipeline == 1 && expert == 1; }
    bool operator==(const Layout &) const = default;
};

// A rank's place in each dimension, from 0.
struct Coords {
    int tensor = 0;
    int context = 0;
    int pipeline = 0;
    int data = 0;
    int expert = 0; // data % expert: which of its expert group's experts the rank holds
    int along(Axis axis) const;
};

// The layout of `ranks` ranks; data() is 0 for a layout the ranks cannot fill.
class RankLayout
{
public:
    RankLayout(int ranks, Layout layout);
    int ranks() const { return m_ranks; }
    const Layout &layout() const { return m_layout; }
    int data() const { return m_data; }
    int degree(Axis axis) const;
    Coords coords(int rank) const;
    int rankAt(const Coords &coords) const; // coords.expert is ignored: data says it
    // The ranks that differ from `rank` only along `axis`, ordered by their coordinate on it (so
    // a rank's position in its group is its coordinate); one rank when the degree is 1.
    std::vector<int> group(int rank, Axis axis) const;

private:
    int m_ranks;
    Layout m_layout;
    int m_data;
};

// "tensor 8 x pipeline 16" (the degrees that are not 1, data aside); empty for a plain layout.
std::string layoutText(const Layout &layout);

// Why `layout` cannot lay out `ranks` ranks, in a sentence naming the options ("--tensor 3 and
// --pipeline 2 need a multiple of 6 ranks, and 8 is not"); empty when it can.
std::string layoutProblem(int ranks, const Layout &layout);

} // namespace rankstep::core
