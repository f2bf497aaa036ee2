# Helpers that keep every module's CMakeLists.txt a few lines long.

set(DRAPE_WARNINGS -Wall -Wextra -Wno-unused-parameter)
# GCC before 13 warns about every member a C++20 designated initializer
# leaves to its default (GCC PR c++/96868), which is how options structs are
# written here: {.group = "body"}.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  list(APPEND DRAPE_WARNINGS -Wno-missing-field-initializers)
endif()
# GCC 12's -Wrestrict misfires inside std::string's own code at -O2 and above
# (GCC PR 105651), not in ours.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  list(APPEND DRAPE_WARNINGS -Wno-restrict)
endif()

# drape_unity(TARGET): with DRAPE_UNITY_BUILD (on) the target's sources are
# compiled in unity batches of up to 8 files. Every source parses Eigen, the
# standard library and (in the CLI) CLI11 again and instantiates the same
# inline code again: three CLI commands took 72 s of CPU one by one under the
# sanitizers and 27 s as one unit (docs/HARDENING.md "Sanitizers"). Names at
# file scope (anonymous namespaces included) then share a translation unit, so
# each file's helpers need names of their own.
function(drape_unity target)
  if(DRAPE_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()

# drape_add_module(NAME SOURCES a.cpp b.cpp DEPS drape::core ... [PRIVATE_DEPS ...])
# Creates library drape_<NAME> with alias drape::<NAME>; public headers live
# in include/drape/<NAME>/.
function(drape_add_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(drape_${name} STATIC ${ARG_SOURCES})
  drape_unity(drape_${name})
  add_library(drape::${name} ALIAS drape_${name})
  target_include_directories(drape_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(drape_${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  target_compile_options(drape_${name} PRIVATE ${DRAPE_WARNINGS})
  set_property(GLOBAL APPEND PROPERTY DRAPE_MODULE_TARGETS drape::${name})
endfunction()

# drape_add_test(NAME SOURCES a_test.cpp DEPS drape::bvh ... [OWN_TU b_test.cpp ...] [COST seconds])
# A GoogleTest executable registered with ctest. Tests find the repository's
# data through DRAPE_DATA_DIR (data/) and DRAPE_TEST_DATA_DIR (tests/data/).
# With DRAPE_UNITY_TESTS (on) a program's sources are compiled as unity
# batches of up to 8 files: every test file parses gtest and the drape headers
# again (about 3 of its 5 s), so a batch of 16 compiles several times faster
# than its files one by one (docs/HARDENING.md "Sanitizers"). Names at file
# scope (anonymous namespaces included) then share one translation unit; a
# file whose helpers clash with another's is listed in OWN_TU and compiled
# on its own.
# COST (ctest's property, for each of the program's tests) marks a program
# holding a long test: `ctest -j` starts the costliest tests first, and in a
# fresh build directory, with no timings of an earlier run, it knows only
# these; without them a long test declared late (tests/apps/ comes last) runs
# alone at the end while the other cores idle. Give roughly the longest
# test's seconds under the sanitizers (docs/HARDENING.md "Sanitizers").
# drape_test_precompiled_headers(TARGET): with DRAPE_TEST_PCH (on) the test
# programs share one precompiled header of GoogleTest, nlohmann/json and the
# standard headers they use: parsing them was about half of a test file's
# compile time (a 48-line CLI test: 8.8 s at -O3, 4.6 s of it parsing), and
# test files were over half the CPU of a cold build (docs/HARDENING.md "CI
# time"). GCC uses a precompiled header only under the options it was built
# with, so the first test program of each set of directory compile options
# (the sanitizer build compiles bvh and collision tests at another -O) builds
# it and the others reuse it.
function(drape_test_precompiled_headers target)
  if(NOT DRAPE_TEST_PCH)
    return()
  endif()
  get_directory_property(_options COMPILE_OPTIONS)
  string(MD5 _key "${_options}")
  get_property(_owner GLOBAL PROPERTY DRAPE_TEST_PCH_${_key})
  if(_owner)
    target_precompile_headers(${target} REUSE_FROM ${_owner})
  else()
    target_precompile_headers(${target} PRIVATE
      <gtest/gtest.h> <nlohmann/json.hpp> <algorithm> <cmath> <filesystem> <fstream> <map>
      <numbers> <random> <set> <sstream> <string> <vector>)
    set_property(GLOBAL PROPERTY DRAPE_TEST_PCH_${_key} ${target})
  endif()
endfunction()

function(drape_add_test name)
  cmake_parse_arguments(ARG "" "COST" "SOURCES;DEPS;OWN_TU" ${ARGN})
  add_executable(${name} ${ARG_SOURCES} ${ARG_OWN_TU})
  list(LENGTH ARG_SOURCES _batched)
  if(DRAPE_UNITY_TESTS AND _batched GREATER 1)
    set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    if(ARG_OWN_TU)
      set_source_files_properties(${ARG_OWN_TU} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endif()
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest_main)
  target_compile_options(${name} PRIVATE ${DRAPE_WARNINGS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  target_compile_definitions(${name} PRIVATE
    DRAPE_DATA_DIR="${PROJECT_SOURCE_DIR}/data"
    DRAPE_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
    DRAPE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  drape_test_precompiled_headers(${name})
  set(_props TIMEOUT 600)
  if(ARG_COST)
    list(APPEND _props COST ${ARG_COST})
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES ${_props})
endfunction()
