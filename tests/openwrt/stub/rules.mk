# SPDX-License-Identifier: GPL-2.0
#
# A stand-in for an OpenWrt tree's rules.mk, written for tests/openwrt:
# enough of its variables to evaluate a package Makefile of a feed on the
# build machine and run its recipes with a cross toolchain.  The test
# gives the directories on the command line:
#
#   BUILD_DIR     where packages are unpacked and built
#   DL_DIR        where their source tarballs lie
#   STAGING_DIR   the target's libraries (here libnl-tiny's prefix, with
#                 include/, lib/ and lib/pkgconfig/)
#   TARGET_CROSS  the cross compiler's prefix (mips-linux-gnu-)
#   ARCH          OpenWrt's name of the target's architecture (mips)

INCLUDE_DIR := $(TOPDIR)/include
SCRIPT_DIR := $(TOPDIR)/scripts

ifeq ($(BUILD_DIR),)
$(error stub rules.mk: BUILD_DIR= is required)
endif
TARGET_CROSS ?= mips-linux-gnu-
ARCH ?= mips

TARGET_CC := $(TARGET_CROSS)gcc
TARGET_AR := $(TARGET_CROSS)ar
TARGET_LD := $(TARGET_CROSS)ld
TARGET_NM := $(TARGET_CROSS)nm
TARGET_RANLIB := $(TARGET_CROSS)ranlib
# What OpenWrt's targets build with, in spirit: size first.
TARGET_CFLAGS := -Os -pipe
TARGET_CPPFLAGS := -I$(STAGING_DIR)/include
TARGET_LDFLAGS := -L$(STAGING_DIR)/lib

# Every package's make gets the target's tools by these names.
TARGET_CONFIGURE_OPTS = AR="$(TARGET_AR)" CC="$(TARGET_CC)" LD="$(TARGET_LD)" \
	NM="$(TARGET_NM)" RANLIB="$(TARGET_RANLIB)" STRIP="$(TARGET_CROSS)strip"

# pkg-config sees the target's libraries, never the build machine's.
PKG_CONFIG := pkg-config
export PKG_CONFIG_LIBDIR := $(STAGING_DIR)/lib/pkgconfig
unexport PKG_CONFIG_PATH

INSTALL_DIR := install -d -m0755
INSTALL_BIN := install -m0755
INSTALL_DATA := install -m0644
INSTALL_CONF := install -m0600
CP := cp -fpR
TAR := tar

# Quotes off a Kconfig string value, as OpenWrt's helper does.
qstrip = $(strip $(subst ",,$(1)))
