# SPDX-License-Identifier: GPL-2.0-only
# Thin wrapper over CMake: installs what is missing (Debian 12, as root),
# builds, and runs the demo or the tests.

BUILD ?= build
# The same tests again on an ASan+UBSan build: any report fails them.
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Build and test dependencies, all Debian 12 packages.
DEBS = gcc make cmake pkg-config libpfm4-dev libdw-dev libelf-dev \
       libjansson-dev libcmocka-dev iproute2 jq elfutils binutils procps \
       chromium python3 python3-jsonschema socat qemu-system-x86 busybox-static sockperf \
       linux-perf bc clang libclang-rt-14-dev llvm
# make fuzz: seconds per libFuzzer target (the smoke runs in check: 5)
FUZZ_SECONDS ?= 600
FUZZ_TARGETS = $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))

.PHONY: all deps build demo check lab bench fuzz clean

all: build

deps:
	@missing=""; \
	for p in $(DEBS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' \
			|| missing="$$missing $$p"; \
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

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j $(JOBS)

# The main job on the embedded default: UDP ping-pong on loopback.
demo: build
	$(BUILD)/perpkt record -d 5 -o $(BUILD)/demo.json
	$(BUILD)/perpkt report -i $(BUILD)/demo.json

check: build
	cd $(BUILD) && ctest --output-on-failure -j 1
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DPERPKT_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j 1 -R '^(unit|cli)/'

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

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
