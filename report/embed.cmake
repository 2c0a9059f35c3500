# SPDX-License-Identifier: GPL-2.0-only
# cmake -DIN=viewer.js -DOUT=viewer_js.c -P embed.cmake: the file as a C array.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "/* generated from report/viewer.js by report/embed.cmake */\n#include <stddef.h>\n"
     "extern const unsigned char report_viewer_js[];\nextern const size_t report_viewer_js_len;\n"
     "const unsigned char report_viewer_js[] = {${bytes}};\n"
     "const size_t report_viewer_js_len = sizeof(report_viewer_js);\n")
