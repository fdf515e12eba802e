# SPDX-License-Identifier: GPL-2.0
#
# A stand-in for OpenWrt's include/package.mk (tests/openwrt): BuildPackage
# and the default Build/* steps, with these goals for the test:
#
#   dump       each package's fields, "Package: NAME" then "FIELD: value"
#   compile    unpack PKG_SOURCE from DL_DIR into PKG_BUILD_DIR, run
#              Build/Prepare, Build/Configure and Build/Compile
#   packages   run each package's install into PKG_ROOT/<package>/, the
#              tree its .ipk or .apk would hold (package-NAME: one)
#
# The fields a package must have are OpenWrt's: TITLE, CATEGORY, SECTION
# and VERSION.

PKG_ROOT ?= $(BUILD_DIR)/root
PKG_BUILD_DIR ?= $(BUILD_DIR)/$(PKG_NAME)-$(PKG_VERSION)
PKG_JOBS := $(if $(PKG_BUILD_PARALLEL),-j$(shell nproc),-j1)
STAMP_PREPARED := $(PKG_BUILD_DIR)/.prepared
STAMP_BUILT := $(PKG_BUILD_DIR)/.built

.DEFAULT_GOAL := compile

# A package's make: the target's flags in its environment, the target's
# tools on its command line.
MAKE_PATH = .
MAKE_VARS = CFLAGS="$(TARGET_CFLAGS) $(TARGET_CPPFLAGS)" LDFLAGS="$(TARGET_LDFLAGS)"
MAKE_FLAGS = $(TARGET_CONFIGURE_OPTS) CROSS="$(TARGET_CROSS)" ARCH="$(ARCH)"

define Build/Prepare/Default
	@[ -f "$(DL_DIR)/$(PKG_SOURCE)" ] || \
		{ echo "$(PKG_SOURCE) is not in DL_DIR ($(DL_DIR))" >&2; exit 1; }
	$(TAR) -C "$(PKG_BUILD_DIR)/.." -xzf "$(DL_DIR)/$(PKG_SOURCE)"
endef

define Build/Compile/Default
	+$(MAKE_VARS) $(MAKE) $(PKG_JOBS) -C "$(PKG_BUILD_DIR)/$(MAKE_PATH)" $(MAKE_FLAGS) $(1)
endef

define Build/Prepare
  $(call Build/Prepare/Default)
endef

define Build/Configure
endef

define Build/Compile
  $(call Build/Compile/Default)
endef

define Package/Default
  TITLE:=
  SECTION:=opt
  CATEGORY:=Extra packages
  SUBMENU:=
  DEPENDS:=
  VERSION:=$(PKG_VERSION)-r$(PKG_RELEASE)
endef

tw_fields := TITLE SECTION CATEGORY SUBMENU DEPENDS VERSION
tw_packages :=

# BuildPackage NAME: the fields of Package/NAME, kept under tw_<FIELD>_NAME,
# and its goal package-NAME.
define BuildPackage
  $(eval $(Package/Default))
  $(eval $(Package/$(1)))
  $(foreach f,TITLE CATEGORY SECTION VERSION,
    $(if $($(f)),,$(error Package/$(1) has no $(f))))
  $(foreach f,$(tw_fields),$(eval tw_$(f)_$(1) := $($(f))))
  tw_packages += $(1)

  package-$(1): $(STAMP_BUILT)
	@rm -rf "$(PKG_ROOT)/$(1)"
	@mkdir -p "$(PKG_ROOT)/$(1)"
	$$(call Package/$(1)/install,$(PKG_ROOT)/$(1))
  packages: package-$(1)
endef

$(STAMP_PREPARED):
	@rm -rf "$(PKG_BUILD_DIR)"
	@mkdir -p "$(PKG_BUILD_DIR)"
	$(Build/Prepare)
	@touch $@

$(STAMP_BUILT): $(STAMP_PREPARED)
	$(Build/Configure)
	$(Build/Compile)
	@touch $@

prepare: $(STAMP_PREPARED)
compile: $(STAMP_BUILT)

# One line a field; a list on one line, blanks collapsed.
dump:
	@:$(foreach p,$(tw_packages),$(info Package: $(p))$(foreach f,$(tw_fields), \
		$(info $(f): $(strip $(tw_$(f)_$(p)))))$(info FILES: $(strip \
		$(tw_kmod_files_$(p))))$(info AUTOLOAD: $(strip \
		$(tw_kmod_autoload_$(p))))$(info KCONFIG: $(strip \
		$(tw_kmod_kconfig_$(p))))$(info Conffiles: $(strip \
		$(Package/$(p)/conffiles)))$(info ))

.PHONY: prepare compile packages dump
