# SPDX-License-Identifier: GPL-2.0-only
# libcsv ships no pkg-config file on Debian; find it by header and library.
find_path(CSV_INCLUDE_DIR csv.h)
find_library(CSV_LIBRARY NAMES csv)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CSV DEFAULT_MSG CSV_LIBRARY CSV_INCLUDE_DIR)
if(CSV_FOUND AND NOT TARGET CSV::csv)
  add_library(CSV::csv UNKNOWN IMPORTED)
  set_target_properties(CSV::csv PROPERTIES
    IMPORTED_LOCATION ${CSV_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${CSV_INCLUDE_DIR})
endif()
