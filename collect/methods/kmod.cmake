# SPDX-License-Identifier: GPL-2.0-only
# The hrt/tdt methods (kernel module idlescope, kmod/) in collect, and a `kmod` target that
# builds the module out of tree against IDLESCOPE_KDIR (default: the running kernel's build
# directory). The module is built in ${CMAKE_BINARY_DIR}/kmod so that the source tree stays
# clean; collect looks for it there first when it has to load it.
target_sources(collect PRIVATE ${CMAKE_CURRENT_LIST_DIR}/method_kmod.c ${CMAKE_CURRENT_LIST_DIR}/method_kmod_load.c)
set(IDLESCOPE_KMOD_BUILD_DIR ${CMAKE_BINARY_DIR}/kmod)
# A packaged collect (debian/rules: -DIDLESCOPE_KMOD_BUILD_TREE=OFF) does not look in the
# build tree, which does not exist on the machines it is installed on.
option(IDLESCOPE_KMOD_BUILD_TREE "collect looks for the module in this build tree first" ON)
if(IDLESCOPE_KMOD_BUILD_TREE)
  # only when collect runs from this build tree (not once cmake --install copied it elsewhere)
  target_compile_definitions(collect PRIVATE IDLESCOPE_KMOD_BUILD_PATH="${IDLESCOPE_KMOD_BUILD_DIR}/idlescope.ko"
                             IDLESCOPE_KMOD_BUILD_ROOT="${CMAKE_BINARY_DIR}")
endif()

execute_process(COMMAND uname -r OUTPUT_VARIABLE IDLESCOPE_UNAME_R OUTPUT_STRIP_TRAILING_WHITESPACE)
set(IDLESCOPE_KDIR /lib/modules/${IDLESCOPE_UNAME_R}/build CACHE PATH
    "kernel build directory the idlescope module is built against (target kmod)")
file(GLOB IDLESCOPE_KMOD_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/kmod/*.c ${CMAKE_SOURCE_DIR}/kmod/*.h ${CMAKE_SOURCE_DIR}/kmod/Kbuild ${CMAKE_SOURCE_DIR}/kmod/Makefile)
file(WRITE ${IDLESCOPE_KMOD_BUILD_DIR}/VERSION "${PROJECT_VERSION}\n")   # MODULE_VERSION (Kbuild)
add_custom_command(OUTPUT ${IDLESCOPE_KMOD_BUILD_DIR}/idlescope.ko
  COMMAND ${CMAKE_COMMAND} -E make_directory ${IDLESCOPE_KMOD_BUILD_DIR}
  COMMAND ${CMAKE_COMMAND} -E copy ${IDLESCOPE_KMOD_SOURCES} ${IDLESCOPE_KMOD_BUILD_DIR}
  COMMAND make -C ${IDLESCOPE_KMOD_BUILD_DIR} KDIR=${IDLESCOPE_KDIR} W=1
  DEPENDS ${IDLESCOPE_KMOD_SOURCES}
  COMMENT "Building idlescope.ko against ${IDLESCOPE_KDIR}"
  VERBATIM)
add_custom_target(kmod DEPENDS ${IDLESCOPE_KMOD_BUILD_DIR}/idlescope.ko)
