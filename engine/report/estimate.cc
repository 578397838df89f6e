#include "engine/report/estimate.h"

#include "engine/estimator/setup.h"

namespace fitrank {

EstimateReport BuildEstimateReport(const Estimator& estimator, const EstimateInput& in,
                                   const std::vector<std::string>& defaults) {
  EstimateReport r;
  r.model = in.model->name;
  r.model_id = in.model->id;
  if (in.quant != nullptr) r.quant = in.quant->id;
  r.requested_bpw = in.bpw;
  r.runtime = in.runtime != nullptr ? in.runtime->id : "";
  r.setup_label = in.setup->label;
  r.gpu_count = in.setup->device_count;
  r.host_ram_gb = in.setup->host_ram_gb;
  r.host_bandwidth_gbps = in.setup->host_bandwidth_gbps;
  r.kv_cache = in.kv_cache;
  estimator.Explain(in, &r.estimate, &r.basis);
  r.basis.defaults.insert(r.basis.defaults.begin(), defaults.begin(), defaults.end());
  return r;
}

}  // namespace fitrank
