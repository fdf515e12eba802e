# SPDX-License-Identifier: GPL-2.0
# The guest test programs' C library, tests/lib/twt_*.[ch] (twt_nl.h: the
# netlink client of every family), for a suite's Makefile that sets TOP and
# includes this file.  It stands on the product's library,
# userspace/libtimewire.a, which make userspace builds (made here when it is
# missing or out of date).  A program compiles with $(TWT_CFLAGS) and links
# the sources of $(TWT) it needs with $(TWT_LIBS).
TWT := $(TOP)/tests/lib
TWT_LIB := $(TOP)/userspace/libtimewire.a
# the netlink library, LIBNL= (libnl-genl-3.0 or libnl-tiny)
include $(TOP)/scripts/libnl.mk

TWT_CFLAGS := -I$(TWT) -I$(TOP)/userspace -I$(TOP)/userspace/lib \
	-I$(TOP)/include/uapi $(NL_CFLAGS)
TWT_LIBS := $(TWT_LIB) $(NL_LIBS) -lm
TWT_HEADERS := $(wildcard $(TWT)/twt_*.h) $(TOP)/userspace/lib/nl.h

# The suite's all stays the default goal, ahead of the rule below.
ifeq ($(.DEFAULT_GOAL),)
.DEFAULT_GOAL := all
endif
$(TWT_LIB): FORCE
	@$(MAKE) -s --no-print-directory -C $(TOP)/userspace libtimewire.a

.PHONY: FORCE
