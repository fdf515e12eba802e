# SPDX-License-Identifier: GPL-2.0
#
# timewire: kernel modules, the timewire CLI and their tests.
#
#   make                 modules + userspace (KDIR= overrides the kernel tree)
#   make check           install what is missing, build, run every test
#   make kselftest-install  the guest suites with kselftest's runner, to copy to a
#                        host or router (INSTALL_PATH=, default .build/kselftest)
#   make demo            boot the target kernel and run a short OMware comparison
#   make deps            install build/test dependencies (Debian 12)
#   make style           checkpatch and sparse on the kernel C
#   make bench-core      host benchmark of the portable core
#   make bench-omware    the full OMware benchmark in the guest
#   sudo make modules_install install

TOPDIR	:= $(CURDIR)
KVER	?= $(shell . $(TOPDIR)/scripts/kernel-version.sh && tw_kernel_installed)
KDIR	?= /lib/modules/$(KVER)/build
PREFIX	?= /usr/local

.PHONY: .deps-ok all modules userspace tools clean deps check check-host demo style \
	bench-core bench-omware modules_install install help

all: modules userspace

deps:
	@scripts/deps.sh

# Run deps only when something is missing, so a built machine pays nothing.
.deps-ok:
	@scripts/deps.sh --check >/dev/null || scripts/deps.sh

modules:
	@test -d "$(KDIR)" || { echo "no kernel build tree at '$(KDIR)': run 'make deps' or set KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOPDIR) modules

userspace:
	$(MAKE) -C userspace
	$(MAKE) -C userspace/tools

modules_install:
	$(MAKE) -C $(KDIR) M=$(TOPDIR) modules_install

install:
	$(MAKE) -C userspace install PREFIX=$(PREFIX)

check: .deps-ok
	@$(MAKE) --no-print-directory all
	@tests/run.sh

check-host: .deps-ok
	@$(MAKE) --no-print-directory userspace
	@tests/run.sh --host-only

demo: .deps-ok
	@$(MAKE) --no-print-directory all
	@TW_TESTS=demo.sh tests/vm/vm.sh -o .build/demo tests/omware-bench; rc=$$?; \
	 cat .build/demo/table.txt 2>/dev/null || echo "demo: no result table (see .build/demo/console.log)"; \
	 exit $$rc

bench-omware: .deps-ok
	@$(MAKE) --no-print-directory all
	@tests/vm/vm.sh -o .build/bench-omware tests/omware-bench; rc=$$?; \
	 cat .build/bench-omware/table.txt 2>/dev/null; exit $$rc

bench-core:
	$(MAKE) -C tests/core bench

.PHONY: kselftest-install
kselftest-install:
	$(MAKE) -C tests install INSTALL_PATH=$(abspath $(or $(INSTALL_PATH),.build/kselftest))

style:
	@scripts/style.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(TOPDIR) clean 2>/dev/null
	$(MAKE) -C userspace clean
	$(MAKE) -C userspace/tools clean
	$(MAKE) -C tests/core clean
	-$(MAKE) -C tests/omware clean
	rm -rf .build/results .build/demo .build/bench-omware

help:
	@sed -n 's/^#   //p' Makefile
