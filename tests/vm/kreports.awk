# SPDX-License-Identifier: GPL-2.0
# Split kernel logs (console, dmesg, /sys/kernel/debug/kmemleak) into
# reports (WARN, BUG, KASAN, KFENCE, lockdep, UBSAN, kmemleak, refcount,
# debugobjects, ref_tracker, hung tasks, RCU stalls, oopses) and judge
# each one:
#   timewire  a frame of one of timewire's modules is in it: always fails
#   allowed   the allowlist names its signature for this kernel release
#   other     neither: fails until reviewed and allowlisted
# Prints one line per distinct report: STATUS<TAB>COUNT<TAB>SIGNATURE,
# where SIGNATURE is the report's first line without addresses, offsets
# and numbers, then " @ " and its first three meaningful frames.  With
# -v full=FILE, writes every report in full there.  With -v modspace=1, a
# bare address in module space in a kmemleak backtrace counts as timewire's.
#
#   awk -v mods='omware|tfib' -v release=R -v allow=FILE -f kreports.awk LOG...
#
# mods, the modules' names as an ERE alternation, is required: the callers
# read them from modules.list (scripts/modules.sh names).
#
# Allowlist lines: RELEASE<TAB>SIGNATURE-ERE<TAB>REASON ("*" for any
# release); "#" starts a comment.

function start_line(s) {
	return s ~ /^(WARNING:|BUG:|Oops|general protection fault|Kernel panic|kernel BUG|UBSAN:|unreferenced object|INFO: task .* blocked|rcu: INFO:|INFO: rcu|refcount_t:|ODEBUG:|ref_tracker:|unregister_netdevice: waiting|list_(add|del) corruption|Call Trace:)/
}

# Lines that announce a WARNING or a ref_tracker report printed just
# after: one report with it.
function preamble(s) {
	return s ~ /^(refcount_t:|ODEBUG:|ref_tracker:|list_(add|del) corruption|unregister_netdevice: waiting)/
}

function norm(s) {
	gsub(/\+0x[0-9a-f]+\/0x[0-9a-f]+/, "", s)
	gsub(/0x[0-9a-f]+/, "#", s)
	gsub(/ffff[0-9a-f]+/, "#", s)
	gsub(/[0-9]+/, "N", s)
	gsub(/[ \t]+$/, "", s)
	return s
}

# Frames that say where a report is printed, not where the problem is.
function generic(f) {
	return f ~ /^(dump_stack|__dump_stack|show_stack|__warn|warn_slowpath|report_bug|handle_bug|exc_invalid_op|asm_exc_|kasan_|__kasan|__asan|print_report|print_address|ubsan_|__ubsan|lockdep_|__lock_acquire|lock_acquire|check_|validate_chain|print_|debug_print_object|debug_object|__debug_object|refcount_warn|kmemleak_|__kmalloc|kmalloc|kmem_cache_alloc|__kmem_cache|slab_|__slab|___slab|kzalloc|kvmalloc|__kvmalloc|krealloc|kstrdup|kmemdup|__alloc|alloc_pages|__vmalloc|vmalloc|pcpu_|ref_tracker|panic|do_error_trap|do_trap|die|oops_|__die)/
}

function flush(   sig, i, f, n, tw) {
	if (nlines == 0)
		return
	sig = norm(head)
	n = 0
	tw = 0
	for (i = 1; i <= nlines; i++) {
		if (lines[i] ~ /^Modules linked in:/)
			continue
		if (lines[i] ~ ("\\[(" mods ")\\]"))
			tw = 1
		# kmemleak prints a frame of a module since unloaded as its bare
		# address: on the debug kernel, whose drivers are all built in,
		# module space holds timewire's modules only.
		if (modspace && lines[i] ~ /^ *\[<ffffffff[c-f][0-9a-f]*>\] 0x[0-9a-f]+ *$/)
			tw = 1
		# a frame: "func+0x1/0x2", maybe after "[<addr>] "; "? " ones are stale
		f = lines[i]
		sub(/^ *(\[<[0-9a-f]+>\] )?/, "", f)
		if (f !~ /^[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+\/0x[0-9a-f]+/)
			continue
		sub(/\+0x.*/, "", f)
		sub(/\..*/, "", f)
		if (n < 3 && !generic(f)) {
			sig = sig (n ? " < " : " @ ") f
			n++
		}
	}
	if (full != "") {
		print "==== " sig > full
		for (i = 1; i <= nlines; i++)
			print lines[i] > full
	}
	if (!(sig in count))
		order[++nsig] = sig
	count[sig]++
	if (tw)
		timewire[sig] = 1
	nlines = 0
}

BEGIN {
	if (mods == "") {
		print "kreports.awk: -v mods=NAME|... is required" > "/dev/stderr"
		usage = 1
		exit 2
	}
	nallow = 0
	while (allow != "" && (getline l < allow) > 0) {
		if (l ~ /^#/ || l ~ /^[ \t]*$/)
			continue
		nf = split(l, a, "\t")
		if (nf < 3 || a[3] == "" || (a[1] != "*" && a[1] != release))
			continue
		allowed_re[++nallow] = a[2]
	}
}

{
	s = $0
	sub(/\r$/, "", s)
	sub(/^<[0-9]+>/, "", s)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	sub(/^\[ *[CT][0-9]+\] /, "", s)
	if (start_line(s)) {
		# a Call Trace inside a report, or the WARNING of a preamble
		if (nlines && (s ~ /^Call Trace:/ ||
		    (preamble(first) && nlines < 6 && s ~ /^(WARNING:|ref_tracker:)/))) {
			if (s !~ /^Call Trace:/)
				head = head " / " s
			lines[++nlines] = s
			next
		}
		flush()
		first = s
		head = s
		lines[++nlines] = s
		next
	}
	if (!nlines)
		next
	lines[++nlines] = s
	# KASAN and KFENCE go on after the trace: the allocation and the free
	if (s ~ /^---\[ end trace/ || (s ~ /^=====/ && nlines > 3) || nlines >= 400 ||
	    (s ~ /^ *<\/TASK>/ && head !~ /KASAN|KFENCE/))
		flush()
}

END {
	if (usage)
		exit 2
	flush()
	for (i = 1; i <= nsig; i++) {
		sig = order[i]
		st = "other"
		if (sig in timewire)
			st = "timewire"
		else
			for (j = 1; j <= nallow; j++)
				if (sig ~ allowed_re[j]) {
					st = "allowed"
					break
				}
		printf "%s\t%d\t%s\n", st, count[sig], sig
	}
}
