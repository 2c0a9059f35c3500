# SPDX-License-Identifier: GPL-2.0-only
# The `bpf` method (docs/bpf.md). Included by collect/CMakeLists.txt; adds to target `collect`
# either the real method (BPF object built with clang, skeleton from bpftool, libbpf) or
# collect/methods/method_bpf_unavailable.c, whose probe says why the method is missing.
#
# vmlinux.h is generated at build time from the build machine's /sys/kernel/btf/vmlinux
# (CO-RE relocates field offsets at load time, so any BTF-enabled kernel runs the object).

set(IDLESCOPE_BPF_SRC ${CMAKE_CURRENT_LIST_DIR})
set(IDLESCOPE_BPF_GEN ${CMAKE_BINARY_DIR}/collect/bpf-gen)
set(IDLESCOPE_BPF_BTF /sys/kernel/btf/vmlinux CACHE FILEPATH "kernel BTF that vmlinux.h is generated from")

set(_bpf_missing "")
if(NOT IDLESCOPE_BPF)
  set(_bpf_missing "built without eBPF support (configured with -DIDLESCOPE_BPF=OFF)")
else()
  find_program(IDLESCOPE_CLANG NAMES clang)
  find_program(IDLESCOPE_BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin)
  pkg_check_modules(LIBBPF IMPORTED_TARGET libbpf)
  set(_missing_tools "")
  if(NOT IDLESCOPE_CLANG)
    list(APPEND _missing_tools clang)
  endif()
  if(NOT IDLESCOPE_BPFTOOL)
    list(APPEND _missing_tools bpftool)
  endif()
  if(NOT LIBBPF_FOUND)
    list(APPEND _missing_tools libbpf-dev)
  endif()
  if(_missing_tools)
    list(JOIN _missing_tools "/" _m)
    set(_bpf_missing "built without eBPF support (${_m} missing at build time)")
  elseif(NOT EXISTS ${IDLESCOPE_BPF_BTF})
    set(_bpf_missing "built without eBPF support (no ${IDLESCOPE_BPF_BTF} to generate vmlinux.h from at build time)")
  endif()
endif()

if(_bpf_missing STREQUAL "")
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|amd64|i.86")
    set(_bpf_arch x86)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
    set(_bpf_arch arm64)
  else()
    set(_bpf_arch ${CMAKE_SYSTEM_PROCESSOR})
  endif()
  file(MAKE_DIRECTORY ${IDLESCOPE_BPF_GEN})

  add_custom_command(OUTPUT ${IDLESCOPE_BPF_GEN}/vmlinux.h
    COMMAND sh -c "'${IDLESCOPE_BPFTOOL}' btf dump file '${IDLESCOPE_BPF_BTF}' format c > vmlinux.h.tmp && mv vmlinux.h.tmp vmlinux.h"
    WORKING_DIRECTORY ${IDLESCOPE_BPF_GEN}
    COMMENT "Generating vmlinux.h from ${IDLESCOPE_BPF_BTF}"
    VERBATIM)

  add_custom_command(OUTPUT ${IDLESCOPE_BPF_GEN}/wake.bpf.o
    COMMAND ${IDLESCOPE_CLANG} -target bpf -g -O2 -Wall -Werror -D__TARGET_ARCH_${_bpf_arch}
            -I${IDLESCOPE_BPF_GEN} -I${IDLESCOPE_BPF_SRC}/bpf
            -c ${IDLESCOPE_BPF_SRC}/bpf/wake.bpf.c -o wake.bpf.o
    DEPENDS ${IDLESCOPE_BPF_SRC}/bpf/wake.bpf.c ${IDLESCOPE_BPF_SRC}/bpf/wake_rec.h
            ${IDLESCOPE_BPF_SRC}/bpf/causes.bpf.h
            ${IDLESCOPE_BPF_GEN}/vmlinux.h
    WORKING_DIRECTORY ${IDLESCOPE_BPF_GEN}
    COMMENT "Building BPF object wake.bpf.o"
    VERBATIM)

  add_custom_command(OUTPUT ${IDLESCOPE_BPF_GEN}/wake.skel.h
    COMMAND sh -c "'${IDLESCOPE_BPFTOOL}' gen skeleton wake.bpf.o name wake_bpf > wake.skel.h.tmp && mv wake.skel.h.tmp wake.skel.h"
    DEPENDS ${IDLESCOPE_BPF_GEN}/wake.bpf.o
    WORKING_DIRECTORY ${IDLESCOPE_BPF_GEN}
    COMMENT "Generating BPF skeleton wake.skel.h"
    VERBATIM)

  add_custom_target(idlescope_bpf_skel DEPENDS ${IDLESCOPE_BPF_GEN}/wake.skel.h)

  add_library(idlescope_bpf_method OBJECT
    ${IDLESCOPE_BPF_SRC}/method_bpf.c
    ${IDLESCOPE_BPF_SRC}/method_bpf_sys.c
    ${IDLESCOPE_BPF_SRC}/method_bpf_hist.c
    ${IDLESCOPE_BPF_SRC}/method_bpf_causes.c
    ${IDLESCOPE_BPF_SRC}/method_bpf_steal.c
    ${IDLESCOPE_BPF_SRC}/method_bpf_thread.c)
  add_dependencies(idlescope_bpf_method idlescope_bpf_skel)
  target_include_directories(idlescope_bpf_method PRIVATE
    ${IDLESCOPE_BPF_SRC} ${IDLESCOPE_BPF_SRC}/../common ${IDLESCOPE_BPF_SRC}/bpf ${IDLESCOPE_BPF_GEN})
  target_link_libraries(idlescope_bpf_method PUBLIC idlescope PkgConfig::LIBBPF PkgConfig::CJSON Threads::Threads)
  set(IDLESCOPE_BPF_AVAILABLE ON CACHE INTERNAL "the bpf method is built")
else()
  message(STATUS "bpf method: ${_bpf_missing}")
  add_library(idlescope_bpf_method OBJECT ${IDLESCOPE_BPF_SRC}/method_bpf_unavailable.c)
  target_compile_definitions(idlescope_bpf_method PRIVATE "IDLESCOPE_BPF_MISSING=\"${_bpf_missing}\"")
  target_include_directories(idlescope_bpf_method PRIVATE ${IDLESCOPE_BPF_SRC} ${IDLESCOPE_BPF_SRC}/../common)
  target_link_libraries(idlescope_bpf_method PUBLIC idlescope PkgConfig::CJSON)
  set(IDLESCOPE_BPF_AVAILABLE OFF CACHE INTERNAL "the bpf method is built")
endif()

# Add the method to `collect`. A file(GLOB) of collect/methods/*.c may have picked up our sources
# already: drop them there, they come in through the object library (one of two variants).
function(_idlescope_bpf_attach)
  get_target_property(_srcs collect SOURCES)
  list(FILTER _srcs EXCLUDE REGEX "(^|/)method_bpf[^/]*\\.c$|\\.bpf\\.c$")
  set_property(TARGET collect PROPERTY SOURCES ${_srcs})
  # Linking an object library adds its objects to `collect` (and libbpf with them).
  target_link_libraries(collect PRIVATE idlescope_bpf_method)
endfunction()

if(TARGET collect)
  _idlescope_bpf_attach()
else()
  cmake_language(DEFER CALL _idlescope_bpf_attach)
endif()
