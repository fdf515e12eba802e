# SPDX-License-Identifier: GPL-2.0
# bash completion for the experiment tools that take keywords,
# tw-omware-bench(1) and tw-tfib-bench(1), installed under each one's name:
# timewire's completion, which reads any of these tools' help, from the
# file installed next to this one (or, in the source tree, completion/).
if ! declare -F _timewire >/dev/null; then
	for _timewire_file in "${BASH_SOURCE[0]%/*}"/timewire{,.bash} \
		"${BASH_SOURCE[0]%/*}"/../../completion/timewire.bash; do
		[[ -r $_timewire_file ]] && . "$_timewire_file" && break
	done
	unset _timewire_file
fi
complete -F _timewire tw-omware-bench tw-tfib-bench
