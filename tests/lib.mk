# SPDX-License-Identifier: GPL-2.0
# Build and install rules of a guest suite, after the conventions of the
# kernel's tools/testing/selftests/lib.mk.  A suite's Makefile sets
#   TEST_GEN_PROGS   programs built here (rules of its own)
#   TEST_FILES       helpers and data the programs need at run time
# and ends with "include ../lib.mk" (a benchmark's, in bench/, includes
# this file by its path from there); a suite with nothing to build needs no
# Makefile (tests/Makefile uses this file for it).  The programs to run, in
# order, are the TESTS of the suite's settings: the ones not built here
# (TEST_PROGS) are copied as they are.
#
#   make -C tests/<suite> install INSTALL_PATH=DIR/<suite>
LIBMK_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
SUITE := $(shell $(LIBMK_DIR)/lib/suites.sh name $(CURDIR))
TEST_PROGS = $(filter-out $(TEST_GEN_PROGS),\
	$(shell $(LIBMK_DIR)/lib/suites.sh tests $(SUITE)))

all: $(TEST_GEN_PROGS)

# The settings name only the suite's own files: the installed suite is its
# own directory, and nothing outside it but ../lib (tests/lib) is shipped.
install: all
	@test -n "$(INSTALL_PATH)" || { echo "$(SUITE): set INSTALL_PATH" >&2; exit 1; }
	@for f in $(TEST_PROGS); do case $$f in */*) \
		echo "$(SUITE)/settings: TESTS names $$f outside the suite" >&2; exit 1;; \
	esac; done
	@mkdir -p $(INSTALL_PATH)
	@cp -a settings $(wildcard config) \
		$(sort $(TEST_GEN_PROGS) $(TEST_PROGS) $(TEST_FILES)) $(INSTALL_PATH)/

.PHONY: all install
