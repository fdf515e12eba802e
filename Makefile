# SPDX-License-Identifier: GPL-2.0
#
# timewire: kernel modules, the timewire CLI and their tests.
#
# `make` builds the modules for the running kernel, like every out-of-tree
# module (KDIR= or KVER= picks another tree).  The tests, the demo and the
# benchmarks boot the test kernel (Debian's stock 6.12, see
# scripts/kernel-version.sh) and build the modules for it in their own
# directory, .build/kmod/<version>/.  `make help` lists the targets: the
# "##" comment after each target is its line there.

TOPDIR	:= $(CURDIR)
# The version every part reports (scripts/version.sh), found once and
# passed to the module and userspace builds this Makefile starts.
include $(TOPDIR)/scripts/version.mk
export TW_VERSION
# Kbuild is safe in parallel: the module builds use every CPU.
NPROC	:= $(shell nproc)
PREFIX	?= /usr/local

# The test kernel: the one KVER names, else the newest installed 6.12 (make
# deps); vm.sh boots the same.  Found only when a target needs it.
ifneq ($(filter command line environment,$(origin KVER)),)
TEST_KVER := $(KVER)
else
TEST_KVER = $(shell . $(TOPDIR)/scripts/kernel-version.sh && tw_kernel_installed)
endif
TEST_KO_DIR = $(TOPDIR)/.build/kmod/$(TEST_KVER)

# The running kernel, or the one KVER names.
KVER	?= $(shell uname -r)
ifeq ($(origin KDIR),undefined)
KDIR	:= /lib/modules/$(KVER)/build
KDIR_MISSING := no kernel build tree for $(KVER) at $(KDIR): install the headers of that kernel \
		(linux-headers-$(KVER) on Debian), or set KDIR= to a kernel build tree
else
KDIR_MISSING := no kernel build tree at $(KDIR): KDIR= must name a prepared kernel build tree
endif

# The CLI's and the tools' netlink library, by its pkg-config name
# (scripts/libnl.mk).  Another than libnl-genl-3 (LIBNL=libnl-tiny, what
# OpenWrt ships) is built in a mirror of the tree, .build/<name>/, so
# that the tree's own build stays as it is.
ifneq ($(filter-out libnl-genl-3.0,$(LIBNL)),)
US_TREE := $(TOPDIR)/.build/$(LIBNL)
else
US_TREE := $(TOPDIR)
endif

.PHONY: .deps-ok .us-tree all modules modules-test cli userspace gen clean deps check check-prep \
	check-host check-debug demo style bench-core bench-tfib-core bench-omware bench-tfib bench-qaware results-plots modules_install \
	install install-bench help \
	kselftest-install

all: modules cli ## the modules for the running kernel (KDIR= another tree) and the CLI

include $(TOPDIR)/scripts/gen.mk

modules: ## the modules of modules.list for KDIR, objects next to the sources
	@test -f "$(KDIR)/Makefile" || { \
	 echo "$(KDIR_MISSING)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOPDIR) modules

modules-test: ## the modules for the test kernel, in .build/kmod/<version>/<dir>/<name>.ko
	@test -n "$(TEST_KVER)" || { echo "no test kernel installed: run make deps" >&2; exit 1; }
	@$(TOPDIR)/scripts/kmod-tree.sh $(TEST_KO_DIR)
	$(MAKE) -j$(NPROC) -C /lib/modules/$(TEST_KVER)/build M=$(TEST_KO_DIR) TW_TEST_MODULES=1 modules

# Another kernel than the test kernel, from Debian's headers packages
# (scripts/kernel-headers.sh [--suite SUITE] SERIES, cached outside the
# clone): a compile check at W=1, into .build/kmod/<release>/, the build
# run by RUNNER when given.  Another series is one more target calling
# it: $(call modules_other,SERIES[,--suite SUITE[,RUNNER]]); a kernel
# another command prints the headers of, $(call modules_kdir,CMD[,RUNNER]).
define modules_kdir
	@kdir=$$($(1)) && rel=$${kdir##*/linux-headers-} && \
	 scripts/kmod-tree.sh $(TOPDIR)/.build/kmod/$$rel && \
	 $(2) $(MAKE) -j$(NPROC) -C $$kdir M=$(TOPDIR)/.build/kmod/$$rel W=1 modules && \
	 echo "$@: built for $$rel in .build/kmod/$$rel/"
endef
modules_other = $(call modules_kdir,scripts/kernel-headers.sh $(2) $(1),$(3))

.PHONY: modules-6.1 modules-7
modules-6.1: ## the modules for Debian 12's own kernel (newest 6.1 headers), W=1
	$(call modules_other,6.1)

# Another of Debian's kernels booted: its image, the build modules-SERIES
# compiles against, fetched into the cache if missing
# (scripts/kernel-image.sh), the modules
# built and mptcp_qaware's refusal checked, then the omware, tfib and
# qaware boot groups on it (tests/run.sh --kernel; qaware from 6.6).
.PHONY: check-6.1 check-7
check-6.1: ## boot Debian 12's own 6.1 (fetched into the cache): omware, tfib suites; qaware refused
check-7: ## boot the newest 7.x (trixie-backports, fetched into the cache): omware, tfib, qaware suites
check-6.1 check-7: check-%: .deps-ok
	@$(MAKE) --no-print-directory userspace
	@scripts/kernel-image.sh $* >/dev/null
	@tests/run.sh --kernel $* --suite omware --suite tfib --suite qaware

# 7.x's kbuild tools need trixie's glibc: the build runs in a trixie root.
modules-7: ## the modules for the newest 7.x Debian serves (trixie-backports), W=1
	$(call modules_other,7,--suite trixie-backports,scripts/trixie-root.sh run)

# 32-bit big-endian MIPS (the ath79-class router), which no Debian kernel
# serves: a malta kernel built once from linux-source-6.12 into the cache
# (scripts/mips-be.sh kernel), the modules against it at W=1, and the CLI
# and the programs of the suites that run there (their settings' ARCHS)
# linked statically against libnl-tiny in .build/mips/ (the guest's root:
# static busybox, bash and iproute2, scripts/mips-be.sh).
.PHONY: modules-mips userspace-mips
modules-mips: ## the modules for 32-bit big-endian MIPS (a malta 6.12 built once into the cache), W=1
	@scripts/deps.sh mips
	@kdir=$$(scripts/mips-be.sh kernel) && rel=$$(scripts/mips-be.sh release) && \
	 scripts/kmod-tree.sh $(TOPDIR)/.build/kmod/$$rel && \
	 scripts/mips-be.sh run $(MAKE) -j$(NPROC) -C $$kdir \
		M=$(TOPDIR)/.build/kmod/$$rel W=1 modules && \
	 echo "$@: built for $$rel in .build/kmod/$$rel/"
userspace-mips: ## the CLI and the suites' programs for 32-bit big-endian MIPS, static, in .build/mips/
	@scripts/src-mirror.sh $(TOPDIR)/.build/mips
	@scripts/mips-be.sh make -C $(TOPDIR)/.build/mips/userspace
	@if kbuild=$$(scripts/mips-be.sh kbuild 2>/dev/null); then \
		echo "$$kbuild" | xargs -d '\n' scripts/mips-be.sh make -s -C $(TOPDIR)/.build/mips/tests \
		install INSTALL_PATH=$(TOPDIR)/.build/mips/kselftest SUITES="$(shell tests/lib/suites.sh arch mips)"; \
	 else \
		echo "userspace-mips: no malta kernel cached (make modules-mips): qaware's own modules left out"; \
		scripts/mips-be.sh make -s -C $(TOPDIR)/.build/mips/tests install \
		INSTALL_PATH=$(TOPDIR)/.build/mips/kselftest \
		SUITES="$(filter-out qaware,$(shell tests/lib/suites.sh arch mips))"; \
	 fi

# 32-bit ARM (armhf), the other common OpenWrt CPU class: Debian's armmp
# flavour (armmp-lpae would not run on Cortex-A9 routers) of the test
# kernel's version, which only trixie builds for armhf (with gcc-14):
# compiled in a trixie root with its cross compiler.
.PHONY: modules-armhf
modules-armhf: ## the modules for 32-bit ARM (Debian's armmp, the test kernel's version), W=1
	@test -n "$(TEST_KVER)" || { echo "no test kernel installed: run make deps" >&2; exit 1; }
	$(call modules_other,$(firstword $(subst +, ,$(TEST_KVER))) armmp,--suite trixie,scripts/trixie-root.sh --cross armhf run)
# The foreign guests, scripts/foreign-archs.sh's list: FOREIGN_ARCHS, and
# those of Debian's kernels and roots, DEBIAN_FOREIGN_ARCHS
# (scripts/foreign.sh ARCH: the kernel, its suite, the cross compiler
# installed when missing): arm64, the arm64 build of the test kernel's
# version; mipsel, Debian 12's own 6.1 for 32-bit MIPS (4kc-malta).  One
# rule each for all of these; big-endian MIPS has its own above.
FOREIGN_ARCHS := $(shell $(TOPDIR)/scripts/foreign-archs.sh list)
DEBIAN_FOREIGN_ARCHS := $(shell $(TOPDIR)/scripts/foreign-archs.sh list foreign.sh)
.PHONY: $(foreach a,$(FOREIGN_ARCHS),modules-$(a) userspace-$(a) check-$(a))
$(DEBIAN_FOREIGN_ARCHS:%=modules-%): modules-%: ## the modules for a foreign guest's kernel (arm64: the test kernel's version; mipsel: 6.1), W=1
	@scripts/deps.sh $*
	$(call modules_kdir,scripts/foreign.sh $* headers,scripts/foreign.sh $* run)

# The programs a foreign guest runs, cross-built in a mirror of the tree
# against its root's own libnl (scripts/foreign.sh ARCH make).
$(DEBIAN_FOREIGN_ARCHS:%=userspace-%): userspace-%: ## the CLI, the tools and the suites' programs for a foreign guest, in .build/ARCH/
	@scripts/deps.sh $*
	@scripts/src-mirror.sh $(TOPDIR)/.build/$*
	@scripts/foreign.sh $* make -C $(TOPDIR)/.build/$* userspace
	@kbuild=$$(scripts/foreign.sh $* kbuild) && echo "$$kbuild" | \
	 xargs -d '\n' scripts/foreign.sh $* make -s -C $(TOPDIR)/.build/$*/tests install \
		INSTALL_PATH=$(TOPDIR)/.build/$*/kselftest SUITES="$(shell tests/lib/suites.sh arch $*)"

# A foreign guest under TCG: its modules built, every suite whose ARCHS
# names it run in one boot (tests/vm/vm.sh cross-builds their programs),
# kernel reports fail it.
$(FOREIGN_ARCHS:%=check-%): check-%: .deps-ok ## the suites on a foreign guest (qemu-system-aarch64 virt, qemu-system-mipsel or -mips malta)
	@tests/run.sh --arch $*

# Every suite on every kernel and CPU booted here, each part run even when
# one before it failed; the failed ones named at the end.  make check
# leaves its smoke boots to the check-KERNEL that follow.
MATRIX := check check-6.1 check-7 $(FOREIGN_ARCHS:%=check-%)
.PHONY: check-matrix
check-matrix: ## make check, then every suite on each other kernel and CPU (see MATRIX)
	@failed=; for t in $(MATRIX); do \
		echo "### check-matrix: make $$t"; \
		TW_SMOKE_KERNELS= $(MAKE) --no-print-directory $$t || failed="$$failed $$t"; \
	 done; \
	 [ -z "$$failed" ] || { echo "check-matrix: failed:$$failed" >&2; exit 1; }

cli: .us-tree ## the CLI and its library; LIBNL=libnl-tiny: in .build/libnl-tiny/
	$(MAKE) -C $(US_TREE)/userspace

# The experiments are built on request only: a release's make is the product.
userspace: cli ## the CLI and the experiment tools (bench/); LIBNL=libnl-tiny: in .build/libnl-tiny/
	$(MAKE) -C $(US_TREE)/bench

.us-tree:
ifneq ($(US_TREE),$(TOPDIR))
	@scripts/src-mirror.sh $(US_TREE)
endif

gen: $(GEN_SRCS) $(GEN_HDRS) ## the CLI's tables from the specs and modules.list, in userspace/gen/

# Committed, unlike userspace/gen/: building a module needs no Python.
.PHONY: gen-kernel
gen-kernel: ## the modules' netlink tables from the specs, <dir>/netlink-gen.[ch] (commit them)
	@scripts/nlgen-kernel.sh

# The release tarball: git's files and the generated ones (gen), so that
# building it needs no Python (scripts/dist.sh).
.PHONY: dist
dist: gen ## the release tarball .build/timewire-<version>.tar.gz: sources, generated files
	@scripts/dist.sh $(TOPDIR)/.build $(GEN_SRCS) $(GEN_HDRS)

# The Debian packages (debian/, Documentation/install.rst), built from the
# release tarball in a bookworm root cached outside the clone
# (scripts/deb-chroot.sh), into .build/deb/.  Each build starts from the
# root as made: what dpkg and dkms write there (tests/deb) lands in
# .build/deb/root/, an overlay on it.
.PHONY: deb clean-deb
deb: dist ## the Debian packages (timewire, -dkms, -qaware-dkms, -bench) from the tarball, in .build/deb/
	@rm -rf $(TOPDIR)/.build/deb/root
	@scripts/deb-chroot.sh run $(TOPDIR)/.build/deb/root scripts/deb-build.sh \
		$(TOPDIR)/.build/timewire-$(TW_VERSION).tar.gz $(TOPDIR)/.build/deb
clean: clean-deb
clean-deb:
	rm -rf .build/deb

# The generated files a release carries, one a line (tests/dist).
.PHONY: gen-files
gen-files:
	@printf '%s\n' $(patsubst $(TOPDIR)/%,%,$(GEN_SRCS) $(GEN_HDRS))

modules_install: ## install the modules built by make (run as root)
	$(MAKE) -C $(KDIR) M=$(TOPDIR) modules_install

install: .us-tree ## install the product: the CLI, its man pages and completion under PREFIX
	$(MAKE) -C $(US_TREE)/userspace install PREFIX=$(PREFIX)

install-bench: .us-tree ## install the experiment tools, analysers and their man pages under PREFIX
	$(MAKE) -C $(US_TREE)/bench install PREFIX=$(PREFIX)

# What make install adds for a host's boot, and make uninstall: the
# systemd unit (modules loaded, SYSCONFDIR/timewire/*.conf applied), that
# directory's README and mptcp_qaware's modprobe rule, with the CLI's path
# written in.  The whole install is tests/apart/install.list.
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
BOOT_BINDIR = $(or $(BINDIR),$(PREFIX)/bin)
BOOT_FILES = $(UNITDIR)/timewire.service $(SYSCONFDIR)/timewire/README \
	$(SYSCONFDIR)/modprobe.d/mptcp-qaware.conf

.PHONY: install-boot uninstall
install: install-boot
install-boot:
	@mkdir -p $(TOPDIR)/.build/boot
	sed -e 's|@BINDIR@|$(BOOT_BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		packaging/host/timewire.service.in > $(TOPDIR)/.build/boot/timewire.service
	sed 's|/usr/local/bin|$(BOOT_BINDIR)|' mptcp-qaware/mptcp-qaware.conf \
		> $(TOPDIR)/.build/boot/mptcp-qaware.conf
	install -D -m 0644 .build/boot/timewire.service $(DESTDIR)$(UNITDIR)/timewire.service
	install -D -m 0644 packaging/host/README $(DESTDIR)$(SYSCONFDIR)/timewire/README
	install -D -m 0644 .build/boot/mptcp-qaware.conf \
		$(DESTDIR)$(SYSCONFDIR)/modprobe.d/mptcp-qaware.conf

.PHONY: clean-boot
clean: clean-boot
clean-boot:
	rm -rf .build/boot .build/openwrt

# A *.conf of the configuration directory is the user's: it stays.
uninstall: .us-tree ## remove what make install installed (same PREFIX, DESTDIR)
	$(MAKE) -C $(US_TREE)/userspace uninstall PREFIX=$(PREFIX)
	rm -f $(addprefix $(DESTDIR),$(BOOT_FILES))
	-rmdir $(DESTDIR)$(SYSCONFDIR)/timewire 2>/dev/null

deps: ## install the build and test dependencies (Debian 12)
	@scripts/deps.sh

# Run deps only when something is missing, so a built machine pays nothing.
.deps-ok:
	@scripts/deps.sh --check >/dev/null || scripts/deps.sh

# What the cross suite and the smoke boots of make check need beyond make
# deps, made once per machine: each foreign guest's tools and the malta
# kernel (10-40 minutes), so that a fresh machine's first run builds and
# boots the whole matrix instead of skipping parts of it.
check-prep: .deps-ok ## the foreign guests' tools and the malta kernel, once per machine
	@scripts/deps.sh $(FOREIGN_ARCHS)
	@scripts/mips-be.sh kernel > /dev/null

check: check-prep ## install what is missing, build, run every test
	@$(MAKE) --no-print-directory modules-test userspace
	@tests/run.sh

# The debug kernel (scripts/debug-kernel.sh) is cached outside the clone;
# the modules are built against its tree, in .build/kmod/<its release>/.
check-debug: .deps-ok ## every guest suite on a debug kernel (KASAN, lockdep, kmemleak...)
	@$(MAKE) --no-print-directory userspace
	@dir=$$(scripts/debug-kernel.sh build) && rel=$$(scripts/debug-kernel.sh release) && \
	 scripts/kmod-tree.sh $(TOPDIR)/.build/kmod/$$rel && \
	 $(MAKE) -j$(NPROC) -C $$dir/linux M=$(TOPDIR)/.build/kmod/$$rel TW_TEST_MODULES=1 modules
	@TW_DEBUG_KERNEL=1 tests/run.sh

check-host: .deps-ok ## the host tests only (no VM)
	@$(MAKE) --no-print-directory userspace
	@tests/run.sh --host-only

# The guest measures; the host, where plotting is quick, summarises and draws.
demo: .deps-ok ## boot the test kernel: a short OMware comparison and a short FIB run
	@$(MAKE) --no-print-directory modules-test userspace
	@TW_TCG_THREAD=single TW_TESTS=demo.sh tests/vm/vm.sh -o .build/demo bench/omware; rc=$$?; \
	 if [ -e .build/demo/raw/round-01/done ]; then \
		echo; bench/omware/tw-omware-analyze --summary --plots cdf \
			-o .build/demo .build/demo/raw || rc=1; \
		echo "Raw records: .build/demo/raw/, guest console: .build/demo/console.log"; \
	 else \
		echo "demo: no results (see .build/demo/console.log)"; \
	 fi; \
	 echo; echo "Timely FIB: a short Age-of-Information run through tfib.ko"; \
	 TW_TCG_THREAD=single TW_TESTS=demo.sh tests/vm/vm.sh -o .build/demo-tfib tests/tfib || rc=1; \
	 if [ -d .build/demo-tfib/tfib ]; then \
		echo; bench/tfib/tw-tfib-analyze .build/demo-tfib/tfib || rc=1; \
		echo "A short run is noisy: one rate, one CDR, a few seconds per mode."; \
		echo "Runs: .build/demo-tfib/tfib/, plots: .build/demo-tfib/tfib/*.png"; \
	 else \
		echo "demo: no FIB results (see .build/demo-tfib/console.log)"; \
	 fi; \
	 exit $$rc

# $(call follow_progress,OUTDIR): OUTDIR/progress.log's lines as they come,
# from a tail in the background, its PID in $$t: vm.sh stays in the
# foreground, where a terminal's Ctrl-C reaches it.
follow_progress = rm -f $(1)/progress.log; \
	tail -n +1 -F --pid=$$$$ $(1)/progress.log 2>/dev/null & t=$$!

# The OMware benchmark in both time modes (Documentation/harness.rst,
# "Virtual time"): first in virtual time on one vCPU, which the targets
# judge, then in real time, reported beside it; best alone on the machine.
# Each mode's rounds are kept in .build/bench-omware/MODE/raw (vm.sh's
# TW_OUT_KEEP): run again, it continues a stopped run; rm -rf
# .build/bench-omware (or make clean) starts afresh.  The real run takes
# the virtual one's seed, the same cell and method orders.  The host then
# judges the virtual run with the real one beside it, if a real round was
# done; non-zero when a target fails or is not measured, or a run broke.
bench-omware: .deps-ok ## the full OMware benchmark, virtual time (judged) then real time; resumes a stopped run
	@$(MAKE) --no-print-directory modules-test userspace
	@rc=0; b=.build/bench-omware; for clock in virtual real; do \
		o=$$b/$$clock; \
		[ $$clock = virtual ] || export TW_BENCH_SEED=$$(python3 -c \
			'import json, sys; print(json.load(open(sys.argv[1]))["seed"])' \
			$$b/virtual/raw/run.json 2>/dev/null); \
		$(call follow_progress,$$o); \
		TW_CLOCK=$$clock TW_OUT_KEEP=raw tests/vm/vm.sh -o $$o bench/omware || \
			{ r=$$?; [ $$r -lt 129 ] || exit $$r; rc=1; }; \
		sleep 1; kill $$t; \
	 done; \
	 beside="--beside $$b/real/raw"; ls $$b/real/raw/round-*/done >/dev/null 2>&1 || \
		{ beside=; echo "bench-omware: no real-time round done, the virtual run judged alone"; }; \
	 bench/omware/tw-omware-analyze --summary --strict --all-judged --plots cdf \
		-o $$b $$b/virtual/raw $$beside || rc=1; \
	 echo "Tables: .build/bench-omware/table.txt (and virtual/, real/)"; exit $$rc

# A benchmark in the guest:
# $(call guest_bench,OUTDIR,SUITE,RUNS,ANALYSER[,KEEP]).
# The guest runs SUITE's full.sh (short.sh with SHORT=1), its progress
# lines shown as they come; a stopped vm.sh stops the recipe.  The host's
# ANALYSER reads OUTDIR/RUNS and writes OUTDIR/analysis, --strict (a
# failed target fails the make) unless SHORT, whose verdicts are
# indicative only.  KEEP: OUTDIR's entries that survive a new boot
# (vm.sh's TW_OUT_KEEP), for a benchmark that resumes.
define guest_bench
	@$(MAKE) --no-print-directory modules-test userspace
	@$(call follow_progress,$(1)); \
	 $(if $(SHORT),TW_TESTS=short.sh) $(if $(5),TW_OUT_KEEP="$(5)") tests/vm/vm.sh -o $(1) $(2); rc=$$?; \
	 sleep 1; kill $$t; [ $$rc -lt 129 ] || exit $$rc; \
	 if [ -s $(1)/$(3)/bench.json ]; then \
		echo; $(4) $(if $(SHORT),,--strict) -o $(1)/analysis $(1)/$(3) || rc=1; \
		echo "Runs: $(1)/$(3)/, analysis and plots: $(1)/analysis/"; \
	 else \
		echo "$@: no results (see $(1)/console.log)"; rc=1; \
	 fi; \
	 exit $$rc
endef

# The Age-of-Information experiment: the sweep in the guest.  Its runs
# are kept in .build/bench-tfib/tfib: run again, it continues a stopped
# run of the same plan and commit; rm -rf .build/bench-tfib starts afresh.
bench-tfib: .deps-ok ## the AoI experiment in the guest: tfib's modes and the XDP peer over R (SHORT=1: short); resumes a stopped run
	$(call guest_bench,.build/bench-tfib,bench/tfib/guest,tfib,bench/tfib/tw-tfib-analyze,tfib)

# The MPTCP schedulers side by side over two emulated paths.  Its runs
# are kept in .build/bench-qaware/qaware: run again, it continues a
# stopped run of the same configuration (settings, commit, module,
# programs, kernel, clock) and refuses one of another, never deleting it:
# rm -rf .build/bench-qaware to start afresh.
bench-qaware: .deps-ok ## the MPTCP schedulers over two emulated paths in the guest (SHORT=1: short); resumes a stopped run
	$(call guest_bench,.build/bench-qaware,bench/qaware/guest,qaware,bench/qaware/tw-qaware-analyze,qaware)

# The plots of the runs kept in the tree, from their plots.json alone.
results-plots: ## the plots of each run in Documentation/results/ with a plots.json, in .build/results-plots/<run>/
	@scripts/results-plots.sh

bench-core: ## host benchmark of the portable core; output kept in .build/bench-core/ with the commit
	$(MAKE) -C tests/core bench

bench-tfib-core: ## host benchmark of the forwarding table's sync modes, the lock CAS and the worker pick; output kept in .build/bench-core/
	$(MAKE) -C tests/core bench-tfib

style: ## checkpatch and sparse on the kernel C, docutils on the docs
	@scripts/style.sh

clean: ## remove what the build and the tests wrote
	-test ! -f "$(KDIR)/Makefile" || $(MAKE) -C $(KDIR) M=$(TOPDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C bench clean
	$(MAKE) -C tests/core clean
	$(MAKE) -C bench/lib clean
	-$(MAKE) -C tests/omware clean
	rm -rf .build/kmod .build/results .build/demo .build/bench-omware .build/bench-tfib \
		.build/bench-qaware .build/results-plots .build/libnl-tiny $(addprefix .build/,$(FOREIGN_ARCHS)) \
		.build/dist .build/timewire-*.tar.gz \
		$(GEN_DIR)/*.[ch]

kselftest-install: ## the suites for a host or router (INSTALL_PATH=)
	$(MAKE) -C tests install INSTALL_PATH=$(abspath $(or $(INSTALL_PATH),.build/kselftest))

# A rule over a list, "$(LIST:%=PREFIX%): ...", is shown as PREFIXARCH.
help: ## this list
	@sed -E 's/^\$$\([A-Z_]+:%=([a-z0-9.-]+)%\)/\1ARCH/' Makefile | \
	 awk -F ':.*## ' '/^[a-zA-Z0-9._ -]+:.*## /{ gsub(/ /, "|", $$1); \
		printf "  make %-18s %s\n", $$1, $$2 }'
	@echo "  ARCH: $(FOREIGN_ARCHS) (modules-ARCH, userspace-ARCH above: $(DEBIAN_FOREIGN_ARCHS))"
	@echo "  sudo make modules_install install   after make, on a real host"
