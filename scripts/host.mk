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
