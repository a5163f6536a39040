# SPDX-License-Identifier: GPL-2.0-only
# Thin wrapper over CMake: installs what is missing (Debian 12, as root),
# builds, and runs the demo or the tests.

BUILD ?= build
# make check-sanitize: the tests on an ASan+UBSan build
ASAN_BUILD ?= build-asan
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Build and test dependencies, all Debian 12 packages.
DEBS = gcc make cmake pkg-config libpfm4-dev libdw-dev libelf-dev \
       libjansson-dev libsodium-dev libcmocka-dev zlib1g-dev iproute2 jq elfutils binutils procps \
       chromium python3 python3-jsonschema socat qemu-system-x86 busybox-static sockperf \
       linux-perf bc clang libclang-rt-14-dev llvm strace libxml2-utils nftables time \
       ninja-build
# make check-lab: what building a kernel tree needs (t0809 builds
# Debian's linux-source-6.1 and bisects commits on it), and the engines
# t0830 runs a sweep's plan with (GNU parallel, a single-node Slurm)
LAB_DEBS = linux-source-6.1 flex bison ccache libssl-dev libelf-dev git perl xz-utils \
	   parallel slurm-wlm munge
# make fuzz: seconds per libFuzzer target (the smoke runs in check-sanitize: 5)
FUZZ_SECONDS ?= 600
FUZZ_TARGETS = $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))

# arm64 cross-build (make cross-arm64, check-arm64, lab-arm64): the :arm64
# -dev packages are Multi-Arch: same and install beside the amd64 ones;
# qemu-user-static runs the unit tests, qemu-system-arm the guest.
ARM64_BUILD ?= build-arm64
ARM64_DEBS = gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static \
	     qemu-system-arm libpfm4-dev:arm64 libdw-dev:arm64 libelf-dev:arm64 \
	     libjansson-dev:arm64 libsodium-dev:arm64 libcmocka-dev:arm64 zlib1g-dev:arm64 \
	     liblzma-dev:arm64 libbz2-dev:arm64 libzstd-dev:arm64
# Unit tests that cannot run under qemu-user on an x86 host (checked
# 2026-12-01): test-event-encode never returns from libpfm4's initialisation
# (it spins in user code), and test-workload's client never completes a
# first round trip. What they cover runs in the guest, on a real kernel,
# in tests/cli/t0802 (event encoding, the workload).
ARM64_QEMU_USER_SKIP = ^unit/test-(event-encode|workload)$$

# install_missing PACKAGES: apt-get install those not installed (as
# root); one dpkg-query for all of them
define install_missing
installed=" $$(dpkg-query -W -f='$${Package}:$${Status} ' $(1) 2>/dev/null) "; \
missing=""; \
for p in $(1); do \
	case "$$installed" in *" $$p:install ok installed "*) ;; \
	*) missing="$$missing $$p" ;; esac; \
done; \
if [ -n "$$missing" ]; then \
	echo "perpkt: installing:$$missing"; \
	if [ "$$(id -u)" != 0 ]; then \
		echo "perpkt: run as root, or install them yourself:" \
		     "apt-get install$$missing" >&2; exit 1; \
	fi; \
	apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
fi
endef

.PHONY: all deps deps-lab kernel-tree build demo install check check-sanitize check-lab lab bench fuzz clean deps-arm64 cross-arm64 check-arm64 lab-arm64

all: build

deps:
	@$(call install_missing,$(DEBS))
	@# record --kernel --exact: the installed QEMU's qemu-plugin.h, from
	@# Debian's source package (no binary package has it); without it
	@# perpkt builds and --exact says why
	@sh src/lab/plugin/fetch-header.sh >/dev/null || \
		echo "perpkt: no qemu-plugin.h: record --kernel --exact will be off" >&2

# A new build directory is made for Ninja where it is installed (make
# deps installs it): a build with nothing to do takes 0.1 s against
# Make's 3.4 s here, on every make check. One that exists keeps the
# generator it was made with.
NINJA = $$(command -v ninja >/dev/null && echo -G Ninja)
build: deps
	cmake -S . -B $(BUILD) $(if $(wildcard $(BUILD)/CMakeCache.txt),,$(NINJA)) \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j $(JOBS)

# The main job on the embedded default: UDP ping-pong on loopback.
demo: build
	$(BUILD)/perpkt record -d 5 -o $(BUILD)/demo.json
	$(BUILD)/perpkt report -i $(BUILD)/demo.json
	@echo "perpkt: that was $(BUILD)/demo.json; the README's commands use" \
	      "'perpkt': run 'make install' (PREFIX=$(PREFIX)) or type $(BUILD)/perpkt" >&2

# perpkt, its man page and bash completion under $(PREFIX) (DESTDIR too).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The regular build's unit and CLI tests, without the tests that boot
# guests (ctest label lab: make check-lab) and the fuzz smoke runs
# (make check-sanitize: they build a clang ASan+UBSan tree of their
# own, a minute or more). Each check ends with the skipped tests and
# their reasons, the slowest and the total (tests/check.sh);
# PERPKT_REQUIRE="REGEX... label:NAME" makes it fail when a test it
# names skipped (.ci/run sets it).
# CHECK_JOBS tests at once (twice the CPUs: many wait on guests,
# timeouts and other processes). What a test shares is said in its
# script and made a ctest lock (tests/CMakeLists.txt): tests that change
# or read host-wide state (RPS masks, sysctls, /run/perpkt, every CPU's
# counts) hold the lock `host` and run one after another, the rest run
# beside them (load they must stand), and the few whose statistics a
# loaded machine voids run alone. Tests labelled slow (long by nature,
# each says why) are left out unless CHECK_SLOW=1 (.ci/run sets it).
CHECK_JOBS ?= $(shell echo $$(( $(JOBS) * 2 )))
CHECK_OUT = $(if $(CHECK_SLOW),^lab$$,^(lab|slow)$$)
# check-sanitize also leaves out the tests labelled no-sanitize, which run
# no code built here (t0815: a fake perpkt)
SANITIZE_OUT = $(if $(CHECK_SLOW),^(lab|no-sanitize)$$,^(lab|slow|no-sanitize)$$)
check: build
	bash tests/check.sh check $(BUILD) -j $(CHECK_JOBS) -E '^fuzz/' -LE '$(CHECK_OUT)'

# The same unit and CLI tests on an ASan+UBSan build: any report fails
# them. Not the tests that boot kernels under QEMU (t08NN --kernel:
# minutes each under ASan, and what they drive is emulation, run by
# make check-lab and make lab-arm64). Then the libFuzzer targets a few
# seconds each on their seeds (fuzz/*: clang, ASan+UBSan, in
# $(ASAN_BUILD)/fuzz); make fuzz runs them longer.
check-sanitize: deps
	cmake -S . -B $(ASAN_BUILD) $(if $(wildcard $(ASAN_BUILD)/CMakeCache.txt),,$(NINJA)) \
		-DCMAKE_BUILD_TYPE=Debug -DPERPKT_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	bash tests/check.sh check-sanitize $(ASAN_BUILD) -j $(CHECK_JOBS) -R '^(unit|cli|fuzz)/' \
		-E '^cli/t080[0-9]-' -LE '$(SANITIZE_OUT)'

# The tests that boot guests (a line `# ctest-label: lab` in the
# script): the kernel lab smoke tests, bisect, the NIC pair; tens of
# seconds to minutes each under QEMU.
deps-lab:
	@$(call install_missing,$(LAB_DEBS))

# The kernel tree of the bisect test (t0809), made and built in the
# background on every CPU at the lowest priority (nice 19): it takes
# what other work leaves idle, and all of the machine once that is done
# (at -j1 a fresh machine's build went on alone on one CPU for minutes).
# check-lab starts it and runs t0809 after its other tests (ctest-order:
# last), so their guests use the build's time; .ci/run starts it before
# its first part, so a fresh machine's build also takes what check and
# check-sanitize leave idle. A second start waits for the first (the
# tree's lock) and finds it built; its log: $(BUILD)/kernel-tree.log.
kernel-tree: deps-lab
	@mkdir -p $(BUILD) && { nice -n 19 tests/lab/kernel-tree.sh --build \
		>>$(BUILD)/kernel-tree.log 2>&1 & }

check-lab: build kernel-tree
	bash tests/check.sh check-lab $(BUILD) -j 1 -L '^lab$$'

# Two kernels under QEMU (6.1 and 6.12), one diff: tests/lab/lab.sh.
lab: build
	PERPKT=$(BUILD)/perpkt tests/lab/lab.sh

# perpkt against perf, sockperf and addr2line, one table: tests/bench/bench.sh.
# PERPKT_BENCH_VMLINUX=vmlinux-with-DWARF adds the symbolisation rows.
bench: build
	tests/bench/bench.sh $(BUILD)/perpkt

# Longer fuzzing; new inputs are kept in $(BUILD)/fuzz/corpus/TARGET.
fuzz: build
	@for t in $(FUZZ_TARGETS); do \
		echo "fuzz-$$t: $(FUZZ_SECONDS) s"; \
		FUZZ_CORPUS=$(CURDIR)/$(BUILD)/fuzz/corpus/$$t SRCDIR=$(CURDIR) \
		BUILDDIR=$(CURDIR)/$(BUILD) bash tests/fuzz/run.sh $$t $(FUZZ_SECONDS) || exit 1; \
	done

deps-arm64:
	@if [ "$$(id -u)" != 0 ]; then \
		echo "perpkt: run as root: dpkg --add-architecture arm64 && apt-get update && apt-get install $(ARM64_DEBS)" >&2; \
		exit 1; \
	fi
	@dpkg --print-foreign-architectures | grep -qx arm64 || \
		{ dpkg --add-architecture arm64 && apt-get update -qq; }
	@$(call install_missing,$(ARM64_DEBS))

cross-arm64: deps-arm64
	cmake -S . -B $(ARM64_BUILD) -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(ARM64_BUILD) -j $(JOBS)

# The arm64 unit tests under qemu-user (ctest runs them through it).
check-arm64: cross-arm64
	cd $(ARM64_BUILD) && ctest --output-on-failure -j 1 --timeout 120 \
		-R '^unit/' -E '$(ARM64_QEMU_USER_SKIP)'

# The arm64 guest with its PMU driver: a few minutes under emulation.
# (only the guest's perpkt is cross-built: the unit tests are check-arm64's)
lab-arm64: build deps-arm64
	cmake -S . -B $(ARM64_BUILD) -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(ARM64_BUILD) -j $(JOBS) --target perpkt
	PERPKT_GUEST=$(CURDIR)/$(ARM64_BUILD)/perpkt bash tests/check.sh lab-arm64 $(BUILD) -R '^cli/t0802-'

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(ARM64_BUILD)
