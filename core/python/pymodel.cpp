// SPDX-License-Identifier: MIT
// Model, its five storage dictionaries, Dist, and the awaitable collectives, as Python classes.
#include "pymodel.h"

#include "core/layout.h"
#include "core/router.h"
#include "core/sentences.h"
#include "fastinstance.h"
#include "heldoutside.h"
#include "learnererror.h"
#include "waiter.h"

#include <pybind11/stl.h>

#include <climits>
#include <optional>
#include <stdexcept>
#include <string>

namespace rankstep::python {
namespace {

// The most of a key part's digits an error quotes (10**1000 has a thousand).
constexpr std::size_t kMostKeyCharacters = 40;

// An exact int that fits (nearly every key part) without a conversion object; else 0 and false.
bool exactInt(PyObject *item, int &out)
{
    if (!PyLong_CheckExact(item))
        return false;
    int overflow = 0;
    const long value = PyLong_AsLongAndOverflow(item, &overflow);
    if (overflow != 0 || value < INT_MIN || value > INT_MAX)
        return false;
    out = int(value);
    return true;
}

// A key's part that is not an exact int that fits: an index (a bool, a NumPy integer) as its int,
// one past an int's range said plainly (pybind11's own words were "Unable to cast Python
// instance to C++ type").
int keyPart(py::handle item)
{
    int part = 0;
    if (exactInt(item.ptr(), part))
        return part;
    const py::int_ value(py::reinterpret_borrow<py::object>(item));
    int overflow = 0;
    const long long number = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow != 0 || number < INT_MIN || number > INT_MAX)
        throw std::overflow_error(core::say(core::sentence::kKeyOutOfRange,
                                            {std::to_string(INT_MIN), std::to_string(INT_MAX),
                                             boundedRepr(item.ptr(), kMostKeyCharacters)}));
    return int(number);
}

core::Key toKey(py::handle key)
{
    int a = 0, b = 0, c = 0;
    if (exactInt(key.ptr(), a))
        return core::Key(a);
    if (PyTuple_CheckExact(key.ptr())) {
        // Pairs and a tensor block's triples (`activations[layer, mb, 1]`) without a vector.
        const Py_ssize_t size = PyTuple_GET_SIZE(key.ptr());
        if (size == 2 && exactInt(PyTuple_GET_ITEM(key.ptr(), 0), a) &&
            exactInt(PyTuple_GET_ITEM(key.ptr(), 1), b))
            return core::Key(a, b);
        if (size == 3 && exactInt(PyTuple_GET_ITEM(key.ptr(), 0), a) &&
            exactInt(PyTuple_GET_ITEM(key.ptr(), 1), b) &&
            exactInt(PyTuple_GET_ITEM(key.ptr(), 2), c))
            return core::Key(a, b, c);
    }
    if (py::isinstance<py::tuple>(key)) {
        std::vector<int> parts;
        for (py::handle item : key) {
            if (!PyIndex_Check(item.ptr()))
                throw py::type_error(
                    "storage keys are ints or tuples of ints, like weights[3] or "
                    "activations[0, mb]");
            parts.push_back(keyPart(item));
        }
        return core::Key::ofTuple(std::move(parts));
    }
    if (!PyIndex_Check(key.ptr()))
        throw py::type_error(
            "storage keys are ints or tuples of ints, like weights[3] or "
            "activations[0, mb]; got " +
            std::string(Py_TYPE(key.ptr())->tp_name));
    return core::Key(keyPart(key));
}

py::object fromKey(const core::Key &key)
{
    if (!key.tuple)
        return py::int_(key.parts.at(0));
    py::tuple out(key.parts.size());
    for (std::size_t i = 0; i < key.parts.size(); ++i)
        out[i] = py::int_(key.parts[i]);
    return out;
}

// One of model.storage()'s dictionaries: a dict of puzzle objects kept in the engine.
struct StorageMap {
    std::shared_ptr<Session> session;
    int rank = 0;
    core::MapKind kind = core::MapKind::Weights;

    core::CallSite at() const { return {rank, learnerLine(session->fileName)}; }
    Holder holder() const { return {rank, session->run}; }
    // docs/simulation.md, "An object belongs to a rank": another rank's code may not use it.
    void refuseOthers() const { refuseOtherRanks(*session, rank, core::mapName(kind)); }
    const core::Storage &storage() const
    {
        refuseOthers();
        return engineOf(*session).storage(rank);
    }
    const core::Object *find(const core::Key &key) const
    {
        refuseOthers();
        return engineOf(*session).find(rank, kind, key);
    }

    // "weights of rank 0 has no key 3; it holds 0, 1": what is there points at the mistake.
    std::string missing(const core::Key &key, bool deleting = false) const
    {
        namespace sentence = core::sentence;
        const std::string map = core::mapName(kind), who = std::to_string(rank),
                          name = core::formatKey(key);
        const auto entries = storage().entries(kind);
        if (entries.empty())
            return core::say(deleting ? sentence::kNoKeyToDeleteEmpty : sentence::kNoKeyEmpty,
                             {map, who, name});
        std::string held;
        for (std::size_t i = 0; i < entries.size() && i < 8; ++i)
            held += (i ? ", " : "") + core::formatKey(entries[i].first);
        held += entries.size() > 8 ? ", ..." : "";
        return core::say(deleting ? sentence::kNoKeyToDeleteHolds : sentence::kNoKeyHolds,
                         {map, who, name, held});
    }

    // The entry's object as a Python object that stands for what the entry holds (heldoutside.h).
    py::object handOut(const core::Key &key, const core::Object &object) const
    {
        return wrapStored(object, holder(), engineOf(*session).storage(rank).note(kind, key));
    }
    py::object get(py::handle key) const
    {
        const core::Key k = toKey(key);
        const core::Object *found = find(k);
        if (!found)
            throw py::key_error(missing(k));
        return handOut(k, *found);
    }
    void set(py::handle key, py::handle value) const
    {
        refuseOthers();
        const core::Key k = toKey(key);
        const core::Object &object = ownPuzzleObject(value, core::mapName(kind), holder());
        core::Engine &engine = engineOf(*session);
        if (auto status = engine.store(at(), kind, k, object); !status)
            raiseError(status.error());
        noteStored(engine.storage(rank), kind, k, value, session->run);
    }
    void erase(py::handle key) const
    {
        const core::Key k = toKey(key);
        if (!find(k))
            throw py::key_error(missing(k, true));
        core::Engine &engine = engineOf(*session);
        const std::uint32_t note = engine.storage(rank).note(kind, k);
        if (auto status = engine.erase(at(), kind, k); !status)
            raiseError(status.error());
        noteErased(note);
    }
    py::list keys() const
    {
        py::list out;
        for (const auto &[key, object] : storage().entries(kind))
            out.append(fromKey(key));
        return out;
    }
    py::list values() const
    {
        py::list out;
        for (const auto &[key, object] : storage().entries(kind))
            out.append(handOut(key, *object));
        return out;
    }
    py::list items() const
    {
        py::list out;
        for (const auto &[key, object] : storage().entries(kind))
            out.append(py::make_tuple(fromKey(key), handOut(key, *object)));
        return out;
    }
};

struct PyDist {
    int ranks = 1;
    std::shared_ptr<Session> session;
};

PyModel newModel(const std::shared_ptr<Session> &session, int rank)
{
    PyModel model{session, rank, {}, {}};
    for (int k = 0; k < core::kMapCount; ++k)
        model.maps.push_back(py::cast(StorageMap{session, rank, core::MapKind(k)}));
    return model;
}

PyModel standaloneModel(int layers, int batches, int rank, PyDist &dist)
{
    if (!dist.session) {
        core::RunConfig config;
        config.ranks = dist.ranks;
        config.layers = layers;
        config.batches = batches;
        dist.session = std::make_shared<Session>();
        dist.session->owned = std::make_unique<core::Engine>(config);
        dist.session->engine = dist.session->owned.get();
        dist.session->standalone = true;
        py::object main = py::module_::import("__main__");
        dist.session->fileName = py::str(main.attr("__dict__").attr("get")("__file__", "<stdin>"));
    }
    const core::RunConfig &config = dist.session->engine->config();
    if (config.layers != layers || config.batches != batches)
        throw py::value_error("every Model of one Dist needs the same layers and batches");
    if (rank < 0 || rank >= config.ranks)
        throw py::value_error("rank " + std::to_string(rank) + " does not exist in Dist(" +
                              std::to_string(config.ranks) + ")");
    return newModel(dist.session, rank);
}

// The model `self` for a call of its rank's code: another rank's code may not use it.
const PyModel &ownModel(py::handle self)
{
    const PyModel &model = FastSelf<PyModel>::of(self);
    model.acting();
    return model;
}

std::string statusText(const PyModel &m)
{
    m.acting();
    const core::Engine &engine = m.engine();
    const core::Storage &storage = engine.storage(m.rank);
    std::string text = "rank " + std::to_string(m.rank) + " at time " +
                       engine.clock(m.rank).toString() + ", memory " +
                       std::to_string(storage.memory());
    for (int k = 0; k < core::kMapCount; ++k) {
        text += std::string("\n  ") + core::mapName(core::MapKind(k)) + ":";
        for (const auto &[key, object] : storage.entries(core::MapKind(k)))
            text += " [" + core::formatKey(key) + "] " + core::describe(*object);
    }
    return text;
}

void markSnapshot(const std::string &label)
{
    Session *session = activeSession();
    if (!session || !session->engine)
        return;
    session->engine->mark(
        core::CallSite{session->engine->currentRank(), learnerLine(session->fileName)}, label);
}

PyObject *storageSubscript(PyObject *self, PyObject *key) noexcept
{
    try {
        return FastSelf<StorageMap>::of(self).get(key).release().ptr();
    } catch (...) {
        setPythonError();
        return nullptr;
    }
}

int storageAssign(PyObject *self, PyObject *key, PyObject *value) noexcept // value null: del
{
    try {
        const StorageMap &map = FastSelf<StorageMap>::of(self);
        if (value)
            map.set(key, value);
        else
            map.erase(key);
        return 0;
    } catch (...) {
        setPythonError();
        return -1;
    }
}

void bindStorage(py::module_ &m)
{
    py::class_<StorageMap>(m, "StorageMap", "One of model.storage()'s dictionaries.")
        .def("__getitem__", [](py::handle self,
                               py::handle key) { return FastSelf<StorageMap>::of(self).get(key); })
        .def("__setitem__",
             [](py::handle self, py::handle key, py::handle value) {
                 FastSelf<StorageMap>::of(self).set(key, value);
             })
        .def("__delitem__",
             [](py::handle self, py::handle key) { FastSelf<StorageMap>::of(self).erase(key); })
        .def("__contains__",
             [](const StorageMap &s, py::handle key) { return s.find(toKey(key)) != nullptr; })
        .def("__len__", [](const StorageMap &s) { return s.storage().size(s.kind); })
        .def("__bool__", [](const StorageMap &s) { return s.storage().size(s.kind) > 0; })
        .def("__iter__", [](const StorageMap &s) { return py::iter(s.keys()); })
        .def("keys", &StorageMap::keys)
        .def("values", &StorageMap::values)
        .def("items", &StorageMap::items)
        .def(
            "get",
            [](const StorageMap &s, py::handle key, py::object fallback) -> py::object {
                const core::Key k = toKey(key);
                const core::Object *found = s.find(k);
                return found ? s.handOut(k, *found) : fallback;
            },
            py::arg("key"), py::arg("default") = py::none())
        .def("pop",
             [](StorageMap &s, py::handle key) {
                 py::object value = s.get(key);
                 s.erase(key);
                 return value;
             })
        .def("__repr__", [](const StorageMap &s) {
            std::string text = "{";
            for (const auto &[key, object] : s.storage().entries(s.kind))
                text += (text.size() > 1 ? ", " : "") + core::formatKey(key) + ": " +
                        core::describe(*object);
            return text + "}";
        });
    auto *type = reinterpret_cast<PyTypeObject *>(py::type::of<StorageMap>().ptr());
    FastSelf<StorageMap>::type = type;
    // `weights[layer]`, `weights[layer] = w`, `del weights[layer]` straight from the type's
    // slots: pybind11's were the generic slot wrappers that look `__getitem__` up by name and call
    // it through pybind11's dispatcher (argument loaders, overload loop) on every access.
    type->tp_as_mapping->mp_subscript = &storageSubscript;
    type->tp_as_mapping->mp_ass_subscript = &storageAssign;
}

core::RankLayout layoutOf(const PyModel &s)
{
    return core::RankLayout(s.engine().ranks(), s.engine().config().layout);
}

int degree(py::handle self_, core::Axis axis)
{
    return layoutOf(FastSelf<PyModel>::of(self_)).degree(axis);
}

py::dict coordsOf(py::handle self_)
{
    const PyModel &s = FastSelf<PyModel>::of(self_);
    const core::Coords coords = layoutOf(s).coords(s.rank);
    py::dict out;
    for (core::Axis axis : core::kAxes)
        out[core::axisName(axis)] = coords.along(axis);
    return out;
}

py::list groupOf(py::handle self_, const std::string &name)
{
    const PyModel &s = FastSelf<PyModel>::of(self_);
    core::Axis axis;
    if (!core::axisNamed(name, axis))
        throw py::value_error(
            "group(axis): the axes are 'tensor', 'context', 'pipeline', 'data' "
            "and 'expert'");
    py::list out;
    for (int rank : layoutOf(s).group(s.rank, axis))
        out.append(rank);
    return out;
}

} // namespace

py::object makeModel(const std::shared_ptr<Session> &session, int rank)
{
    return py::cast(newModel(session, rank));
}

void bindModel(py::module_ &m)
{
    bindStorage(m);
    bindWaiter(m);
    py::class_<PyDist>(m, "Dist", "The ranks of a run: Dist(4) is four GPUs.")
        .def(py::init([](int ranks) {
                 if (ranks < 1)
                     throw py::value_error("Dist needs at least one rank");
                 return PyDist{ranks, nullptr};
             }),
             py::arg("total"))
        .def_readonly("ranks", &PyDist::ranks);

    using core::OpKind;
    py::class_<PyModel> model(m, "Model", "One rank's view of the simulated model.");
    model
        .def(py::init(&standaloneModel), py::arg("layers"), py::arg("batches"), py::arg("rank"),
             py::arg("dist"))
        .def_readonly("rank", &PyModel::rank)
        .def_property_readonly("RANKS",
                               [](py::handle self_) {
                                   const PyModel &s = FastSelf<PyModel>::of(self_);
                                   return s.engine().ranks();
                               })
        .def_property_readonly("LAYERS",
                               [](py::handle self_) {
                                   const PyModel &s = FastSelf<PyModel>::of(self_);
                                   return s.engine().config().layers;
                               })
        .def_property_readonly("BATCHES",
                               [](py::handle self_) {
                                   const PyModel &s = FastSelf<PyModel>::of(self_);
                                   return s.engine().config().batches;
                               })
        .def_property_readonly("TENSOR",
                               [](py::handle self_) { return degree(self_, core::Axis::Tensor); })
        .def_property_readonly("CONTEXT",
                               [](py::handle self_) { return degree(self_, core::Axis::Context); })
        .def_property_readonly("PIPELINE",
                               [](py::handle self_) { return degree(self_, core::Axis::Pipeline); })
        .def_property_readonly("DATA",
                               [](py::handle self_) { return degree(self_, core::Axis::Data); })
        .def_property_readonly("EXPERT",
                               [](py::handle self_) { return degree(self_, core::Axis::Expert); })
        .def_property_readonly("coords", &coordsOf,
                               "This rank's place in the layout: a dict of 'tensor', 'context', "
                               "'pipeline', 'data' and 'expert' (docs/simulation.md, \"Layouts\")")
        .def(
            "expert_of",
            [](py::handle self_, int batch) {
                const PyModel &s = FastSelf<PyModel>::of(self_);
                const core::RunConfig &config = s.engine().config();
                if (batch < 0 || batch >= config.batches)
                    throw py::value_error("expert_of(batch): there is no batch " +
                                          std::to_string(batch) + "; the batches are 0-" +
                                          std::to_string(config.batches - 1));
                return core::expertOf(batch, config.layout.expert, config.cost.routerSkew);
            },
            py::arg("batch"),
            "The expert the router sends this batch's tokens to (docs/simulation.md, \"Expert "
            "parallelism\")")
        .def("group", &groupOf, py::arg("axis"),
             "The ranks that differ from this one only along `axis` ('tensor', 'context', "
             "'pipeline', 'data' or 'expert'), ordered by their place on it: the `group=` of a "
             "collective")
        .def_property_readonly("weights",
                               [](py::handle self_) {
                                   const PyModel &s = ownModel(self_);
                                   return s.maps[0];
                               })
        .def_property_readonly("opt_states",
                               [](py::handle self_) {
                                   const PyModel &s = ownModel(self_);
                                   return s.maps[1];
                               })
        .def_property_readonly("activations",
                               [](py::handle self_) {
                                   const PyModel &s = ownModel(self_);
                                   return s.maps[2];
                               })
        .def_property_readonly("grad_activations",
                               [](py::handle self_) {
                                   const PyModel &s = ownModel(self_);
                                   return s.maps[3];
                               })
        .def_property_readonly("grad_weights",
                               [](py::handle self_) {
                                   const PyModel &s = ownModel(self_);
                                   return s.maps[4];
                               })
        .def("storage",
             [](py::handle self_) {
                 const PyModel &s = ownModel(self_);
                 return py::make_tuple(s.maps[0], s.maps[1], s.maps[2], s.maps[3], s.maps[4]);
             })
        .def(
            "get_activation",
            [](py::handle self_, py::handle batches) {
                const PyModel &s = ownModel(self_);
                return wrapObject(
                    unwrap(s.engine().getActivation(s.at(), toIndexSet(batches, "batches"))),
                    s.acting());
            },
            py::arg("batches"))
        .def(
            "fake_grad",
            [](py::handle self_, int layer, py::handle batches) {
                const PyModel &s = ownModel(self_);
                return wrapObject(
                    unwrap(s.engine().fakeGrad(s.at(), layer, toIndexSet(batches, "batches"))),
                    s.acting());
            },
            py::arg("layer"), py::arg("batches"))
        .def(
            "set_final_weight",
            [](py::handle self_, int layer, py::handle weight) {
                const PyModel &s = ownModel(self_);
                if (auto st = s.engine().setFinalWeight(
                        s.at(), layer, ownPuzzleObject(weight, "set_final_weight", s.acting()));
                    !st)
                    raiseError(st.error());
            },
            py::arg("layer"), py::arg("weight"))
        .def_property_readonly(
            "final_weights",
            [](py::handle self_) {
                const PyModel &s = ownModel(self_);
                py::dict out;
                const auto &all = s.session->engine ? s.session->engine->trace().finalWeights
                                                    : s.session->finalWeights;
                if (std::size_t(s.rank) >= all.size())
                    return out; // the run's end, closing its coroutines
                for (const auto &[layer, weight] : all[std::size_t(s.rank)])
                    out[py::int_(layer)] = wrapObject(weight, {s.rank, s.session->run});
                return out;
            })
        .def("memory",
             [](py::handle self_) {
                 const PyModel &s = ownModel(self_);
                 return s.engine().storage(s.rank).memory();
             })
        .def("status", &statusText)
        // forward, backward, loss, update, load_weights and the collectives: modelcalls.cpp
        .def(
            "pass_to",
            [](py::handle self_, int rank, py::object v) {
                const PyModel &s = ownModel(self_);
                return s.waiter(OpKind::PassTo, std::move(v), -1, py::none(), rank);
            },
            py::arg("rank"), py::arg("value"))
        .def(
            "receive",
            [](py::handle self_, std::optional<int> source) {
                const PyModel &s = ownModel(self_);
                return s.waiter(OpKind::Receive, py::none(), -1, py::none(), source);
            },
            py::arg("source") = py::none())
        .def_static(
            "check",
            [](py::iterable models) {
                std::vector<core::WeightsByLayer> finals;
                int layers = 0;
                for (py::handle item : models) {
                    const PyModel &pm = item.cast<const PyModel &>();
                    const auto &all = pm.session->engine ? pm.session->engine->trace().finalWeights
                                                         : pm.session->finalWeights;
                    finals.push_back(std::size_t(pm.rank) < all.size() ? all[std::size_t(pm.rank)]
                                                                       : core::WeightsByLayer());
                    layers = pm.session->engine ? pm.session->engine->config().layers
                                                : int(finals.back().size());
                }
                const core::CheckResult result = core::checkFinalWeights(finals, layers);
                if (!result.passed) {
                    PyErr_SetString(PyExc_AssertionError, result.message.c_str());
                    throw py::error_already_set();
                }
                py::print("Correct!");
            },
            py::arg("models"))
        .def("__repr__", [](py::handle self_) {
            const PyModel &s = FastSelf<PyModel>::of(self_);
            return "<Model rank " + std::to_string(s.rank) + ">";
        });
    FastSelf<PyModel>::type = reinterpret_cast<PyTypeObject *>(model.ptr());
    useFastModelCalls(FastSelf<PyModel>::type);

    m.def(
        "draw", [](py::args, py::kwargs) { markSnapshot("draw"); },
        "Marks this point for Rankstep's viewer (the notebook drew an SVG here).");
    m.def(
        "draw_group", [](py::args, py::kwargs) { markSnapshot("draw_group"); },
        "Marks this point for Rankstep's viewer (the notebook drew an SVG here).");
}

} // namespace rankstep::python
