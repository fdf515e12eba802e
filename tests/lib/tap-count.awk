# Count the results of one test program's TAP output.
# Input: the program's output; variable rc = its exit status.
# Output: one line "PASSED FAILED SKIPPED", then one line per failure
# or skip: "FAIL|SKIP description".
# Only top-level results count (subtests indented by a harness are ignored).
# A program that printed no result counts once, by its exit status; one
# that failed without a "not ok" line counts one failure more.
/^ok [0-9]+/ || /^not ok [0-9]+/ {
	line = $0
	notok = (line ~ /^not ok/)
	skip = (line ~ /# *[Ss][Kk][Ii][Pp]/)
	sub(/^(not )?ok [0-9]+ *(- *)?/, "", line)
	if (skip) {
		skipped++
		detail[++nd] = "SKIP " line
	} else if (notok && line !~ /# *[Tt][Oo][Dd][Oo]/) {
		failed++
		detail[++nd] = "FAIL " line
	} else {
		passed++
	}
	results++
}
END {
	if (results == 0) {
		if (rc == 0)
			passed++
		else if (rc == 4) {
			skipped++
			detail[++nd] = "SKIP (whole program)"
		} else {
			failed++
			detail[++nd] = "FAIL exit status " rc
		}
	} else if (rc != 0 && rc != 4 && failed == 0) {
		failed++
		detail[++nd] = "FAIL exit status " rc " with no failing result"
	}
	printf "%d %d %d\n", passed, failed, skipped
	for (i = 1; i <= nd; i++)
		print detail[i]
}
