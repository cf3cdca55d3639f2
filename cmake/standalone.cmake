# Standalone build of the mlfabric module against an installed ns-3 (Debian's libns3-dev).
#
# Inside an ns-3 source tree, ns-3's build system provides build_lib and build_lib_example.
# Here the same two functions are defined for an installed ns-3, so that one CMakeLists.txt
# describes the module in both builds. The library is ns3-mlfabric, its headers are served
# as "ns3/<name>.h" from build/include (as ns-3 does), the examples land in build/examples,
# and `cmake --install` installs the library, the headers, mlfabricConfig.cmake and
# mlfabric.pc.

find_package(ns3 3.37 REQUIRED)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The ns-3 modules, under the names ns-3's own build gives them.
set(libcore ns3::libcore)
set(libnetwork ns3::libnetwork)
set(libmlfabric mlfabric)

set(MLFABRIC_HEADER_DIR ${CMAKE_BINARY_DIR}/include)
set(MLFABRIC_EXAMPLE_DIR ${CMAKE_BINARY_DIR}/examples)

include(${CMAKE_CURRENT_LIST_DIR}/headers.cmake)

function(build_lib)
  cmake_parse_arguments(BLIB "" "LIBNAME"
                        "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK;TEST_SOURCES" ${ARGN})
  add_library(${BLIB_LIBNAME} SHARED ${BLIB_SOURCE_FILES})
  add_library(mlfabric::mlfabric ALIAS ${BLIB_LIBNAME})
  set_target_properties(${BLIB_LIBNAME} PROPERTIES OUTPUT_NAME ns3-${BLIB_LIBNAME}
                                                   VERSION ${PROJECT_VERSION})
  target_include_directories(${BLIB_LIBNAME} PUBLIC $<BUILD_INTERFACE:${MLFABRIC_HEADER_DIR}>
                                                    $<INSTALL_INTERFACE:include>)
  target_link_libraries(${BLIB_LIBNAME} PUBLIC ${BLIB_LIBRARIES_TO_LINK})
  mlfabric_expose_headers(${CMAKE_CURRENT_SOURCE_DIR} ${MLFABRIC_HEADER_DIR} "${BLIB_HEADER_FILES}")

  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt)
    add_subdirectory(examples)
  endif()

  install(TARGETS ${BLIB_LIBNAME} EXPORT mlfabricTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  foreach(header ${BLIB_HEADER_FILES})
    install(FILES ${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
  endforeach()
  install(FILES ${MLFABRIC_HEADER_DIR}/ns3/mlfabric-module.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
endfunction()

function(build_lib_example)
  cmake_parse_arguments(BLIB_EXAMPLE "" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK"
                        ${ARGN})
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(target ${folder}-${BLIB_EXAMPLE_NAME})
  add_executable(${target} ${BLIB_EXAMPLE_SOURCE_FILES})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${BLIB_EXAMPLE_NAME}
                                             RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/${folder})
  target_link_libraries(${target} PRIVATE ${libmlfabric} ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
endfunction()

# The CMake package (find_package(mlfabric)) and the pkg-config file, for programs built
# out of tree against an installed mlfabric.
function(mlfabric_install_package)
  install(EXPORT mlfabricTargets NAMESPACE mlfabric::
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mlfabric)
  configure_package_config_file(
    ${CMAKE_CURRENT_SOURCE_DIR}/cmake/mlfabricConfig.cmake.in
    ${CMAKE_BINARY_DIR}/mlfabricConfig.cmake
    INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mlfabric)
  write_basic_package_version_file(${CMAKE_BINARY_DIR}/mlfabricConfigVersion.cmake
                                   COMPATIBILITY SameMinorVersion)
  install(FILES ${CMAKE_BINARY_DIR}/mlfabricConfig.cmake
                ${CMAKE_BINARY_DIR}/mlfabricConfigVersion.cmake
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mlfabric)
  # Relative to the .pc file, so that the installed tree can move.
  file(RELATIVE_PATH MLFABRIC_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/mlfabric.pc.in ${CMAKE_BINARY_DIR}/mlfabric.pc
                 @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/mlfabric.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
