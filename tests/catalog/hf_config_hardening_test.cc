// ModelFromHfConfig never throws: malformed JSON, numbers beyond a double, wrong types and
// out-of-range shapes are errors that name the file, the line and column, and the field.
#include <string>

#include "catalog/hf_config.h"
#include "gtest/gtest.h"

namespace fitrank {
namespace {

// A valid dense config with `extra` spliced in (",\n  \"key\": value" lines).
std::string Config(const std::string& extra, const std::string& vocab = "32000") {
  return "{\n  \"num_hidden_layers\": 32,\n  \"hidden_size\": 4096,\n"
         "  \"num_attention_heads\": 32,\n  \"vocab_size\": " + vocab +
         ",\n  \"intermediate_size\": 11008" + extra + "\n}\n";
}

std::string Error(const std::string& json) {
  absl::StatusOr<Model> m = ModelFromHfConfig(json, "config.json");
  EXPECT_FALSE(m.ok());
  return std::string(m.status().message());
}

TEST(HfConfigHardening, TheBaseConfigIsValid) {
  absl::StatusOr<Model> m = ModelFromHfConfig(Config(""), "config.json");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->vocab_size, 32000);
}

TEST(HfConfigHardening, ANumberBeyondADoubleIsLocated) {
  EXPECT_EQ(Error("{\"hidden_size\": 1e309}"),
            "config.json:1:17: not valid JSON: number overflow parsing '1e309' (numbers must "
            "fit a double)");
}

TEST(HfConfigHardening, MalformedJsonIsLocated) {
  EXPECT_EQ(Error("{\n  \"a\": [1,\n}"),
            "config.json:3:1: not valid JSON: syntax error while parsing value - unexpected '}'; "
            "expected '[', '{', or a literal");
}

TEST(HfConfigHardening, TieWordEmbeddingsMustBeABoolean) {
  EXPECT_EQ(Error(Config(",\n  \"tie_word_embeddings\": 1")),
            "config.json:7:3: field `tie_word_embeddings` is not a number; it must be true or "
            "false");
  absl::StatusOr<Model> m =
      ModelFromHfConfig(Config(",\n  \"tie_word_embeddings\": true"), "config.json");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->tied_embeddings);
}

TEST(HfConfigHardening, AVocabularyBeyondAnIntIsAnErrorNotMinusOne) {
  EXPECT_EQ(Error(Config("", "18446744073709551615")),
            "config.json:5:3: field `vocab_size` is 18446744073709551615; it must be at most "
            "2147483647");
  EXPECT_EQ(Error(Config("", "1e300")),
            "config.json:5:3: field `vocab_size` is 1e+300; it must be at most 2147483647");
}

TEST(HfConfigHardening, WrongTypesFractionsAndNegativesAreErrors) {
  EXPECT_EQ(Error(Config("", "\"32000\"")),
            "config.json:5:3: field `vocab_size` is a string; it must be a whole number");
  EXPECT_EQ(Error(Config("", "32000.5")),
            "config.json:5:3: field `vocab_size` is 32000.5; it must be a whole number");
  EXPECT_EQ(Error(Config(",\n  \"head_dim\": -1")),
            "config.json:7:3: field `head_dim` is -1; it must not be negative");
  EXPECT_EQ(Error(Config(",\n  \"num_key_value_heads\": 0")),
            "config.json:7:3: field `num_key_value_heads` is 0; it must be at least 1");
  EXPECT_EQ(Error(Config(",\n  \"num_local_experts\": 4,\n  \"num_experts_per_tok\": 9")),
            "config.json:8:3: field `num_experts_per_tok` is 9, more than the 4 experts");
}

}  // namespace
}  // namespace fitrank
