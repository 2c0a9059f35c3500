# Remote and fleet collection (docs/remote.md): the sources go into `collect`, and the target
# `collect-deploy` builds the copy that is deployed to SUTs: the same program with every library
# linked statically (libbpf, libelf, zlib, GSL, libyaml, libcsv; the BPF object is inside through
# the skeleton), into ${CMAKE_BINARY_DIR}/collect/deploy/. Debian 12 ships no static libcjson:
# its shared library is put beside it (the binary finds it through RUNPATH $ORIGIN).
file(GLOB IDLESCOPE_REMOTE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.c)
target_sources(collect PRIVATE ${IDLESCOPE_REMOTE_SOURCES})
target_include_directories(collect PRIVATE ${CMAKE_CURRENT_LIST_DIR})

set(IDLESCOPE_DEPLOY_DIR ${CMAKE_BINARY_DIR}/collect/deploy)
set(_static_missing "")
set(_static_libs "")
foreach(_lib bpf elf z gsl gslcblas yaml csv)
  find_library(IDLESCOPE_STATIC_${_lib} NAMES lib${_lib}.a)
  if(IDLESCOPE_STATIC_${_lib})
    list(APPEND _static_libs ${IDLESCOPE_STATIC_${_lib}})
  else()
    list(APPEND _static_missing lib${_lib}.a)
  endif()
endforeach()
find_library(IDLESCOPE_CJSON_SO NAMES cjson)
if(IDLESCOPE_CJSON_SO)
  file(REAL_PATH ${IDLESCOPE_CJSON_SO} _cjson_real)
  get_filename_component(_cjson_name ${_cjson_real} NAME)
  string(REGEX REPLACE "^(libcjson\\.so\\.[0-9]+).*" "\\1" _cjson_soname ${_cjson_name})
else()
  list(APPEND _static_missing libcjson.so)
endif()

function(_idlescope_deploy_target)
  if(_static_missing)
    message(STATUS "collect-deploy: not built (missing ${_static_missing}); remote runs need it")
    return()
  endif()
  get_target_property(_srcs collect SOURCES)
  get_target_property(_defs collect COMPILE_DEFINITIONS)
  add_executable(collect-deploy ${_srcs} $<TARGET_OBJECTS:idlescope_bpf_method>)
  target_include_directories(collect-deploy PRIVATE ${CMAKE_SOURCE_DIR}/collect ${CMAKE_CURRENT_LIST_DIR}
                             ${CMAKE_SOURCE_DIR}/include ${CMAKE_BINARY_DIR}/include)
  if(_defs)
    target_compile_definitions(collect-deploy PRIVATE ${_defs})
  endif()
  add_dependencies(collect-deploy idlescope idlescope_bpf_method)
  target_link_libraries(collect-deploy PRIVATE $<TARGET_FILE:idlescope> ${_static_libs}
                        ${_static_libs} ${IDLESCOPE_CJSON_SO} Threads::Threads m)
  target_link_options(collect-deploy PRIVATE -static-libgcc)
  set_target_properties(collect-deploy PROPERTIES OUTPUT_NAME collect
    RUNTIME_OUTPUT_DIRECTORY ${IDLESCOPE_DEPLOY_DIR}
    BUILD_RPATH "$ORIGIN" INSTALL_RPATH "$ORIGIN" SKIP_BUILD_RPATH OFF BUILD_WITH_INSTALL_RPATH ON)
  add_custom_command(TARGET collect-deploy POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E copy ${_cjson_real} ${IDLESCOPE_DEPLOY_DIR}/${_cjson_soname}
    VERBATIM)
  install(DIRECTORY ${IDLESCOPE_DEPLOY_DIR}/ DESTINATION lib/idlescope/deploy USE_SOURCE_PERMISSIONS)
endfunction()
cmake_language(DEFER CALL _idlescope_deploy_target)
