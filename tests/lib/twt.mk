# SPDX-License-Identifier: GPL-2.0
# The guest test programs' C library, tests/lib/twt_*.[ch] (twt_nl.h: the
# netlink client of every family), for a suite's Makefile that sets TOP and
# includes this file.  It stands on the product's library,
# userspace/libtimewire.a, which make userspace builds (made here when it is
# missing or out of date).  A program compiles with $(TWT_CFLAGS) and links
# the sources of $(TWT) it needs with $(TWT_LIBS).
TWT := $(TOP)/tests/lib
TWT_LIB := $(TOP)/userspace/libtimewire.a
PKG_CONFIG ?= pkg-config

TWT_CFLAGS := -I$(TWT) -I$(TOP)/userspace -I$(TOP)/userspace/lib \
	-I$(TOP)/include/uapi $(shell $(PKG_CONFIG) --cflags libnl-genl-3.0)
TWT_LIBS := $(TWT_LIB) $(shell $(PKG_CONFIG) --libs libnl-genl-3.0) -lm
TWT_HEADERS := $(wildcard $(TWT)/twt_*.h) $(TOP)/userspace/lib/nl.h

# The suite's all stays the default goal, ahead of the rule below.
ifeq ($(.DEFAULT_GOAL),)
.DEFAULT_GOAL := all
endif
$(TWT_LIB): FORCE
	@$(MAKE) -s --no-print-directory -C $(TOP)/userspace libtimewire.a

.PHONY: FORCE
