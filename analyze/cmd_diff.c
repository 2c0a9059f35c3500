/* Placeholder until the diff subcommand lands. */
#include "commands.h"
#include "idlescope/util.h"

int cmd_diff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	is_err("'diff' is not implemented yet");
	return IS_EXIT_USAGE;
}
