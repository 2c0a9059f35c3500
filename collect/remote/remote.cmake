# SPDX-License-Identifier: GPL-2.0-only
# Remote and fleet collection (docs/remote.md): the sources go into `collect`, and the target
# `collect-deploy` builds the copy that is deployed to SUTs: the same program as one static
# executable (-static: glibc, libbpf, libelf, zlib, GSL, libyaml, libcsv; the BPF object is inside
# through the skeleton), into ${CMAKE_BINARY_DIR}/collect/deploy/. Debian 12 ships no static
# libcjson: collect-deploy uses our own implementation of the cJSON API that collect and lib/ use
# (json/, nowhere else). The sanitizer build cannot link ASan statically: there it is dynamic.
file(GLOB IDLESCOPE_REMOTE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.c)
target_sources(collect PRIVATE ${IDLESCOPE_REMOTE_SOURCES})
target_include_directories(collect PRIVATE ${CMAKE_CURRENT_LIST_DIR})

set(IDLESCOPE_DEPLOY_DIR ${CMAKE_BINARY_DIR}/collect/deploy)
# an older build put libcjson.so.1 beside collect: it would be deployed and installed
file(GLOB _stale_so ${IDLESCOPE_DEPLOY_DIR}/lib*.so*)
if(_stale_so)
  file(REMOVE ${_stale_so})
endif()
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

# the cJSON API for collect-deploy (collect/remote/json/: include/cjson/cJSON.h and its sources)
file(GLOB IDLESCOPE_JSON_STATIC_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/json/*.c)
add_library(idlescope_json_static STATIC ${IDLESCOPE_JSON_STATIC_SOURCES})
target_include_directories(idlescope_json_static PUBLIC ${CMAKE_CURRENT_LIST_DIR}/json/include)

function(_idlescope_deploy_target)
  if(_static_missing)
    message(STATUS "collect-deploy: not built (missing ${_static_missing}); remote runs need it")
    return()
  endif()
  get_target_property(_srcs collect SOURCES)
  get_target_property(_defs collect COMPILE_DEFINITIONS)
  add_executable(collect-deploy ${_srcs} $<TARGET_OBJECTS:idlescope_bpf_method>)
  # json/include first: its cjson/cJSON.h, not Debian's
  target_include_directories(collect-deploy BEFORE PRIVATE ${CMAKE_CURRENT_LIST_DIR}/json/include)
  get_target_property(_dirs collect INCLUDE_DIRECTORIES)
  target_include_directories(collect-deploy PRIVATE ${_dirs} ${CMAKE_SOURCE_DIR}/lib
                             ${IDLESCOPE_GENERATED_INCLUDE})
  if(_defs)
    target_compile_definitions(collect-deploy PRIVATE ${_defs})
  endif()
  add_dependencies(collect-deploy idlescope idlescope_bpf_method)
  target_link_libraries(collect-deploy PRIVATE $<TARGET_FILE:idlescope> ${_static_libs}
                        ${_static_libs} idlescope_json_static Threads::Threads m)
  if(IDLESCOPE_SANITIZE OR IDLESCOPE_TSAN)
    target_link_options(collect-deploy PRIVATE -static-libgcc)   # no static sanitizer runtime
  else()
    target_link_options(collect-deploy PRIVATE -static)
  endif()
  set_target_properties(collect-deploy PROPERTIES OUTPUT_NAME collect
    RUNTIME_OUTPUT_DIRECTORY ${IDLESCOPE_DEPLOY_DIR})
  # the module's sources (as the DKMS tree has them, with VERSION) for building it on the SUT:
  # one tar beside collect, deployed and checked by hash with it (deploy_kmod.c)
  file(GLOB _kmod_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/kmod/*.c ${CMAKE_SOURCE_DIR}/kmod/*.h
       ${CMAKE_SOURCE_DIR}/kmod/Kbuild ${CMAKE_SOURCE_DIR}/kmod/Makefile)
  set(_stage ${CMAKE_CURRENT_BINARY_DIR}/kmod-tar)
  file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/kmod-VERSION CONTENT "${PROJECT_VERSION}\n")
  set(_names VERSION)
  foreach(_f ${_kmod_srcs})
    get_filename_component(_n ${_f} NAME)
    list(APPEND _names ${_n})
  endforeach()
  list(SORT _names)
  add_custom_command(OUTPUT ${IDLESCOPE_DEPLOY_DIR}/idlescope-kmod.tar
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${_stage}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_stage} ${IDLESCOPE_DEPLOY_DIR}
    COMMAND ${CMAKE_COMMAND} -E copy ${_kmod_srcs} ${CMAKE_CURRENT_BINARY_DIR}/kmod-VERSION ${_stage}
    COMMAND ${CMAKE_COMMAND} -E rename ${_stage}/kmod-VERSION ${_stage}/VERSION
    COMMAND ${CMAKE_COMMAND} -E chdir ${_stage} ${CMAKE_COMMAND} -E tar cf ${IDLESCOPE_DEPLOY_DIR}/idlescope-kmod.tar
            --format=gnutar "--mtime=2000-01-01 00:00:00 UTC" -- ${_names}
    DEPENDS ${_kmod_srcs} ${CMAKE_CURRENT_BINARY_DIR}/kmod-VERSION
    COMMENT "idlescope-kmod.tar: the module's sources for building on SUTs" VERBATIM)
  add_custom_target(idlescope_kmod_tar ALL DEPENDS ${IDLESCOPE_DEPLOY_DIR}/idlescope-kmod.tar)
  add_dependencies(collect-deploy idlescope_kmod_tar)
  install(DIRECTORY ${IDLESCOPE_DEPLOY_DIR}/ DESTINATION lib/idlescope/deploy USE_SOURCE_PERMISSIONS)
endfunction()
cmake_language(DEFER CALL _idlescope_deploy_target)
