#include "catalog/gguf.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "catalog/ggml_types.h"

namespace fitrank {
namespace {

// GGUF value types (formats.md).
enum : uint32_t {
  kU8 = 0,
  kI8 = 1,
  kU16 = 2,
  kI16 = 3,
  kU32 = 4,
  kI32 = 5,
  kF32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kU64 = 10,
  kI64 = 11,
  kF64 = 12,
};
// ggml's GGML_MAX_DIMS.
constexpr uint32_t kMaxDims = 4;

int ScalarSize(uint32_t type) {
  switch (type) {
    case kU8:
    case kI8:
    case kBool:
      return 1;
    case kU16:
    case kI16:
      return 2;
    case kU32:
    case kI32:
    case kF32:
      return 4;
    case kU64:
    case kI64:
    case kF64:
      return 8;
    default:
      return 0;
  }
}

// Why a read stopped: the prefix ended before the file did (read more), or a format problem.
struct Stop {
  bool need_more = false;
  std::string message;
};

class Reader {
 public:
  Reader(absl::string_view bytes, uint64_t file_size) : bytes_(bytes), file_size_(file_size) {}

  uint64_t pos() const { return pos_; }

  // Makes sure `n` more bytes are available; false sets stop_.
  bool Need(uint64_t n) {
    if (n <= bytes_.size() - pos_) return true;
    if (n > file_size_ - pos_) {
      Fail(absl::StrCat("truncated: needs ", n, " more bytes, the file has ", file_size_ - pos_));
    } else {
      stop_.need_more = true;
      need_bytes_ = pos_ + n;
    }
    return false;
  }
  bool U32(uint32_t* v) { return Le(v); }
  bool U64(uint64_t* v) { return Le(v); }
  bool Skip(uint64_t n) {
    if (!Need(n)) return false;
    pos_ += n;
    return true;
  }
  bool String(std::string* s, const char* what) {
    uint64_t n;
    if (!U64(&n)) return false;
    if (n > file_size_ - pos_) {
      return Fail(
          absl::StrCat(what, ": string of ", n, " bytes is longer than the rest of the file"));
    }
    if (!Need(n)) return false;
    if (s != nullptr) s->assign(bytes_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  // A scalar of GGUF type `type` as a double.
  bool Scalar(uint32_t type, double* out) {
    switch (type) {
      case kU8: {
        uint8_t v;
        if (!Le(&v)) return false;
        *out = v;
        return true;
      }
      case kI8: {
        int8_t v;
        if (!Le(&v)) return false;
        *out = v;
        return true;
      }
      case kBool: {
        uint8_t v;
        if (!Le(&v)) return false;
        *out = v != 0;
        return true;
      }
      case kU16: {
        uint16_t v;
        if (!Le(&v)) return false;
        *out = v;
        return true;
      }
      case kI16: {
        int16_t v;
        if (!Le(&v)) return false;
        *out = v;
        return true;
      }
      case kU32: {
        uint32_t v;
        if (!Le(&v)) return false;
        *out = v;
        return true;
      }
      case kI32: {
        int32_t v;
        if (!Le(&v)) return false;
        *out = v;
        return true;
      }
      case kF32: {
        float v;
        if (!Le(&v)) return false;
        *out = v;
        return true;
      }
      case kU64: {
        uint64_t v;
        if (!Le(&v)) return false;
        *out = static_cast<double>(v);
        return true;
      }
      case kI64: {
        int64_t v;
        if (!Le(&v)) return false;
        *out = static_cast<double>(v);
        return true;
      }
      case kF64: {
        double v;
        if (!Le(&v)) return false;
        *out = v;
        return true;
      }
      default:
        return Fail(absl::StrCat("unknown value type ", type));
    }
  }
  bool Fail(std::string message) {
    if (stop_.message.empty() && !stop_.need_more) {
      stop_.message = std::move(message);
      error_pos_ = pos_;
    }
    return false;
  }
  const Stop& stop() const { return stop_; }
  uint64_t need_bytes() const { return need_bytes_; }
  uint64_t error_pos() const { return error_pos_; }

 private:
  template <typename T>
  bool Le(T* v) {
    if (!Need(sizeof(T))) return false;
    // GGUF is little-endian, as is every machine fitrank builds for (x86-64, arm64).
    std::memcpy(v, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }

  absl::string_view bytes_;
  uint64_t file_size_;
  uint64_t pos_ = 0;
  uint64_t need_bytes_ = 0;
  uint64_t error_pos_ = 0;
  Stop stop_;
};

bool ReadValue(Reader& r, uint32_t type, GgufValue* v, const std::string& key) {
  if (type == kString) {
    v->kind = GgufValue::Kind::kString;
    return r.String(&v->text, key.c_str());
  }
  if (type == kArray) {
    v->kind = GgufValue::Kind::kArray;
    if (!r.U32(&v->element_type) || !r.U64(&v->length)) return false;
    const uint32_t et = v->element_type;
    if (et == kArray) return r.Fail(absl::StrCat("`", key, "`: arrays of arrays are not read"));
    if (et == kString) {
      for (uint64_t i = 0; i < v->length; ++i) {
        if (!r.String(nullptr, key.c_str())) return false;
      }
      return true;
    }
    const int size = ScalarSize(et);
    if (size == 0) return r.Fail(absl::StrCat("`", key, "`: unknown array element type ", et));
    if (v->length > kGgufMaxKeptArray) {
      if (v->length > (UINT64_MAX / size)) {
        return r.Fail(absl::StrCat("`", key, "`: array of ", v->length, " elements is too long"));
      }
      return r.Skip(v->length * size);
    }
    v->numbers.resize(v->length);
    for (uint64_t i = 0; i < v->length; ++i) {
      if (!r.Scalar(et, &v->numbers[i])) return false;
    }
    return true;
  }
  v->kind = type == kBool ? GgufValue::Kind::kBool : GgufValue::Kind::kNumber;
  if (ScalarSize(type) == 0) return r.Fail(absl::StrCat("`", key, "`: unknown value type ", type));
  return r.Scalar(type, &v->number);
}

// Caps on counts, far above any real file, so a corrupt count fails early instead of looping.
constexpr uint64_t kMaxTensors = 1u << 20;
constexpr uint64_t kMaxKeys = 1u << 20;

bool ReadTensor(Reader& r, uint64_t index, GgufTensor* t) {
  const std::string what = absl::StrCat("tensor ", index);
  if (!r.String(&t->name, what.c_str())) return false;
  uint32_t n_dims;
  if (!r.U32(&n_dims)) return false;
  if (n_dims == 0 || n_dims > kMaxDims) {
    return r.Fail(
        absl::StrCat("tensor `", t->name, "`: ", n_dims, " dimensions (1 to 4 expected)"));
  }
  t->dims.resize(n_dims);
  t->elements = 1;
  for (uint32_t d = 0; d < n_dims; ++d) {
    if (!r.U64(&t->dims[d])) return false;
    if (t->dims[d] == 0 || t->dims[d] > (uint64_t{1} << 40) ||
        t->elements > (uint64_t{1} << 48) / t->dims[d]) {
      return r.Fail(absl::StrCat("tensor `", t->name, "`: dimension ", d, " of ", t->dims[d],
                                 " is not a plausible size"));
    }
    t->elements *= t->dims[d];
  }
  if (!r.U32(&t->ggml_type) || !r.U64(&t->offset)) return false;
  const GgmlType* type = GgmlTypeById(t->ggml_type);
  if (type == nullptr) {
    return r.Fail(absl::StrCat("tensor `", t->name, "`: unknown ggml type ", t->ggml_type));
  }
  if (t->dims[0] % type->block_weights != 0) {
    return r.Fail(absl::StrCat("tensor `", t->name, "`: row of ", t->dims[0],
                               " is not a multiple of ",
                               absl::string_view(type->name.data(), type->name.size()),
                               "'s block of ", type->block_weights));
  }
  t->bytes = t->elements / type->block_weights * type->block_bytes;
  return true;
}

}  // namespace

const GgufValue* GgufHeader::Find(absl::string_view key) const {
  auto it = metadata.find(key);
  return it == metadata.end() ? nullptr : &it->second;
}

double GgufHeader::Number(absl::string_view key, double def) const {
  const GgufValue* v = Find(key);
  if (v == nullptr || v->kind == GgufValue::Kind::kString || v->kind == GgufValue::Kind::kArray) {
    return def;
  }
  return v->number;
}

std::string GgufHeader::Text(absl::string_view key) const {
  const GgufValue* v = Find(key);
  return v != nullptr && v->kind == GgufValue::Kind::kString ? v->text : std::string();
}

GgufHeaderResult ParseGgufHeader(absl::string_view prefix, uint64_t file_size,
                                 absl::string_view display_name) {
  GgufHeaderResult out;
  if (prefix.size() > file_size) file_size = prefix.size();
  Reader r(prefix, file_size);
  GgufHeader h;
  auto finish = [&]() -> GgufHeaderResult {
    if (r.stop().need_more) {
      out.need_bytes = r.need_bytes();
    } else {
      out.error = absl::StrCat(display_name, ": byte ", r.error_pos(), ": ", r.stop().message);
    }
    return out;
  };
  uint32_t magic;
  if (file_size < 4) {
    out.error = absl::StrCat(display_name, ": byte 0: not a GGUF file (", file_size, " bytes)");
    return out;
  }
  if (!r.U32(&magic)) return finish();
  if (std::memcmp(prefix.data(), "GGUF", 4) != 0) {
    out.error =
        absl::StrCat(display_name, ": byte 0: not a GGUF file (it does not start with `GGUF`)");
    return out;
  }
  uint64_t tensor_count, kv_count;
  if (!r.U32(&h.version)) return finish();
  if (h.version < 2 || h.version > 3) {
    r.Fail(absl::StrCat("GGUF version ", h.version, " (fitrank reads versions 2 and 3)"));
    return finish();
  }
  if (!r.U64(&tensor_count) || !r.U64(&kv_count)) return finish();
  if (tensor_count > kMaxTensors || kv_count > kMaxKeys) {
    r.Fail(absl::StrCat(tensor_count, " tensors and ", kv_count,
                        " metadata keys: not a plausible header"));
    return finish();
  }
  for (uint64_t i = 0; i < kv_count; ++i) {
    std::string key;
    uint32_t type;
    if (!r.String(&key, absl::StrCat("metadata key ", i).c_str()) || !r.U32(&type)) return finish();
    GgufValue v;
    if (!ReadValue(r, type, &v, key)) return finish();
    h.metadata[key] = std::move(v);
  }
  const double alignment = h.Number("general.alignment", 32);
  // Written so that NaN fails too; only then is the cast to an integer defined.
  const bool in_range =
      alignment >= 1 && alignment <= (1 << 20) && alignment == std::floor(alignment);
  if (!in_range ||
      (static_cast<uint64_t>(alignment) & (static_cast<uint64_t>(alignment) - 1)) != 0) {
    r.Fail(absl::StrCat("general.alignment ", alignment, " is not a power of two"));
    return finish();
  }
  h.alignment = static_cast<uint64_t>(alignment);
  h.tensors.reserve(std::min<uint64_t>(tensor_count, 4096));
  for (uint64_t i = 0; i < tensor_count; ++i) {
    GgufTensor t;
    if (!ReadTensor(r, i, &t)) return finish();
    h.tensor_bytes += t.bytes;
    h.parameters += t.elements;
    h.tensors.push_back(std::move(t));
  }
  h.data_offset = (r.pos() + h.alignment - 1) / h.alignment * h.alignment;
  for (const GgufTensor& t : h.tensors) {
    const uint64_t end = h.data_offset + t.offset + t.bytes;
    if (t.offset % h.alignment != 0 || end > file_size || end < h.data_offset) {
      const std::string what =
          absl::StrCat(display_name, ": byte ", h.data_offset + t.offset, ": tensor `", t.name,
                       "` (", t.bytes, " bytes at data offset ", t.offset, ") ");
      out.error = end > file_size || end < h.data_offset
                      ? absl::StrCat(what, "ends at byte ", end, ", past the end of the file (",
                                     file_size, " bytes): truncated")
                      : absl::StrCat(what, "is not aligned to ", h.alignment, " bytes");
      return out;
    }
  }
  out.header = std::move(h);
  return out;
}

absl::StatusOr<GgufHeader> ReadGgufFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    std::string m = absl::StrCat(path, ": cannot open: ", std::strerror(e));
    return e == ENOENT ? absl::NotFoundError(m) : absl::InvalidArgumentError(m);
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a regular file"));
  }
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  std::string prefix;
  uint64_t want = std::min(file_size, kGgufFirstRead);
  while (true) {
    uint64_t got = prefix.size();
    prefix.resize(want);
    while (got < want) {
      const ssize_t n = pread(fd, prefix.data() + got, want - got, static_cast<off_t>(got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<uint64_t>(n);
    }
    prefix.resize(got);
    GgufHeaderResult res = ParseGgufHeader(prefix, file_size, path);
    if (res.header) {
      close(fd);
      return std::move(*res.header);
    }
    if (!res.error.empty() || prefix.size() < want) {
      close(fd);
      if (res.error.empty()) res.error = absl::StrCat(path, ": the file shrank while being read");
      return absl::InvalidArgumentError(res.error);
    }
    if (want >= kGgufMaxHeaderBytes) {
      close(fd);
      return absl::InvalidArgumentError(absl::StrCat(path, ": the GGUF header is longer than ",
                                                     kGgufMaxHeaderBytes >> 20, " MiB: refused"));
    }
    want = std::min({file_size, kGgufMaxHeaderBytes, std::max(res.need_bytes, want * 2)});
  }
}

}  // namespace fitrank
