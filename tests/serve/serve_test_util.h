// One App over the shipped data for the serve tests, and a one-line GET/POST.
#ifndef FITRANK_TESTS_SERVE_SERVE_TEST_UTIL_H_
#define FITRANK_TESTS_SERVE_SERVE_TEST_UTIL_H_

#include <string>

#include "cli/serve/app.h"
#include "gtest/gtest.h"

namespace fitrank::cli::serve {

inline App& TestApp() {
  static App* app = new App([](std::string* diagnostics) {
    return LoadSnapshot("", "", diagnostics);
  });
  EXPECT_TRUE(app->ok()) << app->diagnostics();
  return *app;
}

inline HttpResponse Get(const std::string& target, bool loopback = true) {
  return TestApp().Handle({"GET", target, loopback, "127.0.0.1:8080"});
}

inline HttpResponse Post(const std::string& target, bool loopback = true) {
  return TestApp().Handle({"POST", target, loopback, "127.0.0.1:8080"});
}

inline std::string Header(const HttpResponse& r, const std::string& name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return "";
}

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace fitrank::cli::serve

#endif  // FITRANK_TESTS_SERVE_SERVE_TEST_UTIL_H_
