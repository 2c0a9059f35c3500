/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SUT's directory (--remote-dir, default ~/.cache/idlescope) and the one way collect runs
 * what it deployed there. Every command sent to the SUT starts with remote_shell()'s check: the
 * directory made private (umask 077), then its physical path walked up to /: the directory and
 * what collect keeps in it must be the login user's and writable by nobody else, each parent
 * root's or the login user's and, when others may write it, sticky (as /tmp). Otherwise another
 * user of the SUT could plant a symlink where deploy writes or swap the program root runs.
 * The deployed collect is then run only as remote_collect() runs it: a private copy made, its
 * SHA-256 checked, and that copy executed, in the same command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote.h"
#include "text/util.h"
#include "idlescope/version.h"

char *remote_base(const struct remote_opts *ro)
{
	const char *d = ro->remote_dir;
	if (!d)
		return isc_xstrdup("\"$HOME\"/.cache/idlescope");
	if (!strcmp(d, "~"))   /* as a shell expands it (remote_parse refuses ~user) */
		return isc_xstrdup("\"$HOME\"");
	if (!strncmp(d, "~/", 2)) {
		char *q = sh_quote(d + 2), *s = isc_xasprintf("\"$HOME\"/%s", q);
		free(q);
		return s;
	}
	return sh_quote(d);
}

/* $isbase: the physical path of the checked directory; refused with exit 96 and one line. The
 * parents that exist are checked before anything is made in them, then all of them again. */
static const char check_script[] =
	"umask 077; isbase=%s; ismake=%d\n"
	"isbad() { printf '%%s\\n' \"$1 on the SUT $2: refused (another user of the SUT could "
	"change what collect runs there; give --remote-dir a directory of the login user's that nobody else "
	"can write)\" >&2; exit 96; }\n"
	"isstat() { ism=$(stat -c '%%u %%A' -- \"$1\") || isbad \"$1\" 'cannot be read'; iso=${ism%%%% *}; ism=${ism#* }; }\n"
	/* isparents P: P (physical) and every directory above it: root's or the login user's, and
	 * writable by others only when sticky (/tmp) */
	"isparents() {\n"
	"  isd=$1\n"
	"  while :; do\n"
	"    isstat \"$isd\"\n"
	"    [ \"$iso\" = 0 ] || [ \"$iso\" = \"$isu\" ] || isbad \"$isd\" \"(a parent of the remote directory) is owned by uid $iso, not by root or the login user\"\n"
	"    case $ism in *[tT]) ;; ?????w*|????????w*) isbad \"$isd\" '(a parent of the remote directory) is writable by group or others and not sticky';; esac\n"
	"    [ \"$isd\" = / ] && return\n"
	"    isd=${isd%%/*}; [ -n \"$isd\" ] || isd=/\n"
	"  done\n"
	"}\n"
	/* isown D: D is a directory of the login user's that nobody else may write */
	"isown() {\n"
	"  [ -L \"$1\" ] && isbad \"$1\" 'is a symbolic link'\n"
	"  isstat \"$1\"\n"
	"  [ \"$iso\" = \"$isu\" ] || isbad \"$1\" \"is owned by uid $iso, not by the login user (uid $isu)\"\n"
	"  case $ism in ?????w*|????????w*) isbad \"$1\" 'is writable by group or others';; d*) ;; *) isbad \"$1\" 'is not a directory';; esac\n"
	"}\n"
	"isu=$(id -u)\n"
	"case $isbase in /*) ;; *) isbase=$PWD/$isbase ;; esac\n"
	"isp=${isbase%%/*}; [ -n \"$isp\" ] || isp=/\n"
	"while [ ! -e \"$isp\" ] && [ ! -L \"$isp\" ]; do isp=${isp%%/*}; [ -n \"$isp\" ] || isp=/; done\n"
	"isp=$(cd -P -- \"$isp\" && pwd -P) || isbad \"$isp\" 'cannot be entered'\n"
	"isparents \"$isp\"\n"
	/* (the probe makes nothing: a SUT refused for its architecture is left as it was) */
	"if [ \"$ismake\" = 1 ] || [ -e \"$isbase\" ] || [ -L \"$isbase\" ]; then\n"
	"  mkdir -p -- \"$isbase\" && cd -P -- \"$isbase\" && isbase=$(pwd -P) || isbad \"$isbase\" 'cannot be made'\n"
	"  isown \"$isbase\"\n"
	"  isparents \"${isbase%%/*}/\"\n"
	"  for isd in \"$isbase/runs\" \"$isbase/collect-" IDLESCOPE_VERSION "\"; do\n"
	"    if [ -e \"$isd\" ] || [ -L \"$isd\" ]; then isown \"$isd\"; fi\n"
	"  done\n"
	"fi\n"
	"isv=$isbase/collect-" IDLESCOPE_VERSION "\n";

static char *shell(const struct remote_opts *ro, const char *body, bool make)
{
	char *base = remote_base(ro), *s = isc_xasprintf(check_script, base, make ? 1 : 0);
	char *all = isc_xasprintf("%s%s", s, body);
	free(base);
	free(s);
	return all;
}

char *remote_shell(const struct remote_opts *ro, const char *body)
{
	return shell(ro, body, true);
}

char *remote_shell_probe(const struct remote_opts *ro, const char *body)
{
	return shell(ro, body, false);
}

char *remote_collect(const char *hash, bool exec_it)
{
	static const char copy[] =
		"isx=$(mktemp -d \"$isbase/.exec.XXXXXX\") && cp -- \"$isv/collect\" \"$isx/collect\" && "
		"ish=$(sha256sum <\"$isx/collect\") && [ \"${ish%%%% *}\" = %s ] || { [ -z \"$isx\" ] || rm -rf -- \"$isx\"; "
		"echo \"the deployed collect ($isv/collect) is not the one deployed (SHA-256 differs): not run\" >&2; exit 95; }\n"
		"umask 022\n";
	char *c = isc_xasprintf(copy, hash), *s;
	if (exec_it)   /* the agent removes its copy once it runs (remote_agent_main) */
		s = isc_xasprintf("%sIDLESCOPE_AGENT_COPY=$isx exec \"$isx/collect\"", c);
	else
		s = isc_xasprintf("%s\"$isx/collect\"", c);
	free(c);
	return s;
}
