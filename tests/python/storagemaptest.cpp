// SPDX-License-Identifier: MIT
// model.storage()'s five maps behave like the dicts of the notebook, and every change to them
// is recorded with the learner's line.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace rankstep::pythontests {
namespace {

using core::ErrorKind;

TEST(StorageMap, BehavesLikeADictInInsertionOrder)
{
    const std::string source = R"py(
def puzzle(model):
    acts = model.activations
    for b in range(4):
        acts[0, b] = model.get_activation([b])
    acts[1] = model.get_activation([0, 1])
    acts[0, 1] = model.get_activation([1])
    print(list(acts.keys()))
    del acts[0, 0], acts[0, 2]
    print(list(acts))
    print(len(acts), (0, 1) in acts, (0, 0) in acts, 1 in acts, (1,) in acts, 0 in acts)
    print([sorted(v.batches) for v in acts.values()])
    print([(k, sorted(v.batches)) for k, v in acts.items()])
    print(acts.get((0, 0)), acts.get((0, 0), "none"), sorted(acts.get(1).batches))
    acts[0, 0] = model.get_activation([0])
    print([k for k in acts])
    print(sorted(acts[0, 3].batches), bool(acts), bool(model.grad_weights))
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 1, 2, 4));

    ASSERT_FALSE(outcome.trace.error.has_value()) << outcome.trace.error->message;
    // What a Python dict prints for the same statements: assigning an existing key keeps its
    // place, deleting and assigning again moves it to the end; (1,) is not 1, nor 0 (0, 0).
    EXPECT_EQ(outcome.output,
              "[(0, 0), (0, 1), (0, 2), (0, 3), 1]\n"
              "[(0, 1), (0, 3), 1]\n"
              "3 True False True False False\n"
              "[[1], [3], [0, 1]]\n"
              "[((0, 1), [1]), ((0, 3), [3]), (1, [0, 1])]\n"
              "None none [0, 1]\n"
              "[(0, 1), (0, 3), 1, (0, 0)]\n"
              "[3] True False\n");
}

TEST(StorageMap, RaisesKeyErrorForAMissingKeyAtItsLine)
{
    const std::string source = R"py(
def puzzle(model):
    model.weights[0], model.opt_states[0] = model.load_weights(0)
    weight = model.weights[0, 0]  # missing-key
)py";
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "puzzle", 1, 2, 4)).trace;

    ASSERT_TRUE(
        hasError(trace, ErrorKind::Exception, 0, lineOf(source, "# missing-key"), "KeyError"));
    EXPECT_NE(trace.error->message.find("(0, 0)"), std::string::npos) << trace.error->message;
    // It says what the dictionary does hold: the int key 0 stored on the line before.
    EXPECT_NE(trace.error->message.find("it holds 0"), std::string::npos) << trace.error->message;
}

TEST(StorageMap, DeletingAMissingKeyRaisesKeyError)
{
    const std::string source = R"py(
def puzzle(model):
    model.activations[0] = model.get_activation([0])
    del model.activations[0], model.activations[1]  # delete-two
)py";
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "puzzle", 1, 2, 4)).trace;

    ASSERT_TRUE(
        hasError(trace, ErrorKind::Exception, 0, lineOf(source, "# delete-two"), "KeyError"));
    // The first target was deleted before the second failed: a set, then a delete.
    ASSERT_EQ(trace.changes.size(), 2u);
    EXPECT_FALSE(trace.changes[1].isSet());
    EXPECT_EQ(trace.changes[1].key, core::Key(0));
}

TEST(StorageMap, ChangesAndEventsCarryTheLearnersLine)
{
    const std::string source = R"py(
def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    weights[0], opt_states[0] = model.load_weights(0)  # load-here
    activations[0] = model.get_activation([0, 1])  # input-here
    out = model.forward(0, activations[0], weights[0])  # forward-here
    activations[1] = out  # store-here
    del activations[0]  # delete-here
)py";
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "puzzle", 1, 2, 4)).trace;

    ASSERT_FALSE(trace.error.has_value()) << trace.error->message;
    ASSERT_EQ(trace.events.size(), 1u);
    const core::Event &forward = trace.events.front();
    EXPECT_EQ(forward.op, core::OpKind::Forward);
    EXPECT_EQ(forward.line, lineOf(source, "# forward-here"));
    EXPECT_EQ(forward.duration.toString(), "2"); // one step per batch, two batches

    // weights[0], opt_states[0], activations[0], activations[1], del activations[0].
    ASSERT_EQ(trace.changes.size(), 5u);
    EXPECT_EQ(trace.changes[0].map, core::MapKind::Weights);
    EXPECT_EQ(trace.changes[0].line, lineOf(source, "# load-here"));
    EXPECT_EQ(trace.changes[1].map, core::MapKind::OptStates);
    EXPECT_EQ(trace.changes[1].line, lineOf(source, "# load-here"));
    EXPECT_EQ(trace.changes[2].line, lineOf(source, "# input-here"));
    const core::StorageChange &set = trace.changes[3];
    EXPECT_EQ(set.map, core::MapKind::Activations);
    EXPECT_EQ(set.key, core::Key(1));
    EXPECT_EQ(set.line, lineOf(source, "# store-here"));
    ASSERT_TRUE(set.isSet());
    EXPECT_EQ(trace.changes.object(set)->layer, 1);
    EXPECT_EQ(set.eventCount, 1u); // after the forward
    const core::StorageChange &erase = trace.changes[4];
    EXPECT_EQ(erase.key, core::Key(0));
    EXPECT_FALSE(erase.isSet());
    EXPECT_EQ(erase.line, lineOf(source, "# delete-here"));
}

TEST(StorageMap, KeysAreIntsOrTuplesOfInts)
{
    const std::string source = R"py(
def puzzle(model):
    model.activations["input"] = model.get_activation([0])  # string-key
)py";
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "puzzle", 1, 2, 4)).trace;

    ASSERT_TRUE(
        hasError(trace, ErrorKind::Exception, 0, lineOf(source, "# string-key"), "TypeError"));
    EXPECT_NE(trace.error->message.find("ints or tuples of ints"), std::string::npos)
        << trace.error->message;
    EXPECT_TRUE(trace.changes.empty());
}

// A key past an int's range (weights[10**30]) said "RuntimeError: Unable to cast Python instance
// to C++ type": it says what a key may be, at the line, and stores nothing.
TEST(StorageMap, AKeyPastAnIntsRangeSaysWhatKeysMayBeAtItsLine)
{
    const std::string source = R"py(
def puzzle(model):
    weight, opt = model.load_weights(0)
    model.weights[0, 10**30] = weight  # huge-in-tuple
)py";
    const std::string scalar = R"py(
def puzzle(model):
    weight, opt = model.load_weights(0)
    model.weights[-10**30] = weight  # huge-key
)py";
    python::Runtime runtime;
    for (const auto &[code, mark, number] :
         {std::tuple(source, "# huge-in-tuple", "1" + std::string(30, '0')),
          std::tuple(scalar, "# huge-key", "-1" + std::string(30, '0'))}) {
        const core::Trace trace = runtime.run(makeRequest(code, "puzzle", 1, 2, 4)).trace;
        ASSERT_TRUE(hasError(trace, ErrorKind::Exception, 0, lineOf(code, mark), "OverflowError"));
        const std::string &message = trace.error->message;
        EXPECT_NE(message.find("storage keys are ints or tuples of ints from -2147483648 to "
                               "2147483647"),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find(number + " is out of that range"), std::string::npos) << message;
        EXPECT_EQ(message.find("cast"), std::string::npos) << message;
        EXPECT_TRUE(trace.changes.empty());
    }
}

TEST(StorageMap, MemoryIsTheSumOfWhatTheMapsHold)
{
    // docs/simulation.md: a full weight (and its optimizer state) is HIDDEN * HIDDEN, an activation
    // of b batches b * HIDDEN * LENGTH; a quarter shard is a quarter of a weight.
    const std::string source = R"py(
from lib import HIDDEN, LENGTH


def puzzle(model):
    model.weights[0], model.opt_states[0] = model.load_weights(0)
    model.weights[1], model.opt_states[1] = model.load_weights(1, 2, 4)
    model.activations[0] = model.get_activation([0, 1, 2])
    expected = 2 * HIDDEN * HIDDEN + 2 * HIDDEN * HIDDEN // 4 + 3 * HIDDEN * LENGTH
    print(model.memory() == expected, model.memory())
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 1, 2, 4));

    ASSERT_FALSE(outcome.trace.error.has_value()) << outcome.trace.error->message;
    const std::int64_t expected = 2 * 512 * 512 + 2 * 512 * 512 / 4 + 3 * 512 * 256;
    EXPECT_EQ(outcome.output, "True " + std::to_string(expected) + "\n");
    EXPECT_EQ(outcome.trace.changes.back().memoryAfter, expected);
}

} // namespace
} // namespace rankstep::pythontests
