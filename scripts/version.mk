# SPDX-License-Identifier: GPL-2.0
# TW_VERSION, the version this tree builds (scripts/version.sh), for a
# Makefile or a module's Kbuild that includes this file by its real path
# (a Kbuild: $(dir $(realpath $(src)/Kbuild))../scripts/version.mk, so
# that the build mirrors of scripts/kmod-tree.sh read the tree itself).
# A caller may pass TW_VERSION: the top Makefile computes it once and
# exports it to every build it starts.
tw-version-sh := $(dir $(lastword $(MAKEFILE_LIST)))version.sh
ifeq ($(origin TW_VERSION),undefined)
TW_VERSION := $(shell $(tw-version-sh))
endif
ifeq ($(TW_VERSION),)
$(error timewire: no version: $(tw-version-sh) printed none)
endif
# As a C string, for the one object that reports it: a new commit then
# compiles that object again, not the rest.
TW_VERSION_DEFINE := -DTW_VERSION='"$(TW_VERSION)"'
