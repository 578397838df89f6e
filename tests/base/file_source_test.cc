// FileSource::Embedded: which sources serve a path straight from the binary.
#include "base/file_source.h"

#include <memory>

#include "gtest/gtest.h"

namespace fitrank {
namespace {

constexpr const char* kPath = "catalog/quants.yaml";

TEST(FileSourceEmbedded, TheEmbeddedSourceServesItsOwnBytes) {
  EmbeddedSource embedded;
  auto view = embedded.Embedded(kPath);
  ASSERT_TRUE(view.has_value());
  auto copy = embedded.Read(kPath);
  ASSERT_TRUE(copy.ok());
  EXPECT_EQ(*view, *copy);
  EXPECT_FALSE(embedded.Embedded("catalog/no-such.yaml").has_value());
}

TEST(FileSourceEmbedded, AnOverridingFileIsNotEmbedded) {
  auto bottom = std::make_shared<EmbeddedSource>();
  auto top = std::make_shared<MemorySource>();
  top->Set("catalog/gpus.yaml", "schema: x\n");
  OverlaySource overlay(top, bottom);
  EXPECT_FALSE(overlay.Embedded("catalog/gpus.yaml").has_value());  // the top's file wins
  EXPECT_TRUE(overlay.Embedded(kPath).has_value());                 // not overridden
  EXPECT_FALSE(top->Embedded(kPath).has_value());                   // memory is not the binary
}

}  // namespace
}  // namespace fitrank
