# SPDX-License-Identifier: GPL-2.0
"""unittest as TAP for the host tests written in Python:

  sys.path.insert(0, os.path.join(HERE, "..", "lib"))
  from taptest import tap_main
  ...
  if __name__ == "__main__":
      sys.exit(tap_main(sys.modules[__name__]))
"""

import unittest


class TapResult(unittest.TestResult):
    """Each test as one TAP line, skips as # SKIP."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def addSuccess(self, test):
        self.lines.append("ok %d - %s" % (len(self.lines) + 1, test.id()))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.lines.append("not ok %d - %s" % (len(self.lines) + 1,
                                               test.id()))

    def addError(self, test, err):
        super().addError(test, err)
        self.lines.append("not ok %d - %s" % (len(self.lines) + 1,
                                               test.id()))

    def addSkip(self, test, reason):
        self.lines.append("ok %d - %s # SKIP %s" % (len(self.lines) + 1,
                                                    test.id(), reason))


def tap_main(module):
    """Run the tests of module, print TAP; the exit status."""
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    res = TapResult()
    suite.run(res)
    print("TAP version 13")
    print("1..%d" % len(res.lines))
    for line in res.lines:
        print(line)
    for test, tb in res.failures + res.errors:
        print("# %s" % test.id())
        for ln in tb.splitlines():
            print("#   " + ln)
    return 0 if res.wasSuccessful() else 1
