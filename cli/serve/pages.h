// The web pages, rendered on the server from the same report JSON the API returns (api.h), so
// a page and its API call can never disagree. Each works without JavaScript; app.js only adds
// conveniences (copy buttons, selects that apply on change, the quant explorer's live panel).
//
// Names in URLs are resolved by the catalog's matching inside the command (never used as file
// paths). Bad names give a 404 page with did-you-mean links, bad parameters a 400 page.
#ifndef FITRANK_CLI_SERVE_PAGES_H_
#define FITRANK_CLI_SERVE_PAGES_H_

#include <string>
#include <vector>

#include "cli/serve/api.h"
#include "cli/serve/query.h"
#include "cli/serve/snapshot.h"

namespace fitrank::cli::serve {

struct PageResult {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
};

// `/`: the search form (GPUs, RAM, workload, mode; autocomplete from the catalog).
PageResult SearchPage(const Snapshot& snap, const std::vector<QueryParam>& q);
// `/gpu/{gpu}`: every block of `fitrank gpu`.
PageResult GpuPage(const Snapshot& snap, const std::string& gpu, const std::vector<QueryParam>& q);
// `/fit/{model}/{gpu}`: memory bar, fit, speeds, advice, workloads, quant explorer, commands.
// `base_url` ("http://host:port") prefixes the embed snippet's URLs.
PageResult FitPage(const Snapshot& snap, const std::string& model, const std::string& gpu,
                   const std::vector<QueryParam>& q, const std::string& base_url);
// `/compare`, `/upgrade`, `/recommend`: the query string as the CLI flags.
PageResult ComparePage(const Snapshot& snap, const std::vector<QueryParam>& q);
PageResult UpgradePage(const Snapshot& snap, const std::vector<QueryParam>& q);
PageResult RecommendPage(const Snapshot& snap, const std::vector<QueryParam>& q);
// `/embed/fit/{model}/{gpu}`: the card for an <iframe>; `/badge/fit/{model}/{gpu}.svg`.
PageResult EmbedCard(const Snapshot& snap, const std::string& model, const std::string& gpu,
                     const std::vector<QueryParam>& q);
PageResult Badge(const Snapshot& snap, const std::string& model, const std::string& gpu,
                 const std::vector<QueryParam>& q);

namespace internal {

// An API call's failure as a page: 404 for unknown or ambiguous names (with links built by
// `link_for(candidate)`), 400 for other bad input, the API's status otherwise.
PageResult ErrorPage(const ApiResult& r, const std::string& heading,
                     std::string (*link_for)(const std::string& candidate, const void* ctx),
                     const void* ctx);

// `q` without the parameters named in `drop`.
std::vector<QueryParam> Without(const std::vector<QueryParam>& q,
                                const std::vector<std::string>& drop);

// "a=1&b=2" from pairs (URL-encoded), "" if empty.
std::string QueryString(const std::vector<QueryParam>& q);

// The <select> of operating modes (links in a form that reloads the page with ?mode=...).
std::string ModeChooser(const Snapshot& snap, const std::string& current,
                        const std::vector<QueryParam>& keep, const std::string& action);
// The same for the workload (?workload=...), from the snapshot's workloads.
std::string WorkloadChooser(const Snapshot& snap, const std::string& current,
                            const std::vector<QueryParam>& keep, const std::string& action);

}  // namespace internal

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_PAGES_H_
