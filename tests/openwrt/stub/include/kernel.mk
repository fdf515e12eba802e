# SPDX-License-Identifier: GPL-2.0
#
# A stand-in for OpenWrt's include/kernel.mk (tests/openwrt): the kernel
# tree a kmod package builds against and the KernelPackage, AutoProbe and
# AutoLoad calls of a package Makefile.  LINUX_DIR= names a prepared
# kernel build tree (scripts/cross-kernel.sh); OpenWrt's own has the
# whole kernel built, this one only modules_prepare, so modpost may only
# warn about the kernel's symbols (KBUILD_MODPOST_WARN).

ifeq ($(wildcard $(LINUX_DIR)/Makefile),)
$(error stub kernel.mk: LINUX_DIR= must name a prepared kernel build tree)
endif

LINUX_KMOD_SUFFIX := ko
LINUX_VERSION := $(shell cat $(LINUX_DIR)/include/config/kernel.release)
MODULES_SUBDIR := lib/modules/$(LINUX_VERSION)
KERNEL_CROSS := $(TARGET_CROSS)
KERNEL_BUILD_DIR := $(BUILD_DIR)/linux-$(LINUX_VERSION)
PKG_BUILD_DIR ?= $(KERNEL_BUILD_DIR)/$(PKG_NAME)-$(PKG_VERSION)

# The kernel's name for the architecture: every MIPS variant is mips.
LINUX_KARCH := $(if $(filter mips mipsel mips64 mips64el,$(ARCH)),mips,$(ARCH))

KERNEL_MAKE_FLAGS = ARCH="$(LINUX_KARCH)" CROSS_COMPILE="$(KERNEL_CROSS)" \
	KBUILD_HAVE_NLS=no KBUILD_MODPOST_WARN=1
KERNEL_MAKEOPTS = -C "$(LINUX_DIR)" $(KERNEL_MAKE_FLAGS)
KERNEL_MAKE = $(MAKE) $(KERNEL_MAKEOPTS)

# AUTOLOAD's words: shell calls that the kmod's install runs with
# probe_module and add_module defined (tw_kmod_autoload below).
#   AutoProbe MODULES[,BOOT]           /etc/modules.d/NAME
#   AutoLoad PRIORITY,MODULES[,BOOT]   /etc/modules.d/PRIORITY-NAME
AutoProbe = probe_module "$(1)" "$(2)";
AutoLoad = add_module "$(1)" "$(2)" "$(3)";

# The shell functions AUTOLOAD's calls need, for kmod package $(1)
# installed into root $(2): each lists the modules it is given in the
# package's file of /etc/modules.d/, which kmodloader reads at boot.
define tw_kmod_autoload
	tw_list() { f=$(2)/etc/modules.d/$$1; shift; \
		mkdir -p $(2)/etc/modules.d; \
		for m in $$1; do echo "$$m" >> "$$f"; done; }; \
	probe_module() { tw_list "$(1)" "$$1"; }; \
	add_module() { tw_list "$$1-$(1)" "$$2"; }; \
	$(3) true
endef

define KernelPackage/Defaults
  FILES:=
  AUTOLOAD:=
  KCONFIG:=
endef

# KernelPackage NAME: the package kmod-NAME from KernelPackage/NAME (its
# FILES, AUTOLOAD and KCONFIG kept for make dump), its install copying FILES into lib/modules/<release>/ (a missing one fails,
# as for a module the kernel lacks) and writing AUTOLOAD's lists.
define KernelPackage
  $(eval $(call Package/Default))
  $(eval $(call KernelPackage/Defaults))
  $(eval $(call KernelPackage/$(1)))
  define Package/kmod-$(1)
    $(call KernelPackage/$(1))
    SECTION:=kernel
    CATEGORY:=Kernel modules
    VERSION:=$(LINUX_VERSION)+$(PKG_VERSION)-$(PKG_RELEASE)
  endef
  tw_kmod_files_kmod-$(1) := $(FILES)
  tw_kmod_autoload_kmod-$(1) := $(AUTOLOAD)
  tw_kmod_kconfig_kmod-$(1) := $(KCONFIG)
  define Package/kmod-$(1)/install
	@for f in $$(tw_kmod_files_kmod-$(1)); do \
		[ -f "$$$$f" ] || { echo "kmod-$(1): $$$$f missing" >&2; exit 1; }; \
		$(INSTALL_DIR) $$(1)/$(MODULES_SUBDIR); \
		$(CP) "$$$$f" $$(1)/$(MODULES_SUBDIR)/; \
	done
	@$$(call tw_kmod_autoload,$(1),$$(1),$$(tw_kmod_autoload_kmod-$(1)))
  endef
  $$(eval $$(call BuildPackage,kmod-$(1)))
endef
