#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# contrib/ansible without a machine: the collection installs with ansible-galaxy from the tree,
# its example playbook passes ansible-playbook --syntax-check, and the role's argument spec
# refuses a missing idlescope_results_dir (run against localhost, nothing measured).
# usage: ansible_syntax.sh SRC
. "$(dirname "$0")/../common/test-lib.sh"
SRC=$1
command -v ansible-playbook >/dev/null && command -v ansible-galaxy >/dev/null ||
	skip "ansible not installed (Debian's ansible, scripts/deps/ansible.txt): the Ansible role is NOT checked"
test_tmpdir T
export ANSIBLE_HOME="$T/home" ANSIBLE_LOCAL_TEMP="$T/tmp" ANSIBLE_COLLECTIONS_PATH="$T/c" ANSIBLE_NOCOLOR=1
ansible-galaxy collection install --offline -p "$T/c" "$SRC/contrib/ansible" >"$T/log" 2>&1 ||
	{ cat "$T/log"; fail "ansible-galaxy collection install"; }
printf '[sut]\nh1 ansible_connection=local\n' >"$T/hosts"
ansible-playbook -i "$T/hosts" --syntax-check "$SRC/contrib/ansible/playbooks/collect.yml" >"$T/log" 2>&1 ||
	{ cat "$T/log"; fail "syntax check of the example playbook"; }
cat >"$T/bad.yml" <<EOY
- hosts: sut
  gather_facts: false
  roles:
    - role: idlescope.fleet.collect
      vars:
        idlescope_collect_args: [--method, timer]
EOY
ansible-playbook -i "$T/hosts" "$T/bad.yml" >"$T/log" 2>&1 && { cat "$T/log"; fail "the role ran without idlescope_results_dir"; }
grep -q "missing required arguments: idlescope_results_dir" "$T/log" || { cat "$T/log"; fail "no argument-spec message"; }
exit 0
