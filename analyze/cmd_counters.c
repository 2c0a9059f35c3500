/* Placeholder until the counters subcommand lands. */
#include "commands.h"
#include "idlescope/util.h"

int cmd_counters(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	is_err("'counters' is not implemented yet");
	return IS_EXIT_USAGE;
}
