#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""rst-check.py FILE...: parse each reStructuredText file with docutils
and print every warning or error it reports (a malformed table, a broken
internal link, a title underline too short).  Exit 1 if any file has one,
2 if docutils is not installed."""

import io
import sys

try:
    import docutils.core
except ImportError:
    print("rst-check: docutils not installed (make deps installs it)",
          file=sys.stderr)
    sys.exit(2)


def problems(path):
    stream = io.StringIO()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    docutils.core.publish_string(
        text, source_path=path, writer_name="null",
        settings_overrides={"report_level": 2, "halt_level": 5,
                            "warning_stream": stream})
    return stream.getvalue()


def main():
    bad = 0
    for path in sys.argv[1:]:
        out = problems(path)
        if out:
            sys.stdout.write(out)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
