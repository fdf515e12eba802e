# SPDX-License-Identifier: GPL-2.0
# bash completion for tw-omware-bench(1): timewire's, which reads any of
# the timewire tools' help, from the file installed next to this one.
if ! declare -F _timewire >/dev/null; then
	for _timewire_file in "${BASH_SOURCE[0]%/*}"/timewire{,.bash}; do
		[[ -r $_timewire_file ]] && . "$_timewire_file" && break
	done
	unset _timewire_file
fi
complete -F _timewire tw-omware-bench
