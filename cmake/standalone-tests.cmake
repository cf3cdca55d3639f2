# The GoogleTest suites of the standalone build: one binary per test/<area>-test.cc, run by
# ctest. In an ns-3 tree the same cases run as ns-3 TestSuites (test/ns3-gtest-bridge.cc).
enable_testing()
find_package(GTest REQUIRED)
include(GoogleTest)

set(mlfabric_test_definitions
    MLFABRIC_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
    MLFABRIC_SHARED_DIR="${CMAKE_SOURCE_DIR}/../shared"
    MLFABRIC_EXAMPLES_DIR="${CMAKE_BINARY_DIR}/examples"
    MLFABRIC_TOOLS_DIR="${CMAKE_BINARY_DIR}/tools"
    MLFABRIC_BINARY_DIR="${CMAKE_BINARY_DIR}")

foreach(src ${mlfabric_test_sources})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src} test/test-main.cc)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/test)
  target_link_libraries(${name} PRIVATE mlfabric GTest::gtest)
  target_compile_definitions(${name} PRIVATE ${mlfabric_test_definitions})
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
                       PROPERTIES TIMEOUT 900)
endforeach()

# The experiment tool (Python, Debian's interpreter and matplotlib).
add_test(NAME compare-tool
         COMMAND /usr/bin/python3 -m unittest discover -s ${CMAKE_SOURCE_DIR}/contrib/compare/tests)
set_tests_properties(compare-tool PROPERTIES TIMEOUT 900 ENVIRONMENT
                     "MLFABRIC_REPLAY_BINARY=${CMAKE_BINARY_DIR}/examples/chakra-replay")

# The compare tool on a real Slurm started on localhost (Debian's slurm-wlm and munge).
add_test(NAME compare-slurm
         COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/contrib/compare/tests/slurm_sweep.py)
set_tests_properties(compare-slurm PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 ENVIRONMENT
                     "MLFABRIC_REPLAY_BINARY=${CMAKE_BINARY_DIR}/examples/chakra-replay")

# The Python Chakra trace package LIBRA and RePurpose share; its traces go through et-info.
add_test(NAME chakra-python
         COMMAND /usr/bin/python3 -m unittest discover -s ${CMAKE_SOURCE_DIR}/contrib/chakra/tests)
set_tests_properties(chakra-python PROPERTIES TIMEOUT 120 ENVIRONMENT
                     "MLFABRIC_ET_INFO=${CMAKE_BINARY_DIR}/tools/et-info")

# LIBRA's bandwidth optimisation (Python, Debian's NLopt).
add_test(NAME libra-tool
         COMMAND /usr/bin/python3 -m unittest discover -s ${CMAKE_SOURCE_DIR}/contrib/libra/tests)
set_tests_properties(libra-tool PROPERTIES TIMEOUT 600 ENVIRONMENT
                     "MLFABRIC_REPLAY_BINARY=${CMAKE_BINARY_DIR}/examples/chakra-replay;MLFABRIC_SHARED_DIR=${CMAKE_SOURCE_DIR}/../shared")

# RePurpose's restructuring and traces (Python: numpy, scipy, scikit-learn from Debian).
add_test(NAME repurpose-tool
         COMMAND /usr/bin/python3 -m unittest discover -s ${CMAKE_SOURCE_DIR}/contrib/repurpose/tests)
# The tests import numpy before the package can cap its kernels (mlfabric_repurpose/__init__.py).
set_tests_properties(repurpose-tool PROPERTIES TIMEOUT 900 ENVIRONMENT
                     "MLFABRIC_REPLAY_BINARY=${CMAKE_BINARY_DIR}/examples/chakra-replay;MLFABRIC_TOOLS_DIR=${CMAKE_BINARY_DIR}/tools;NPY_DISABLE_CPU_FEATURES=AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL")

# The design-space sweep (Python, Debian's matplotlib), its quick form end to end.
add_test(NAME dse-tool
         COMMAND /usr/bin/python3 -m unittest discover -s ${CMAKE_SOURCE_DIR}/contrib/dse/tests)
set_tests_properties(dse-tool PROPERTIES TIMEOUT 300 ENVIRONMENT
                     "MLFABRIC_BINARY_DIR=${CMAKE_BINARY_DIR}")

# doc/programming's program, built against the installed package (find_package, pkg-config).
add_test(NAME out-of-tree-program
         COMMAND bash ${CMAKE_SOURCE_DIR}/test/out-of-tree-program.sh ${CMAKE_BINARY_DIR})
set_tests_properties(out-of-tree-program PROPERTIES TIMEOUT 600)

# The API reference stays complete: `mlfabric doc` runs doxygen over model/ and helper/ and
# fails on any warning (an undocumented declaration, parameter or return value, or a
# comment doxygen cannot read).
find_program(DOXYGEN doxygen)
if(DOXYGEN)
  add_test(NAME doxygen-warnings COMMAND ${CMAKE_SOURCE_DIR}/mlfabric doc)
  set_tests_properties(doxygen-warnings PROPERTIES TIMEOUT 300 ENVIRONMENT
                       "MLFABRIC_BUILD_DIR=${CMAKE_BINARY_DIR};MLFABRIC_DOXYGEN=${DOXYGEN}")
endif()
