# ioca: the one entry point. `make help` lists the targets.
#
# Sub-directories build with their own Makefiles; this file only wires them
# together and passes the few settings they share.

LLVM_VERSION ?= 16
PREFIX ?= /usr/local
DESTDIR ?=
# Where per-machine build products live (the KUnit kernel, the unpacked
# kernel source, VM images). Outside the repo, so clean clones reuse them.
IOCA_CACHE ?= $(shell [ -w /var/cache ] && echo /var/cache/ioca || echo $(HOME)/.cache/ioca)
# Kernel tree for the module: the running kernel's build link, else the
# newest installed Debian headers.
KDIR ?= $(shell scripts/kdir.sh)

export LLVM_VERSION PREFIX DESTDIR IOCA_CACHE KDIR

USER_DIRS := libspec libioca iocad
SUBMAKE = $(MAKE) --no-print-directory

.PHONY: all check check-debug demo eval bench vmtest soak oci kunit fuzz lint install clean help deps kmod deb image \
	$(USER_DIRS)

all: kmod $(USER_DIRS) ## build everything (default)

deps: ## install missing Debian packages (scripts/deps.sh)
	@scripts/deps.sh

kmod: ## build kmod/ioca.ko against KDIR
	@$(SUBMAKE) -C kmod

libspec: ## build libspec (shared and static library, spec-cc)
	@$(SUBMAKE) -C libspec

libioca: ## build libioca (the netlink client library, shared and static)
	@$(SUBMAKE) -C libioca

iocad: libioca ## build iocad and iocactl
	@$(SUBMAKE) -C iocad

check: deps ## install deps, build, run every test group, print the sum
	@scripts/check.sh

demo: deps ## run iocad on the simulator with the example scenarios and plot them
	@$(SUBMAKE) -C iocad
	@scripts/demo.sh

eval: deps ## iocad against static and an oracle on generated cases (EVAL_COUNT=2000, EVAL_SEED=1)
	@$(SUBMAKE) -C iocad eval

bench: deps all ## run the benchmarks (figures and ratios, never pass/fail)
	@$(SUBMAKE) -C iocad bench
	@$(SUBMAKE) -C libspec bench
	@$(SUBMAKE) -C libioca bench
	@scripts/vm/bench.sh

vmtest: ## boot the Debian kernel in QEMU (TCG) and run the module's selftests
	@scripts/vm/vmtest.sh

# The soak's length and seed (selftests/soak/vmrun.sh); vmtest runs a 60 s
# pass. 200 s is 80 steps: every fault at least 5 times.
SOAK_SECONDS ?= 200
SOAK_SEED ?=
SOAK_HOSTLOOP ?= 1
soak: ## iocad on two sockets in a VM under seeded random faults (SOAK_SECONDS=200, SOAK_SEED=N)
	@SOAK_SECONDS=$(SOAK_SECONDS) SOAK_SEED=$(SOAK_SEED) SOAK_HOSTLOOP=$(SOAK_HOSTLOOP) \
		selftests/soak/vmrun.sh

fuzz: deps ## run every libFuzzer target for FUZZ_SECONDS each (default 60; fuzz/Makefile)
	@$(SUBMAKE) -C fuzz run

oci: ## runc puts a container into iocad's rdt_class on the resctrl emulation (VM)
	@selftests/oci/vmrun.sh

kunit: ## build (once, cached) a KUnit kernel and run the module's KUnit suites
	@scripts/kunit/kunit.sh

check-debug: deps ## KUnit suites and kernel selftests on a KASAN+lockdep kernel (cached)
	@scripts/kunit/debug.sh

lint: ## checkpatch --strict (kmod, uapi), clang-format and cppcheck (userspace)
	@scripts/lint.sh

install: all ## install into $(DESTDIR)$(PREFIX)
	@$(SUBMAKE) -C libspec install
	@$(SUBMAKE) -C libioca install
	@$(SUBMAKE) -C iocad install
	@$(SUBMAKE) -C kmod install

clean: ## remove build products from the tree (the cache stays)
	@for d in kmod $(USER_DIRS) selftests fuzz; do \
		[ -f $$d/Makefile ] && $(SUBMAKE) -C $$d clean; done; true
	@rm -rf build

deb: deps ## Debian packages into build/deb/ (debhelper, dh-dkms), lintian-checked
	@scripts/deb/build.sh

image: ## the DaemonSet's image from build/deb's iocad .deb (debootstrap, podman import), tried with podman run
	@scripts/deps.sh image
	@scripts/image/build.sh

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([a-z-]+):.*## (.*)/  make \1\t\2/' | expand -t 20
	@echo "  settings: LLVM_VERSION=$(LLVM_VERSION) KDIR=$(KDIR)"
	@echo "            PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) IOCA_CACHE=$(IOCA_CACHE)"
