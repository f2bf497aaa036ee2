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

# drape_add_module(NAME SOURCES a.cpp b.cpp DEPS drape::core ... [PRIVATE_DEPS ...])
# Creates library drape_<NAME> with alias drape::<NAME>; public headers live
# in include/drape/<NAME>/.
function(drape_add_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(drape_${name} STATIC ${ARG_SOURCES})
  add_library(drape::${name} ALIAS drape_${name})
  target_include_directories(drape_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(drape_${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  target_compile_options(drape_${name} PRIVATE ${DRAPE_WARNINGS})
  set_property(GLOBAL APPEND PROPERTY DRAPE_MODULE_TARGETS drape::${name})
endfunction()

# drape_add_test(NAME SOURCES a_test.cpp DEPS drape::bvh ...)
# A GoogleTest executable registered with ctest. Tests find the repository's
# data through DRAPE_DATA_DIR (data/) and DRAPE_TEST_DATA_DIR (tests/data/).
function(drape_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest_main)
  target_compile_options(${name} PRIVATE ${DRAPE_WARNINGS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  target_compile_definitions(${name} PRIVATE
    DRAPE_DATA_DIR="${PROJECT_SOURCE_DIR}/data"
    DRAPE_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
    DRAPE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endfunction()
