#include "bind_opponent_mix.h"

#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "network.h"
#include "opponent_mix.h"
#include "strategist.h"
#include "vec_env.h"

namespace py = pybind11;

namespace fcm::players {

void bind_opponent_mix(py::module_& m) {
  py::class_<LeagueMix, std::shared_ptr<LeagueMix>>(
      m, "OpponentMix",
      "the training league's opponents drawn and played in the native batch (OpponentPool's draws; "
      "fcm_env.native._core.VecEnv(..., opponents=mix))")
      .def(py::init([](const std::vector<std::string>& kinds, const std::vector<double>& probs,
                       const std::vector<std::optional<std::string>>& strategists, double variation, int pool_size) {
             MixSettings s;
             s.kinds = kinds;
             s.probs = probs;
             for (const auto& name : strategists) {
               s.strategists.push_back(name && *name != "auto" ? archetype_index(*name) : -1);
             }
             s.variation = variation;
             s.pool_size = pool_size;
             return std::make_shared<LeagueMix>(std::move(s));
           }),
           py::arg("kinds"), py::arg("probs"), py::arg("strategists"), py::arg("variation"), py::arg("pool_size"))
      .def(
          "add_snapshot",
          [](LeagueMix& mix, const GuardedNetwork& network) {
            check_free(const_cast<GuardedNetwork&>(network).use, kNetwork);
            mix.add_snapshot(std::make_shared<const Network>(static_cast<const Network&>(network)));
          },
          py::arg("network"),
          "a copy of a policy network (fcm_agents.native._agents.Network) joins the snapshots; the oldest beyond "
          "pool_size goes")
      .def(
          "set_frozen",
          [](LeagueMix& mix, const GuardedNetwork& network) {
            check_free(const_cast<GuardedNetwork&>(network).use, kNetwork);
            mix.set_frozen(std::make_shared<const Network>(static_cast<const Network&>(network)));
          },
          py::arg("network"), "a copy of the policy (fcm_agents.native._agents.Network) that frozen seats play greedily")
      .def_property_readonly("snapshots", &LeagueMix::snapshots, "how many snapshots the pool holds")
      .def(
          "opponent_mix_capsule",
          [](const std::shared_ptr<LeagueMix>& mix) {
            auto* held = new std::shared_ptr<const OpponentMix>(mix);
            return py::capsule(held, kMixCapsule, [](PyObject* o) {
              delete static_cast<std::shared_ptr<const OpponentMix>*>(PyCapsule_GetPointer(o, kMixCapsule));
            });
          },
          "the mix as the engine's VecEnv takes it (a capsule holding a std::shared_ptr<const OpponentMix>)");
}

}  // namespace fcm::players
