# What the mlfabric module needs besides ns-3, in both builds, and the Chakra schema.
find_package(Protobuf REQUIRED)
find_package(Boost 1.74 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(YAMLCPP REQUIRED IMPORTED_TARGET yaml-cpp)
find_package(nlohmann_json 3 REQUIRED)

find_program(MLFABRIC_CCACHE ccache)
if(MLFABRIC_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${MLFABRIC_CCACHE})
endif()

set(mlfabric_third_party protobuf::libprotobuf Boost::boost ZLIB::ZLIB PkgConfig::YAMLCPP
                         nlohmann_json::nlohmann_json)

# The Chakra execution-trace schema (contrib/chakra/et_def.proto), compiled by protoc. The
# header is served as "ns3/et_def.pb.h" beside the module's own headers.
function(mlfabric_compile_schema header_dir out_sources out_header)
  set(proto ${CMAKE_CURRENT_SOURCE_DIR}/contrib/chakra/et_def.proto)
  set(proto_dir ${CMAKE_CURRENT_BINARY_DIR}/proto)
  file(MAKE_DIRECTORY ${proto_dir} ${header_dir}/ns3)
  add_custom_command(
    OUTPUT ${proto_dir}/et_def.pb.cc ${proto_dir}/et_def.pb.h ${header_dir}/ns3/et_def.pb.h
    COMMAND protobuf::protoc --cpp_out=${proto_dir} -I ${CMAKE_CURRENT_SOURCE_DIR}/contrib/chakra
            ${proto}
    COMMAND ${CMAKE_COMMAND} -E copy ${proto_dir}/et_def.pb.h ${header_dir}/ns3/et_def.pb.h
    DEPENDS ${proto} protobuf::protoc
    COMMENT "protoc et_def.proto")
  set(${out_sources} ${proto_dir}/et_def.pb.cc ${header_dir}/ns3/et_def.pb.h PARENT_SCOPE)
  set(${out_header} ${header_dir}/ns3/et_def.pb.h PARENT_SCOPE)
endfunction()
