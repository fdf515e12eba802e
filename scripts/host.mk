# SPDX-License-Identifier: GPL-2.0
# What the host programs' Makefiles (userspace/, bench/) share, for one
# that sets TOPDIR and includes this file: where install puts things, the
# tools that build them, libnl-genl's flags and the warnings every C file
# compiles with.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

CC ?= cc
PKG_CONFIG ?= pkg-config
INSTALL ?= install

NL_CFLAGS := $(shell $(PKG_CONFIG) --cflags libnl-genl-3.0)
NL_LIBS := $(shell $(PKG_CONFIG) --libs libnl-genl-3.0)
ifeq ($(NL_LIBS),)
$(error libnl-genl-3.0 not found by pkg-config: install libnl-genl-3-dev)
endif

CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Werror
