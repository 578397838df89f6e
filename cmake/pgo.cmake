# Profile-guided optimisation of the Release build (GCC).
#
# A Release build compiles fitrank twice. First a training copy in build/pgo-training (this
# same source, configured with FITRANK_PGO_GENERATE: every object instrumented), which runs
# the commands of cmake/pgo_train.sh (a sweep over a sample of GPUs, one thread, and the
# single-question reports) and writes its profile to build/pgo-profile. Then every object of
# this build, compiled with that profile: GCC lays out the hot paths (the ranking loop, the
# estimator, the compiled rule phases) from what the training run did. The sweep takes 4-6%
# less CPU, the single-question commands ~10% less time (docs/SPEED.md, round 22); the output
# is the same byte for byte (a profile changes no arithmetic: no -ffast-math).
#
# The two builds find each other's objects by their path below their own build folder
# (-fprofile-prefix-path), so each source's profile is the one of its own object. A source
# changed since the last build is compiled again in both: the training copy first, then the
# run again, then this build. A source that did not change keeps its object (its profile is
# that of the same code). Functions the training never ran are optimised as without a profile
# (-fprofile-partial-training).
#
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release                  # PGO on (the default)
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFITRANK_PGO=OFF # one compile, slower
#
# Off by default with any other build type, another compiler, sanitizers or fuzzing.

# Set by the parent build in the training copy: instrument every object, profile into this
# folder, with paths relative to this build folder.
set(FITRANK_PGO_GENERATE "" CACHE PATH "internal: profile directory of a PGO training build")
mark_as_advanced(FITRANK_PGO_GENERATE)

set(_fitrank_pgo_default OFF)
if(CMAKE_BUILD_TYPE STREQUAL "Release" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND
   NOT FITRANK_SANITIZE AND NOT FITRANK_FUZZ)
  set(_fitrank_pgo_default ON)
endif()
option(FITRANK_PGO "Release: optimise with the profile of a training run (builds twice)"
       ${_fitrank_pgo_default})

if(FITRANK_PGO_GENERATE)
  set(_gen -fprofile-generate=${FITRANK_PGO_GENERATE} -fprofile-prefix-path=${CMAKE_BINARY_DIR}
           -fprofile-update=atomic)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${_gen}>")
  add_link_options(-fprofile-generate=${FITRANK_PGO_GENERATE})
elseif(FITRANK_PGO)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR FITRANK_SANITIZE OR FITRANK_FUZZ)
    message(FATAL_ERROR "FITRANK_PGO=ON needs GCC and no sanitizer or fuzz build; "
                        "configure with -DFITRANK_PGO=OFF")
  endif()
  include(ExternalProject)
  set(_training_dir ${CMAKE_BINARY_DIR}/pgo-training)
  set(_profile_dir ${CMAKE_BINARY_DIR}/pgo-profile)
  set(_args -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
            -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
            "-DCMAKE_CXX_FLAGS=${CMAKE_CXX_FLAGS}"
            "-DCMAKE_CXX_FLAGS_RELEASE=${CMAKE_CXX_FLAGS_RELEASE}"
            -DFITRANK_STATIC_LIBS=${FITRANK_STATIC_LIBS}
            -DFITRANK_BUILD_TESTS=OFF -DFITRANK_BENCHMARKS=OFF -DFITRANK_PGO=OFF
            -DFITRANK_PGO_GENERATE=${_profile_dir})
  if(CMAKE_CXX_COMPILER_LAUNCHER)
    list(APPEND _args -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  # The training copy's fitrank only (no man page, no tests); built on every build, which is a
  # no-op when no source changed. Under make it shares this build's job slots (-jN).
  if(CMAKE_GENERATOR MATCHES "Makefiles")
    set(_build $(MAKE) fitrank)
  else()
    set(_build ${CMAKE_COMMAND} --build ${_training_dir} --target fitrank)
  endif()
  ExternalProject_Add(fitrank_pgo_build
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${_training_dir}
    CMAKE_ARGS ${_args}
    BUILD_COMMAND ${_build}
    BUILD_ALWAYS TRUE
    BUILD_BYPRODUCTS ${_training_dir}/fitrank
    INSTALL_COMMAND "")
  # The training run, again whenever the training copy's fitrank was linked again: from an
  # empty profile folder, so that no count of older code is merged in.
  set(_stamp ${_profile_dir}.stamp)
  add_custom_command(
    OUTPUT ${_stamp}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${_profile_dir}
    COMMAND sh ${PROJECT_SOURCE_DIR}/cmake/pgo_train.sh ${_training_dir}/fitrank
    COMMAND ${CMAKE_COMMAND} -E touch ${_stamp}
    DEPENDS ${_training_dir}/fitrank ${PROJECT_SOURCE_DIR}/cmake/pgo_train.sh
    COMMENT "Profiling a training run of fitrank for the optimised build")
  add_custom_target(fitrank_pgo_profile DEPENDS ${_stamp})
  add_dependencies(fitrank_pgo_profile fitrank_pgo_build)
  # A generated source (the embedded data, the baked catalog, the compiled rules) sits in each
  # build folder, so its path differs between the two builds and GCC's check of each
  # function's source lines fails although the code is the same; that profile is used anyway.
  # A function whose control flow differs gets none (GCC drops it): a stale profile can make
  # the build slower, never wrong.
  set(_use -fprofile-use=${_profile_dir} -fprofile-prefix-path=${CMAKE_BINARY_DIR}
           -fprofile-partial-training -Wno-missing-profile -Wno-coverage-mismatch)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${_use}>")
  set(FITRANK_PGO_DEPENDS fitrank_pgo_profile)
endif()

# With PGO: every target of this build that compiles C++ waits for the profile (called once,
# after every target is defined).
function(fitrank_pgo_order)
  if(NOT FITRANK_PGO_DEPENDS)
    return()
  endif()
  set(_dirs ${PROJECT_SOURCE_DIR})
  while(_dirs)
    list(POP_FRONT _dirs _dir)
    get_property(_sub DIRECTORY ${_dir} PROPERTY SUBDIRECTORIES)
    list(APPEND _dirs ${_sub})
    get_property(_targets DIRECTORY ${_dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(_t IN LISTS _targets)
      get_target_property(_type ${_t} TYPE)
      if(_type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
        add_dependencies(${_t} ${FITRANK_PGO_DEPENDS})
      endif()
    endforeach()
  endwhile()
endfunction()
