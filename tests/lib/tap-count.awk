# Count the results of one test program's TAP output.
# Input: the program's output; variable rc = its exit status.
# Output: one line "PASSED FAILED SKIPPED", then one line per failure
# or skip: "FAIL|SKIP description".
#
# Nested TAP, as kselftest's runner writes it (each program's own output
# indented by "# " under the runner's result line for that program), is
# counted by its innermost results: a program's subtests count, not the
# program.  A result with no subtests counts once; one that failed
# without a failing subtest (an exit status, a timeout) counts one
# failure more.  "ok ... # SKIP" is a skip, "# TODO" and "# XFAIL" are
# not failures, "# XPASS" is one.  A program's "Bail out!" reason names
# the failure it caused when no failing subtest does.  At the top, a
# program that printed no result counts once by its exit status (4 =
# skip), and one that exited non-zero without a failing result counts
# one failure more.

# Leading "# " groups give the depth; the rest is left in `body`.
function depth_of(line,    d) {
	d = 0
	while (substr(line, 1, 2) == "# ") {
		line = substr(line, 3)
		d++
	}
	body = line
	return d
}

function add(d, status, text) {
	if (status == "PASS")
		passed[d]++
	else if (status == "FAIL")
		failed[d]++
	else
		skipped[d]++
	if (status != "PASS")
		detail[d, ++nd[d]] = status " " text
}

# Move level `from`'s counts into level `from - 1`, naming its results
# after their parent (empty: no parent result line, as when it was killed).
function fold(from, parent,    to, i, st) {
	to = from - 1
	passed[to] += passed[from]
	failed[to] += failed[from]
	skipped[to] += skipped[from]
	for (i = 1; i <= nd[from]; i++) {
		st = substr(detail[from, i], 1, 4)
		detail[to, ++nd[to]] = st " " (parent == "" ? "" : parent ": ") \
			substr(detail[from, i], 6)
	}
	passed[from] = failed[from] = skipped[from] = nd[from] = 0
	reason[from] = bail[from] = ""
}

function results_at(d) {
	return passed[d] + failed[d] + skipped[d]
}

# "lifecycle.sh # exit=1" -> "lifecycle.sh"
function short_name(text) {
	sub(/ +#.*$/, "", text)
	return text
}

# A failure's text with the reason its program bailed out at depth d.
function with_bail(status, text, d) {
	if (status != "FAIL" || bail[d] == "")
		return text
	return short_name(text) ": " bail[d]
}

{
	d = depth_of($0)
	if (d > maxd)
		maxd = d
}

body ~ /^1\.\.0 *# *[Ss][Kk][Ii][Pp]/ {
	r = body
	sub(/^1\.\.0 *# *[Ss][Kk][Ii][Pp] */, "", r)
	reason[d] = r
	next
}

# A program that gave up says why: its failure is reported with it.
body ~ /^Bail out!/ {
	r = body
	sub(/^Bail out! */, "", r)
	bail[d] = r
	next
}

body ~ /^(not )?ok [0-9]+/ {
	notok = (body ~ /^not ok/)
	text = body
	sub(/^(not )?ok [0-9]+ *(- *)?/, "", text)
	sub(/^selftests: [^:]*: /, "", text)
	if (text ~ /# *[Ss][Kk][Ii][Pp]/)
		status = "SKIP"
	else if (notok && text !~ /# *[Tt][Oo][Dd][Oo]/ && text !~ /# *XFAIL/)
		status = "FAIL"
	else if (text ~ /# *XPASS/)
		status = "FAIL"
	else
		status = "PASS"
	# Orphans deeper than our own subtests belong to them.
	for (k = maxd; k > d + 1; k--)
		fold(k, "")
	if (results_at(d + 1) == 0) {
		if (status == "SKIP" && reason[d + 1] != "")
			text = short_name(text) ": " reason[d + 1]
		add(d, status, with_bail(status, text, d + 1))
	} else {
		child_failed = failed[d + 1]
		fold(d + 1, short_name(text))
		if (status == "FAIL" && child_failed == 0)
			add(d, status, with_bail(status, text, d + 1))
	}
	reason[d + 1] = bail[d + 1] = ""
}

END {
	for (k = maxd; k > 0; k--)
		fold(k, "")
	if (results_at(0) == 0) {
		if (rc == 0)
			passed[0]++
		else if (rc == 4)
			add(0, "SKIP", reason[0] != "" ? reason[0] : "(whole program)")
		else
			add(0, "FAIL", "exit status " rc (bail[0] == "" ? "" : ": " bail[0]))
	} else if (rc != 0 && rc != 4 && failed[0] == 0) {
		add(0, "FAIL", "exit status " rc " with no failing result" \
		    (bail[0] == "" ? "" : ": " bail[0]))
	}
	printf "%d %d %d\n", passed[0], failed[0], skipped[0]
	for (i = 1; i <= nd[0]; i++)
		print detail[0, i]
}
