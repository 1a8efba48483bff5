// SPDX-License-Identifier: MIT
// The checks of forward, backward and loss (docs/simulation.md, "Operations and their cost"): each
// failing one names rank, line and what is wrong, and changes nothing.
#include "testsupport.h"

#include <gtest/gtest.h>

namespace rankstep::testing {
namespace {

using core::CallSite;
using core::IndexSet;
using core::ObjectKind;

using ForwardChecks = EngineTest;

TEST_F(ForwardChecks, RejectAWeightThatIsNotComplete)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) { return m_engine.forward(at, 0, activation(0, {0}), weight(0, {1}, 4)); },
        11,
        "forward(layer 0): the weight holds only shards {1} of 4; forward needs the complete "
        "weight (allgather it first)"));
}

TEST_F(ForwardChecks, RejectTheWeightOfAnotherLayer)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) { return m_engine.forward(at, 0, activation(0, {0}), weight(1)); }, 12,
        "forward(layer 0): the weight belongs to layer 1, but forward at layer 0 needs the weight "
        "of layer 0"));
}

TEST_F(ForwardChecks, RejectAnActivationOfAnotherLayer)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) { return m_engine.forward(at, 1, activation(0, {0}), weight(1)); }, 13,
        "forward(layer 1): the activation is at layer 0, but forward at layer 1 needs the "
        "activation at layer 1"));
}

TEST_F(ForwardChecks, RejectALayerTheModelDoesNotHave)
{
    EXPECT_TRUE(
        rejects([&](CallSite at) { return m_engine.forward(at, 3, activation(3, {0}), weight(3)); },
                14, "forward(layer 3): layer 3 does not exist; this model has layers 0-2"));
}

TEST_F(ForwardChecks, PassWhenEverythingMatchesAndTakeOneStepPerBatch)
{
    const core::SimTime clock = m_engine.clock(kRank);
    auto out = m_engine.forward(CallSite{kRank, 15}, 1, activation(1, {0, 2, 3}), weight(1));
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(out->kind, ObjectKind::Activation);
    EXPECT_EQ(out->layer, 2);
    EXPECT_EQ(out->batches, (IndexSet{0, 2, 3}));
    const core::Event &event = m_engine.trace().events.back();
    EXPECT_EQ(event.start, clock);
    EXPECT_EQ(event.duration.toString(), "3");
    EXPECT_EQ(event.line, 15);
    EXPECT_EQ((m_engine.clock(kRank) - clock).toString(), "3");
}

using BackwardChecks = EngineTest;

TEST_F(BackwardChecks, RejectAWeightThatIsNotComplete)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.backward(at, 1, activation(1, {0}), activationGrad(1, {0}),
                                     weight(1, {0}, 2));
        },
        21,
        "backward(layer 1): the weight holds only shards {0} of 2; backward needs the complete"));
}

TEST_F(BackwardChecks, RejectTheWeightOfAnotherLayer)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.backward(at, 1, activation(1, {0}), activationGrad(1, {0}), weight(0));
        },
        22,
        "backward(layer 1): the weight belongs to layer 0, but backward at layer 1 needs the "
        "weight of layer 1"));
}

TEST_F(BackwardChecks, RejectAnActivationOfAnotherLayer)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.backward(at, 1, activation(2, {0}), activationGrad(1, {0}), weight(1));
        },
        23,
        "backward(layer 1): the activation is at layer 2, but backward at layer 1 needs the "
        "activation at layer 1"));
}

TEST_F(BackwardChecks, RejectAnActivationGradientOfAnotherLayer)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.backward(at, 1, activation(1, {0}), activationGrad(2, {0}), weight(1));
        },
        24,
        "backward(layer 1): the activation gradient is for layer 2, but backward at layer 1 "
        "needs the gradient for layer 1 (what backward at layer 2 returned)"));
}

TEST_F(BackwardChecks, RejectAnActivationAndGradientOfDifferentBatches)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.backward(at, 1, activation(1, {0, 1}), activationGrad(1, {1}),
                                     weight(1));
        },
        25,
        "backward(layer 1): the activation covers batches 0 and 1 but the activation gradient "
        "covers batch 1; both must cover the same batches"));
}

TEST_F(BackwardChecks, PassWhenEverythingMatchesAndReturnAFullWeightGradient)
{
    const core::SimTime clock = m_engine.clock(kRank);
    auto out = m_engine.backward(CallSite{kRank, 26}, 1, activation(1, {1, 3}),
                                 activationGrad(1, {1, 3}), weight(1));
    ASSERT_TRUE(out) << out.error().message;
    const auto &[gradWeight, gradActivation] = *out;
    EXPECT_EQ(gradWeight.kind, ObjectKind::WeightGrad);
    EXPECT_EQ(gradWeight.layer, 1);
    EXPECT_EQ(gradWeight.batches, (IndexSet{1, 3}));
    EXPECT_TRUE(gradWeight.isComplete());
    EXPECT_EQ(gradActivation.kind, ObjectKind::ActivationGrad);
    EXPECT_EQ(gradActivation.layer, 0);
    EXPECT_EQ(gradActivation.batches, (IndexSet{1, 3}));
    EXPECT_EQ(m_engine.trace().events.back().duration.toString(), "2");
    EXPECT_EQ((m_engine.clock(kRank) - clock).toString(), "2");
}

using LossChecks = EngineTest;

TEST_F(LossChecks, RejectAnActivationThatIsNotTheModelsOutput)
{
    EXPECT_TRUE(rejects([&](CallSite at) { return m_engine.loss(at, activation(2, {0})); }, 31,
                        "loss: the activation is at layer 2, but the loss needs the model's "
                        "output (the activation at layer 3"));
}

TEST_F(LossChecks, PassOnTheOutputWithAnEventOfLengthZero)
{
    const core::SimTime clock = m_engine.clock(kRank);
    auto grad = m_engine.loss(CallSite{kRank, 32}, activation(3, {0, 1}));
    ASSERT_TRUE(grad) << grad.error().message;
    EXPECT_EQ(grad->kind, ObjectKind::ActivationGrad);
    EXPECT_EQ(grad->layer, 2);
    EXPECT_EQ(grad->batches, (IndexSet{0, 1}));
    const core::Event &event = m_engine.trace().events.back();
    EXPECT_EQ(event.op, core::OpKind::Loss);
    EXPECT_EQ(event.start, clock);
    EXPECT_EQ(event.duration.ticks(), 0);
    EXPECT_EQ(m_engine.clock(kRank), clock);
}

TEST_F(LossChecks, EventMemoryIsTheMemoryBeforeTheResultIsStored)
{
    // Rank 2 holds one full weight (512 * 512) when it calls the loss.
    ASSERT_TRUE(m_engine.loss(CallSite{kRank, 33}, activation(3, {0})));
    EXPECT_EQ(m_engine.trace().events.back().memory, 262144);
}

} // namespace
} // namespace rankstep::testing
