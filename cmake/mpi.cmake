# The distributed simulator's part of mlfabric, built when ns-3's mpi module is there
# (`./mlfabric mpi` builds it into build-ns3/mpi; Debian's libns3-dev has none):
# libns3-mlfabric-mpi with RoceRemoteChannel, and its tests on two MPI processes.
set(MLFABRIC_NS3_MPI_PREFIX "${CMAKE_SOURCE_DIR}/build-ns3/mpi"
    CACHE PATH "Where ./mlfabric mpi installed ns-3's mpi module")
find_package(ns3-mpi CONFIG QUIET PATHS "${MLFABRIC_NS3_MPI_PREFIX}" NO_DEFAULT_PATH)
if(NOT ns3-mpi_FOUND)
  message(STATUS "mlfabric: no ns-3 mpi module in ${MLFABRIC_NS3_MPI_PREFIX} "
                 "(./mlfabric mpi builds it): RoceRemoteChannel and its MPI tests are not built")
  return()
endif()
message(STATUS "mlfabric: ns-3 mpi module from ${MLFABRIC_NS3_MPI_PREFIX}")

set(mlfabric_mpi_headers model/distributed/mpi-process-group.h
                         model/distributed/roce-remote-channel.h)
add_library(mlfabric-mpi SHARED model/distributed/mpi-process-group.cc
                                model/distributed/roce-remote-channel.cc)
set_target_properties(mlfabric-mpi PROPERTIES OUTPUT_NAME ns3-mlfabric-mpi
                                              VERSION ${PROJECT_VERSION})
target_link_libraries(mlfabric-mpi PUBLIC mlfabric ns3::ns3-mpi)
# The C API only: Open MPI's deprecated C++ bindings do not compile warning-free.
target_compile_definitions(mlfabric-mpi PUBLIC OMPI_SKIP_MPICXX MPICH_SKIP_MPICXX)
target_compile_options(mlfabric-mpi PRIVATE -Wall -Wextra -Wno-unused-parameter)
foreach(header ${mlfabric_mpi_headers})
  get_filename_component(name ${header} NAME)
  file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${header} ${MLFABRIC_HEADER_DIR}/ns3/${name} SYMBOLIC)
endforeach()

# incast, hpcc-compat and chakra-replay run one simulation across the processes mpirun
# starts.
foreach(example incast hpcc-compat chakra-replay)
  target_link_libraries(examples-${example} PRIVATE mlfabric-mpi)
  target_compile_definitions(examples-${example} PRIVATE MLFABRIC_MPI)
endforeach()

if(MLFABRIC_TESTS)
  add_executable(remote-channel-mpi-test test/remote-channel-mpi-test.cc)
  set_target_properties(remote-channel-mpi-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                                           ${CMAKE_BINARY_DIR}/tests)
  target_link_libraries(remote-channel-mpi-test PRIVATE mlfabric-mpi GTest::gtest)
  # Two processes, under each of ns-3's two synchronisation engines, one case per run:
  # ns-3's MPI interfaces free their requests when the simulator is destroyed, so a
  # process runs one simulation. Open MPI refuses root unless told; CI runs as root.
  foreach(engine granted-time-window null-message)
    foreach(case FramesCrossAtTheirArrivalTimeWithEveryField PfcPauseActsAcross)
      add_test(NAME remote-channel-mpi-${engine}.${case}
               COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --oversubscribe
                       $<TARGET_FILE:remote-channel-mpi-test> --engine=${engine}
                       --gtest_filter=RemoteChannelMpi.${case})
      set_tests_properties(remote-channel-mpi-${engine}.${case} PROPERTIES TIMEOUT 120
                           ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
    endforeach()
  endforeach()
endif()

if(MLFABRIC_TESTS)
  # A program's run in one process and across several compared figure for figure (incast)
  # and file for file (hpcc-compat), and a replay's figures (chakra-replay); each test
  # starts mpiexec itself.
  foreach(example incast hpcc-compat chakra-replay)
    string(REGEX REPLACE "-compat|chakra-" "" name ${example})
    add_executable(${name}-mpi-test test/${name}-mpi-test.cc)
    set_target_properties(${name}-mpi-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                                      ${CMAKE_BINARY_DIR}/tests)
    target_link_libraries(${name}-mpi-test PRIVATE GTest::gtest_main
                                                   nlohmann_json::nlohmann_json)
    target_compile_definitions(
      ${name}-mpi-test PRIVATE MLFABRIC_EXAMPLES_DIR="${CMAKE_BINARY_DIR}/examples"
                               MLFABRIC_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
                               MLFABRIC_MPIEXEC="${MPIEXEC_EXECUTABLE}")
    add_dependencies(${name}-mpi-test examples-${example})
    if(name STREQUAL "replay")
      # It writes the traces it replays.
      target_link_libraries(${name}-mpi-test PRIVATE mlfabric)
      target_compile_definitions(${name}-mpi-test PRIVATE ${mlfabric_test_definitions})
    endif()
    gtest_discover_tests(${name}-mpi-test DISCOVERY_MODE PRE_TEST PROPERTIES TIMEOUT 300)
  endforeach()
endif()

# bench/remote-channel.sh's program: the distributed simulator's cost on mlfabric's cables.
add_executable(remote-channel-bench bench/remote-channel-bench.cc)
set_target_properties(remote-channel-bench PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                                      ${CMAKE_BINARY_DIR}/bench)
target_link_libraries(remote-channel-bench PRIVATE mlfabric-mpi)
