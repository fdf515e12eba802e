# SPDX-License-Identifier: GPL-2.0
# What the host programs' Makefiles (userspace/, bench/) share, for one
# that sets TOPDIR and includes this file: where install puts things, the
# tools that build them, the netlink library's flags (scripts/libnl.mk:
# LIBNL=) and the warnings every C file compiles with.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

CC ?= cc
PKG_CONFIG ?= pkg-config
INSTALL ?= install

include $(TOPDIR)/scripts/libnl.mk

CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Werror

# A 64-bit atomic on a 32-bit CPU without one (MIPS32: the OpenWrt
# routers') is a call into libatomic: linked where the compiler needs it.
ATOMIC_LIBS := $(shell printf 'unsigned long long v;\nint main(void) { return __atomic_load_n(&v, 0); }\n' | \
	$(CC) -x c -o /dev/null - >/dev/null 2>&1 || echo -latomic)
