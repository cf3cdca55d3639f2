# Serve each public header as <header_dir>/ns3/<name>.h, as ns-3's build does, and write
# the module header that includes them all.
function(mlfabric_expose_headers source_root header_dir headers)
  file(MAKE_DIRECTORY ${header_dir}/ns3)
  set(contents "// Every public header of the mlfabric module (generated).\n")
  string(APPEND contents "#ifndef NS3_MODULE_MLFABRIC\n#define NS3_MODULE_MLFABRIC\n")
  foreach(header ${headers})
    get_filename_component(name ${header} NAME)
    file(CREATE_LINK ${source_root}/${header} ${header_dir}/ns3/${name} SYMBOLIC)
    string(APPEND contents "#include \"ns3/${name}\"\n")
  endforeach()
  string(APPEND contents "#endif\n")
  file(CONFIGURE OUTPUT ${header_dir}/ns3/mlfabric-module.h CONTENT "${contents}")
endfunction()
