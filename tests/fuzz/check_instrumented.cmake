# Fails unless every static library in LIBS (a ;-list) references libFuzzer's coverage hooks
# (__sanitizer_cov_*), i.e. was compiled with -fsanitize=fuzzer-no-link. Without them libFuzzer
# sees only the harness's coverage and explores nothing (issue 16).
# Usage: cmake -DNM=<nm> -DLIBS=<a;b> -P check_instrumented.cmake
foreach(lib IN LISTS LIBS)
  execute_process(COMMAND ${NM} -u ${lib} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc
                  ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${lib}")
  endif()
  string(REGEX MATCHALL "__sanitizer_cov_[a-z_0-9]+" hooks "${symbols}")
  list(LENGTH hooks n)
  if(n EQUAL 0)
    message(FATAL_ERROR "${lib} has no coverage instrumentation (no __sanitizer_cov_* hook): "
                        "its sources were not compiled with -fsanitize=fuzzer-no-link")
  endif()
  get_filename_component(name ${lib} NAME)
  message(STATUS "${name}: ${n} references to coverage hooks")
endforeach()
