# SPDX-License-Identifier: GPL-2.0
# The userspace sources generated from the specs and the module registry,
# for a Makefile that sets TOPDIR and includes this file:
#
#   GEN_DIR   userspace/gen/ (ignored by git; never edited by hand)
#   GEN_SRCS  <family>.c of every family of modules.list
#   GEN_HDRS  <family>.h of every family, and modules.h (TW_MODULE lines)
#
# See Documentation/netlink-conventions.rst, "Single source".

GEN_DIR		:= $(TOPDIR)/userspace/gen
GEN_FAMILIES	:= $(shell $(TOPDIR)/scripts/modules.sh families)
GEN_SRCS	:= $(GEN_FAMILIES:%=$(GEN_DIR)/%.c)
GEN_HDRS	:= $(GEN_FAMILIES:%=$(GEN_DIR)/%.h) $(GEN_DIR)/modules.h
GEN_PYTHON	?= /usr/bin/python3

# One run writes both files of a family.
$(GEN_DIR)/%.c $(GEN_DIR)/%.h: $(TOPDIR)/Documentation/netlink/specs/%.yaml \
		$(TOPDIR)/scripts/nlgen.py
	$(GEN_PYTHON) $(TOPDIR)/scripts/nlgen.py --out-dir $(GEN_DIR) $<

# modules-gen.sh leaves the header alone when nothing changed.
$(GEN_DIR)/modules.h: $(TOPDIR)/modules.list $(TOPDIR)/scripts/modules-gen.sh
	@mkdir -p $(GEN_DIR)
	$(TOPDIR)/scripts/modules-gen.sh $@
