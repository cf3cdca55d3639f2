# Inside an ns-3 source tree: the test library's GoogleTest cases as ns-3 TestSuites, and the
# programs under their plain names for the tests that run them. Included before build_lib.
get_filename_component(mlfabric_real_source_dir ${CMAKE_CURRENT_SOURCE_DIR} REALPATH)
set(MLFABRIC_SHARED_DIR ${mlfabric_real_source_dir}/../shared
    CACHE PATH "Folder of the reference inputs (ASTRA-sim, HPCC, LIBRA) the tests read")

# ns-3 forwards each header through a stub in build/include/ns3 that it writes once; when a
# header of this module moves, its stale stub would shadow the new one. Drop those.
file(GLOB mlfabric_header_stubs ${CMAKE_HEADER_OUTPUT_DIRECTORY}/*.h)
foreach(stub ${mlfabric_header_stubs})
  file(STRINGS ${stub} forward LIMIT_COUNT 1 REGEX "^#include \"${CMAKE_CURRENT_SOURCE_DIR}/")
  if(forward)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" target "${forward}")
    if(NOT EXISTS ${target})
      file(REMOVE ${stub})
    endif()
  endif()
endforeach()

# ns-3 names executables ns3.37-<name>-<profile>; the tests run them as <programs>/<name>.
set(mlfabric_programs_dir ${CMAKE_OUTPUT_DIRECTORY}/contrib/mlfabric/programs)
file(MAKE_DIRECTORY ${mlfabric_programs_dir})
function(mlfabric_link_program program)
  add_custom_command(
    TARGET ${program} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE:${program}>
            ${mlfabric_programs_dir}/${program})
endfunction()

# Called after build_lib: the test library.
function(mlfabric_ns3_tree_tests)
  if(TARGET ${testmlfabric})
    find_package(GTest REQUIRED)
    # One ns-3 suite per test/<area>-test.cc, named mlfabric-<area>, selecting that file's
    # GoogleTest suites.
    set(registry "// ns-3 TestSuites of the mlfabric GoogleTest files (generated).\n")
    string(APPEND registry "#include \"ns3-gtest-bridge.h\"\n\nnamespace\n{\n")
    set(index 0)
    foreach(src ${mlfabric_test_sources})
      get_filename_component(area ${src} NAME_WE)
      string(REGEX REPLACE "-test$" "" area ${area})
      file(READ ${CMAKE_CURRENT_SOURCE_DIR}/${src} text)
      string(REGEX MATCHALL "TEST(_F|_P)?\\([A-Za-z0-9_]+," cases "${text}")
      set(suites "")
      foreach(case ${cases})
        string(REGEX REPLACE "TEST(_F|_P)?\\(([A-Za-z0-9_]+)," "\\2" suite "${case}")
        list(APPEND suites ${suite})
      endforeach()
      list(REMOVE_DUPLICATES suites)
      set(filter "")
      foreach(suite ${suites})
        list(APPEND filter "${suite}.*" "*/${suite}.*")
      endforeach()
      list(JOIN filter ":" filter)
      string(APPEND registry
             "ns3::GtestSuite g_suite${index}(\"mlfabric-${area}\", \"${filter}\");\n")
      math(EXPR index "${index} + 1")
    endforeach()
    string(APPEND registry "} // namespace\n")
    file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/ns3-test-suites.cc CONTENT "${registry}")

    target_sources(${testmlfabric} PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/ns3-test-suites.cc)
    target_include_directories(${testmlfabric} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/test)
    target_link_libraries(${testmlfabric} GTest::gtest)
    target_compile_definitions(
      ${testmlfabric}
      PRIVATE MLFABRIC_SOURCE_DIR="${CMAKE_CURRENT_SOURCE_DIR}"
              MLFABRIC_SHARED_DIR="${MLFABRIC_SHARED_DIR}"
              MLFABRIC_EXAMPLES_DIR="${mlfabric_programs_dir}"
              MLFABRIC_TOOLS_DIR="${mlfabric_programs_dir}"
              MLFABRIC_BINARY_DIR="${CMAKE_CURRENT_BINARY_DIR}"
              MLFABRIC_NS3_TEST_RUNNER)
  endif()
endfunction()
