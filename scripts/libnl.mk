# SPDX-License-Identifier: GPL-2.0
# The generic netlink library of every host program that speaks to the
# modules (the CLI, its library, the tools of bench/, the tests' clients),
# chosen by its pkg-config name:
#
#   LIBNL      libnl-genl-3.0 (the default), or libnl-tiny (OpenWrt's)
#   NL_CFLAGS  its compiler flags
#   NL_LIBS    its linker flags
#
# libnl-tiny that pkg-config does not find (an OpenWrt SDK's would be on
# PKG_CONFIG_PATH) is built from its source tarball into the cache outside
# the clone (scripts/libnl-tiny.sh), and linked with an rpath to it.

PKG_CONFIG ?= pkg-config
LIBNL ?= libnl-genl-3.0
LIBNL_SCRIPTS := $(dir $(lastword $(MAKEFILE_LIST)))

NL_PKG_CONFIG := $(PKG_CONFIG)
ifeq ($(LIBNL),libnl-tiny)
ifneq ($(shell $(PKG_CONFIG) --exists libnl-tiny && echo found),found)
LIBNL_PREFIX := $(shell $(LIBNL_SCRIPTS)libnl-tiny.sh)
NL_PKG_CONFIG := PKG_CONFIG_PATH=$(LIBNL_PREFIX)/lib/pkgconfig $(PKG_CONFIG)
NL_RPATH := -Wl,-rpath,$(LIBNL_PREFIX)/lib
endif
endif

NL_CFLAGS := $(shell $(NL_PKG_CONFIG) --cflags $(LIBNL))
NL_LIBS := $(shell $(NL_PKG_CONFIG) --libs $(LIBNL))
ifeq ($(NL_LIBS),)
ifeq ($(LIBNL),libnl-genl-3.0)
$(error libnl-genl-3.0 not found by pkg-config: install libnl-genl-3-dev (make deps))
else ifeq ($(LIBNL),libnl-tiny)
$(error libnl-tiny neither found by pkg-config nor built by scripts/libnl-tiny.sh)
else
$(error $(LIBNL) not found by pkg-config (PKG_CONFIG_PATH))
endif
endif
NL_LIBS += $(NL_RPATH)

# What the objects were compiled against: a tree built for another library
# rebuilds them (the rules make their objects depend on this file).  The
# names start with a dot, so that neither is a default goal.
NL_STAMP := .libnl
.libnl-check:
$(NL_STAMP): .libnl-check
	@echo '$(LIBNL) $(NL_CFLAGS) $(NL_LIBS)' | cmp -s - $@ || \
		echo '$(LIBNL) $(NL_CFLAGS) $(NL_LIBS)' > $@
