// `fitrank catalog`: list the catalog's GPUs, models, diffusion models, quantizations,
// runtimes, interconnects and prices, or show every field of one entry.
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/text.h"
#include "catalog/to_json.h"
#include "catalog/vocabulary.h"
#include "cli/commands.h"
#include "cli/render_text.h"
#include "cli/resolve.h"

namespace fitrank::cli {
namespace {

using Json = nlohmann::ordered_json;

// How cells are written: CSV keeps raw numbers and leaves unknowns empty.
struct CellStyle {
  bool csv = false;
  std::string Missing() const { return csv ? "" : std::string(kDash); }
  // Shortest form with at most `decimals` decimals; 0 (unknown) is missing.
  std::string Num(double v, int decimals = 2) const {
    if (!(v > 0)) return Missing();
    if (v < 1) decimals = std::max(decimals, 3);  // 0.029 TFLOPS is not 0
    std::string s = absl::StrFormat("%.*f", decimals, v);
    if (s.find('.') != std::string::npos) {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    if (csv) return s;
    // Thousands separators for the integer part.
    size_t end = s.find('.');
    if (end == std::string::npos) end = s.size();
    std::string out;
    for (size_t i = 0; i < end; ++i) {
      if (i > 0 && (end - i) % 3 == 0) out += ',';
      out += s[i];
    }
    return out + s.substr(end);
  }
  std::string Int(int v) const { return v > 0 ? absl::StrCat(v) : Missing(); }
  std::string Text(const std::string& s) const { return s.empty() ? Missing() : s; }
  std::string List(const std::vector<std::string>& v) const {
    return v.empty() ? Missing() : absl::StrJoin(v, csv ? " " : ", ");
  }
  std::string Usd(double v) const { return csv ? Num(v) : (v > 0 ? FormatUsd(v) : Missing()); }
  std::string Context(int tokens) const {
    return csv ? Int(tokens) : (tokens > 0 ? FormatContext(tokens) : Missing());
  }
};

// One listable kind of entry.
template <class T>
struct Listing {
  absl::string_view plural;  // "GPUs"
  std::vector<std::string> header;
  std::vector<bool> right;
  std::function<std::vector<std::string>(const T&, const CellStyle&)> row;
  std::function<std::string(const T&)> search_text;  // what --filter looks in
  std::string footnote;                                // printed under the table, if any
};

// --filter TEXT: every word of TEXT must occur, ignoring case, in the entry's search text.
bool MatchesFilter(const std::string& text, const std::vector<std::string>& words) {
  for (const std::string& w : words) {
    if (!absl::StrContains(text, w)) return false;
  }
  return true;
}

// What --names prints for an entry: the name users type, else the id flags take.
const std::string& EntryName(const Gpu& g) { return g.name; }
const std::string& EntryName(const Model& m) { return m.name; }
const std::string& EntryName(const DiffusionModel& d) { return d.name; }
const std::string& EntryName(const Quant& q) { return q.id; }
const std::string& EntryName(const Runtime& r) { return r.id; }
const std::string& EntryName(const Interconnect& i) { return i.id; }
const std::string& EntryName(const Price& p) { return p.gpu_id; }

template <class T>
int List(Context& ctx, const std::vector<T>& items, const Listing<T>& spec) {
  std::string filter = ctx.args.GetOr("filter", "");
  std::vector<std::string> words =
      absl::StrSplit(absl::AsciiStrToLower(filter), ' ', absl::SkipEmpty());
  std::vector<const T*> rows;
  for (const T& t : items) {
    if (words.empty() || MatchesFilter(absl::AsciiStrToLower(spec.search_text(t)), words)) {
      rows.push_back(&t);
    }
  }
  std::ostream& out = *ctx.out;
  if (ctx.args.Has("names")) {
    for (const T* t : rows) out << EntryName(*t) << "\n";
    return rows.empty() && !words.empty() ? 1 : 0;
  }
  switch (ctx.format) {
    case OutputFormat::kJson: {
      Json all = Json::array();
      for (const T* t : rows) all.push_back(ToJson(*t));
      out << all.dump(2) << "\n";
      break;
    }
    case OutputFormat::kJsonl:
      for (const T* t : rows) out << ToJson(*t).dump() << "\n";
      break;
    default: {
      CellStyle style{ctx.format == OutputFormat::kCsv};
      std::vector<std::string> header = spec.header;
      if (style.csv) {
        for (std::string& h : header) h = CsvHeader(h);
      }
      TextTable table(header, spec.right);
      for (const T* t : rows) table.Add(spec.row(*t, style));
      if (ctx.format == OutputFormat::kCsv) {
        table.PrintCsv(out);
      } else if (ctx.format == OutputFormat::kMarkdown) {
        table.PrintMarkdown(out);
      } else {
        if (!rows.empty()) table.Print(out, "");
        if (!rows.empty() && !spec.footnote.empty()) out << spec.footnote << "\n";
        if (words.empty()) {
          out << rows.size() << " " << spec.plural << "\n";
        } else {
          out << rows.size() << " of " << items.size() << " " << spec.plural << " match `"
              << filter << "`\n";
        }
      }
    }
  }
  if (rows.empty() && !words.empty()) {
    if (ctx.format != OutputFormat::kTable) {
      *ctx.err << "fitrank catalog: no " << spec.plural << " match `" << filter << "`\n";
    }
    return 1;
  }
  return 0;
}

std::string Join(std::initializer_list<absl::string_view> parts) {
  return absl::StrJoin(parts, " ");
}

std::string Words(const std::vector<std::string>& v) { return absl::StrJoin(v, " "); }

Listing<Gpu> GpuListing() {
  return {"GPUs",
          {"Name", "Vendor", "Segment", "Memory GiB", "Bandwidth GB/s", "FP16 TFLOPS", "Platforms",
           "MSRP"},
          {false, false, false, true, true, true, false, true},
          [](const Gpu& g, const CellStyle& s) {
            return std::vector<std::string>{g.name,
                                            g.vendor,
                                            std::string(SegmentName(g.segment)),
                                            s.Num(g.memory_gb, 1),
                                            s.Num(g.bandwidth_gbps, 0),
                                            s.Num(g.fp16_tflops, 1),
                                            s.List(g.platforms),
                                            s.Usd(g.msrp_usd)};
          },
          [](const Gpu& g) {
            return Join({g.id, g.name, Words(g.aliases), g.vendor, g.family, g.architecture,
                         SegmentName(g.segment), g.memory_type, Words(g.platforms),
                         Words(g.precisions), g.form_factor});
          },
          ""};
}

std::string AttentionCell(const Attention& a) {
  switch (a.kind) {
    case AttentionKind::kSlidingMix:
      return absl::StrCat("sliding ", FormatContext(a.sliding_window));
    default:
      return std::string(AttentionKindName(a.kind));
  }
}

Listing<Model> ModelListing() {
  return {"models",
          {"Name", "Params B", "Active B", "Layers", "KV heads", "Attention", "Context", "Quality",
           "Capabilities"},
          {false, true, true, true, true, false, true, true, false},
          [](const Model& m, const CellStyle& s) {
            std::string quality = s.Num(m.quality.score, 1);
            if (m.quality.estimated && !s.csv) quality = "~" + quality;
            return std::vector<std::string>{
                m.name,
                s.Num(m.params_b, 2),
                m.active_params_b < m.params_b ? s.Num(m.active_params_b, 2) : s.Missing(),
                s.Int(m.layers),
                s.Int(m.kv_heads),
                s.csv ? std::string(AttentionKindName(m.attention.kind))
                      : AttentionCell(m.attention),
                s.Context(m.max_context),
                quality,
                s.List(m.capabilities)};
          },
          [](const Model& m) {
            return Join({m.id, m.name, Words(m.aliases), m.family, m.org, m.kind, m.modality,
                         Words(m.capabilities), AttentionKindName(m.attention.kind), m.license});
          },
          "Active B: parameters read per token (MoE only). Quality ~: an estimate, not a "
          "leaderboard figure."};
}

Listing<DiffusionModel> DiffusionListing() {
  return {"diffusion models",
          {"Name", "Kind", "Architecture", "Params B", "Resolution", "Steps", "Frames",
           "Passes/step", "GFLOPs/pass"},
          {false, false, false, true, true, true, true, true, true},
          [](const DiffusionModel& d, const CellStyle& s) {
            return std::vector<std::string>{d.name,
                                            std::string(DiffusionKindName(d.kind)),
                                            d.architecture,
                                            s.Num(d.params_b, 2),
                                            absl::StrCat(d.width, "x", d.height),
                                            s.Int(d.steps),
                                            s.Int(d.frames),
                                            s.Int(d.cfg_passes),
                                            s.Num(d.gflops_per_pass, 0)};
          },
          [](const DiffusionModel& d) {
            return Join({d.id, d.name, Words(d.aliases), d.family, d.org, DiffusionKindName(d.kind),
                         d.architecture, d.license});
          },
          ""};
}

Listing<Quant> QuantListing() {
  return {"quantizations",
          {"ID", "Family", "Bits", "BPW", "Retention", "Runtimes", "Needs"},
          {false, false, true, true, true, false, false},
          [](const Quant& q, const CellStyle& s) {
            return std::vector<std::string>{
                q.id,
                q.family,
                s.Num(q.bits, 1),
                q.variable_bpw ? (s.csv ? "" : "any") : s.Num(q.bpw, 2),
                s.Num(q.quality_retention, 3),
                s.List(q.runtimes),
                s.Text(q.requires_precision)};
          },
          [](const Quant& q) {
            return Join({q.id, Words(q.aliases), q.family, Words(q.runtimes),
                         q.requires_precision});
          },
          "BPW: effective bits per weight of real files. Needs: hardware precision for native "
          "speed."};
}

Listing<Runtime> RuntimeListing() {
  return {"runtimes",
          {"ID", "Name", "Platforms", "Quant families", "Parallelism", "Serving"},
          {false, false, false, false, false, false},
          [](const Runtime& r, const CellStyle& s) {
            return std::vector<std::string>{r.id,
                                            r.name,
                                            s.List(r.platforms),
                                            s.List(r.quant_families),
                                            s.List(r.parallelism),
                                            r.serving ? "yes" : "no"};
          },
          [](const Runtime& r) {
            return Join({r.id, r.name, Words(r.aliases), Words(r.platforms),
                         Words(r.quant_families), Words(r.parallelism)});
          },
          ""};
}

Listing<Interconnect> InterconnectListing() {
  return {"interconnects",
          {"ID", "Name", "Bandwidth GB/s", "Latency us"},
          {false, false, true, true},
          [](const Interconnect& i, const CellStyle& s) {
            return std::vector<std::string>{i.id, i.name, s.Num(i.bandwidth_gbps, 1),
                                            s.Num(i.latency_us, 2)};
          },
          [](const Interconnect& i) { return Join({i.id, i.name}); },
          ""};
}

Listing<Price> PriceListing(const Catalog& catalog) {
  return {"prices",
          {"GPU", "Street USD", "Cloud USD/h", "As of"},
          {false, true, true, false},
          [&catalog](const Price& p, const CellStyle& s) {
            const Gpu* g = catalog.GpuById(p.gpu_id);
            return std::vector<std::string>{g != nullptr && !s.csv ? g->name : p.gpu_id,
                                            s.Usd(p.street_usd), s.Usd(p.cloud_usd_per_hour),
                                            p.as_of};
          },
          [&catalog](const Price& p) {
            const Gpu* g = catalog.GpuById(p.gpu_id);
            return Join({p.gpu_id, g != nullptr ? absl::string_view(g->name) : ""});
          },
          ""};
}

// ---- show ----------------------------------------------------------------------------------

// One entry found by `show`, as JSON, with a label for its kind.
struct Shown {
  std::string kind;  // "gpu", "model", "diffusion", "quant", "runtime"
  std::string id;
  std::string name;
  Json json;         // the record, keys = field names of catalog/types.h
  Json extra;        // related records shown with it: a GPU's price
};

std::string ScalarText(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return absl::StrCat(v.get<int64_t>());
  if (v.is_number()) {
    std::string s = absl::StrFormat("%.4f", v.get<double>());
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
  }
  if (v.is_null()) return std::string(kDash);
  return v.dump();
}

// "key  value" lines; nested objects as "parent.key"; lists joined with ", ".
void Flatten(const Json& j, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>* out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string key = prefix.empty() ? it.key() : absl::StrCat(prefix, ".", it.key());
    const Json& v = it.value();
    if (v.is_object()) {
      Flatten(v, key, out);
    } else if (v.is_array()) {
      std::vector<std::string> items;
      for (const Json& e : v) items.push_back(ScalarText(e));
      out->emplace_back(key, items.empty() ? std::string(kDash) : absl::StrJoin(items, ", "));
    } else {
      // 0 means "not known" (or "not supported") throughout the catalog.
      std::string text = v.is_number() && v.get<double>() == 0 ? "" : ScalarText(v);
      out->emplace_back(key, text.empty() ? std::string(kDash) : text);
    }
  }
}

const std::vector<std::string>& ShowKinds() {
  static const std::vector<std::string> k = {"gpu", "model", "diffusion", "quant", "runtime"};
  return k;
}

int Show(Context& ctx, const Catalog& catalog, const std::string& query) {
  CheckName(query, "catalog entry");
  std::string only = ctx.args.GetOr("kind", "");
  const auto& kinds = ShowKinds();
  if (!only.empty() && std::find(kinds.begin(), kinds.end(), only) == kinds.end()) {
    std::string hint = DidYouMean(ClosestMatches(only, ShowKinds(), 1));
    throw UsageError(absl::StrCat("unknown kind `", only, "`"),
                     hint.empty() ? absl::StrCat("one of ", QuotedList(ShowKinds())) : hint);
  }
  auto wanted = [&](absl::string_view k) { return only.empty() || only == k; };

  // Look the name up in every kind; an exact name in one kind beats word matches in others.
  std::vector<Shown> exact, found;
  std::vector<std::string> ambiguous, suggestions;
  auto consider = [&](absl::string_view kind, const auto& r, auto price_of) {
    if (!wanted(kind)) return;
    if (r.found != nullptr) {
      Shown s{std::string(kind), r.found->id, r.found->id, ToJson(*r.found), Json::object()};
      if constexpr (requires { r.found->name; }) s.name = r.found->name;
      price_of(*r.found, &s.extra);
      (r.exact ? exact : found).push_back(std::move(s));
    }
    for (const auto* a : r.ambiguous) {
      std::string name = a->id;
      if constexpr (requires { a->name; }) name = a->name;
      ambiguous.push_back(absl::StrCat(name, " (", kind, " ", a->id, ")"));
    }
    for (const std::string& s : r.suggestions) suggestions.push_back(s);
  };
  auto no_price = [](const auto&, Json*) {};
  consider("gpu", catalog.FindGpu(query), [&](const Gpu& g, Json* j) {
    const Price* p = catalog.PriceFor(g.id);
    (*j)["price"] = p != nullptr ? ToJson(*p) : Json(nullptr);
  });
  consider("model", catalog.FindModel(query), no_price);
  consider("diffusion", catalog.FindDiffusion(query), no_price);
  consider("quant", catalog.FindQuant(query), no_price);
  consider("runtime", catalog.FindRuntime(query), no_price);

  // An exact id/name/alias wins outright. Otherwise a word match in one kind is only taken if
  // no other kind matched too: "llama" is ambiguous (many models and llama.cpp).
  std::vector<Shown>& hits = !exact.empty() ? exact : found;
  const bool others = exact.empty() && !ambiguous.empty();
  if (hits.size() > 1 || others) {
    std::vector<std::string> all;
    for (const Shown& s : hits) all.push_back(absl::StrCat(s.name, " (", s.kind, " ", s.id, ")"));
    if (others) all.insert(all.end(), ambiguous.begin(), ambiguous.end());
    std::string msg = absl::StrCat("`", EscapeControl(query), "` is ambiguous: it matches ",
                                   all.size(), " entries");
    for (size_t i = 0; i < all.size() && i < 12; ++i) absl::StrAppend(&msg, "\n    ", all[i]);
    if (all.size() > 12) absl::StrAppend(&msg, "\n    ... and ", all.size() - 12, " more");
    throw UsageError(msg, "be more specific, give an id, or narrow with --kind gpu|model|"
                          "diffusion|quant|runtime");
  }
  if (hits.empty()) {
    // Each kind's own suggestions are already ranked; the first kinds (GPUs, models) lead.
    if (suggestions.size() > 3) suggestions.resize(3);
    std::string hint = DidYouMean(suggestions);
    if (hint.empty()) hint = "`fitrank catalog gpus|models|diffusion|quants|runtimes` lists them";
    throw UsageError(absl::StrCat("nothing in the catalog is called `", query, "`"), hint);
  }
  const Shown& s = hits[0];
  std::ostream& out = *ctx.out;
  if (ctx.format == OutputFormat::kJson || ctx.format == OutputFormat::kJsonl) {
    Json j;
    j["kind"] = s.kind;
    j["entry"] = s.json;
    for (auto it = s.extra.begin(); it != s.extra.end(); ++it) j[it.key()] = it.value();
    out << (ctx.format == OutputFormat::kJson ? j.dump(2) : j.dump()) << "\n";
    return 0;
  }
  std::vector<std::pair<std::string, std::string>> rows;
  Flatten(s.json, "", &rows);
  Flatten(s.extra, "", &rows);
  if (ctx.format == OutputFormat::kCsv || ctx.format == OutputFormat::kMarkdown) {
    const bool csv = ctx.format == OutputFormat::kCsv;
    TextTable table({csv ? "field" : "Field", csv ? "value" : "Value"});
    for (auto& [k, v] : rows) table.Add({k, v == kDash && csv ? "" : v});
    if (ctx.format == OutputFormat::kCsv) {
      table.PrintCsv(out);
    } else {
      table.PrintMarkdown(out);
    }
    return 0;
  }
  out << s.name << "  (" << s.kind << " " << s.id << ")\n\n";
  size_t width = 0;
  for (const auto& [k, v] : rows) width = std::max(width, k.size());
  for (const auto& [k, v] : rows) {
    out << "  " << k << std::string(width - k.size() + 2, ' ') << v << "\n";
  }
  return 0;
}

const std::vector<std::string>& Subcommands() {
  static const std::vector<std::string> k = {"gpus",     "models",        "diffusion", "quants",
                                             "runtimes", "interconnects", "prices",    "show"};
  return k;
}

int RunCatalog(Context& ctx) {
  const std::vector<std::string>& pos = ctx.args.positional();
  if (pos.empty()) {
    throw UsageError("say what to list",
                     absl::StrCat("`fitrank catalog ", absl::StrJoin(Subcommands(), "|"),
                                  "`; `fitrank catalog show NAME` shows one entry"));
  }
  const std::string& sub = pos[0];
  if (sub == "show" && ctx.args.Has("names")) {
    throw UsageError("`--names` only applies to the lists", "e.g. `fitrank catalog gpus --names`");
  }
  if (sub == "show") {
    if (pos.size() < 2) {
      throw UsageError("`catalog show` needs a name", "e.g. `fitrank catalog show 4090`");
    }
    // The rest of the words form the name: `fitrank catalog show llama 3.1 8b` works unquoted.
    std::string name = absl::StrJoin(pos.begin() + 1, pos.end(), " ");
    return Show(ctx, LoadCatalog(ctx), name);
  }
  if (std::find(Subcommands().begin(), Subcommands().end(), sub) == Subcommands().end()) {
    std::string hint = DidYouMean(ClosestMatches(sub, Subcommands()));
    throw UsageError(absl::StrCat("unknown catalog subcommand `", sub, "`"),
                     hint.empty() ? absl::StrCat("one of ", QuotedList(Subcommands())) : hint);
  }
  if (pos.size() > 1) {
    throw UsageError(absl::StrCat("unexpected argument `", pos[1], "`"),
                     absl::StrCat("to narrow the list use `--filter \"", pos[1], "\"`"));
  }
  if (ctx.args.Has("kind")) {
    throw UsageError("`--kind` only applies to `catalog show`");
  }
  const Catalog& c = LoadCatalog(ctx);
  if (sub == "gpus") return List(ctx, c.gpus(), GpuListing());
  if (sub == "models") return List(ctx, c.models(), ModelListing());
  if (sub == "diffusion") return List(ctx, c.diffusion(), DiffusionListing());
  if (sub == "quants") return List(ctx, c.quants(), QuantListing());
  if (sub == "runtimes") return List(ctx, c.runtimes(), RuntimeListing());
  if (sub == "interconnects") return List(ctx, c.interconnects(), InterconnectListing());
  return List(ctx, c.prices(), PriceListing(c));
}

}  // namespace

Command CatalogCommand() {
  return {"catalog",
          "list the catalog's GPUs, models, diffusion models, quantizations and runtimes",
          "fitrank catalog gpus|models|diffusion|quants|runtimes|interconnects|prices "
          "[--filter TEXT]\n       fitrank catalog show NAME [--kind KIND]",
          {{"filter", "TEXT", "list only entries whose names or tags contain every word of TEXT"},
           {"kind", "KIND", "show: look NAME up only among gpu|model|diffusion|quant|runtime"},
           {"names", "", "print only the names (ids for quants and runtimes), one a line"}},
          RunCatalog};
}

}  // namespace fitrank::cli
