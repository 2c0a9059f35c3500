/* SPDX-License-Identifier: GPL-2.0-only */
/* The remote part of collect --help (options.c prints it after the local options). */
#include <stdio.h>

#include "remote.h"

void remote_print_help(void)
{
	printf("\nRemote options (docs/remote.md): measure systems under test over OpenSSH.\n"
	       "  -H, --host HOST[,HOST...]  run on HOST (anything ssh accepts: user@host, an alias)\n"
	       "      --hosts FILE        hosts one per line ('#' comments)\n"
	       "      --jobs N            hosts measured at the same time (default: all)\n"
	       "      --ssh-config FILE   ssh's -F\n"
	       "      --ssh-opt OPTION    ssh's -o (repeatable), e.g. 'Port=2222'\n"
	       "      --connect-timeout S seconds (default 10)\n"
	       "      --remote-dir DIR    SUT directory for the deployed collect and its runs\n"
	       "                          (default ~/.cache/idlescope)\n"
	       "      --deploy            only copy collect to the SUTs (when missing or different)\n"
	       "                          and build the hrt/tdt module there\n"
	       "      --ksrc DIR          the SUT's kernel build directory for the module\n"
	       "                          (default /lib/modules/$(uname -r)/build there)\n"
	       "      --fetch             with -o DIR: get the SUT's copy of a run whose connection was\n"
	       "                          lost (checked against the rows here, then removed on the SUT)\n"
	       "      --progress          the fleet's progress line also when stderr is no terminal\n"
	       "With one host, -o DIR is the run (the experiment with --matrix); with several,\n"
	       "DIR/<host>/ per host. --set/--matrix and --counters run on the SUT, with its settings;\n"
	       "--list-settings, --dry-run and --restore answer per host, then side by side.\n");
}
