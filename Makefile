# SPDX-License-Identifier: GPL-2.0
# MRC for Linux: top-level build.
#
#   make          build mrc.ko (with BTF), the eBPF objects, the C++
#                 userspace and the selftests
#   make demo     boot a guest and show AF_MRC at work
#   make check    build, host unit tests, then the guest suite
#   make check-debug   the guest suite under a debug build of the target
#                 kernel (KASAN, lockdep, kmemleak, UBSAN, debugobjects),
#                 after a self-test that each of them reports a deliberate
#                 bug; the kernel is built once into build/debug-kernel
#                 (42 CPU-minutes, 21-25 min on 2 idle cores), then cached
#   make bench    MRC against TCP, MPTCP, Soft-RoCE and UDP in a guest:
#                 table, build/bench/results.json, plots (BENCH=--quick)
#   make stress   the long fault matrix in a guest (MRC_FAULT_ROUNDS=3)
#   make soak     DURATION seconds (default 600) of traffic and random
#                 faults in a guest; totals and leaks
#   make fuzz     the protocol core's libFuzzer targets (clang, ASan, UBSan)
#                 in build/fuzz, each FUZZ_RUNS executions (at most
#                 FUZZ_SECS seconds) from a copy of userspace/fuzz/corpus;
#                 fails on any crash (inputs in build/fuzz/artifacts/)
#   make install  the userspace (tools, mrcize, man pages, mrcd's unit,
#                 bash completion) under PREFIX (default /usr/local),
#                 DESTDIR-aware
#   make install-dkms   mrc.ko's sources to /usr/src/mrc-VERSION and
#                 `dkms install` for every kernel with headers (with
#                 DESTDIR: the sources only, for a package)
#   make deps     install every Debian package the above need
#
# The target kernel is Debian's packaged kernel, found from
# /lib/modules/*/build (scripts/target-kernel.sh), never `uname -r`.

BUILD       ?= $(CURDIR)/build
KVER         = $(shell scripts/target-kernel.sh)
KSRC        := $(BUILD)/linux-source
KBUILD_TREE  = $(BUILD)/kbuild-$(KVER)
JOBS        ?= $(shell nproc)
CMAKE_TYPE  ?= RelWithDebInfo
PREFIX      ?= /usr/local
VERSION     := $(shell sed -n 's/.*MRC_MODULE_VERSION[[:space:]]*"\(.*\)"/\1/p' kernel/pernet.h)
DKMS_SRC     = $(DESTDIR)/usr/src/mrc-$(VERSION)

BPF_SRCS    := $(wildcard ebpf/*.bpf.c)
SELFTEST_SRCS := $(wildcard selftests/*.c)

.PHONY: all deps build module userspace ebpf selftests linux-source \
	check check-debug debug-kernel bench stress soak demo crosscheck fuzz checkpatch format clean \
	install install-dkms uninstall-dkms

all: deps
	@$(MAKE) --no-print-directory build

build: module ebpf userspace selftests

deps:
	@scripts/deps.sh

linux-source:
	@scripts/linux-source.sh $(KSRC)

module: linux-source
	@scripts/kbuild-tree.sh $(KVER) $(KSRC) $(KBUILD_TREE)
	$(MAKE) -C $(KBUILD_TREE) M=$(CURDIR) RESOLVE_BTFIDS=/bin/true modules
	$(MAKE) -C $(KBUILD_TREE) M=$(CURDIR)/vm-test/warnmod RESOLVE_BTFIDS=/bin/true modules
	@readelf -S kernel/mrc.ko | grep -q '\.BTF' || \
		{ echo "kernel/mrc.ko has no .BTF section" >&2; exit 1; }

ebpf: module
	@mkdir -p $(BUILD)/ebpf
	@[ -s $(BUILD)/ebpf/vmlinux.h ] || \
		bpftool btf dump file $(KBUILD_TREE)/vmlinux format c > $(BUILD)/ebpf/vmlinux.h
	@for src in $(BPF_SRCS); do \
		obj=$(BUILD)/ebpf/$$(basename $$src .c).o; \
		echo "  BPF     $$obj"; \
		clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I$(BUILD)/ebpf -Iinclude/uapi -c $$src -o $$obj || exit 1; \
		bpftool gen skeleton $$obj > $${obj%.bpf.o}.skel.h || exit 1; \
	done

userspace: ebpf
	cmake -S userspace -B $(BUILD)/userspace -DCMAKE_BUILD_TYPE=$(CMAKE_TYPE) \
		-DMRC_BPF_DIR=$(BUILD)/ebpf >/dev/null
	cmake --build $(BUILD)/userspace -j $(JOBS)

selftests: linux-source
	@mkdir -p $(BUILD)/selftests
	@for src in $(SELFTEST_SRCS); do \
		bin=$(BUILD)/selftests/$$(basename $$src .c); \
		echo "  CC      $$bin"; \
		gcc -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -D_GNU_SOURCE \
			-I$(KSRC)/tools/testing/selftests -Iinclude/uapi \
			$(shell pkg-config --cflags libnl-genl-3.0) \
			$$src -o $$bin -lbpf -luring \
			$(shell pkg-config --libs libnl-genl-3.0) || exit 1; \
	done

check: all
	selftests/run

DEBUG_KDIR  := $(BUILD)/debug-kernel
debug-kernel: deps
	@vm-test/debug/build-kernel.sh $(DEBUG_KDIR)
	@vm-test/debug/build-modules.sh $(DEBUG_KDIR)

check-debug: all debug-kernel
	vm-test/debug/check

bench: all
	bench/run $(BENCH)

stress: all
	scripts/guest-tap.sh stress 7200 \
		env MRC_FAULT_LONG=1 MRC_FAULT_ROUNDS=$(or $(MRC_FAULT_ROUNDS),3) \
		selftests/mrc_faults.sh

DURATION ?= 600
soak: all
	scripts/guest-tap.sh soak $$(($(DURATION) + 900)) \
		selftests/mrc_soak.sh $(DURATION)

# The simulator against the module on the same plane failure (issue 10).
crosscheck: all
	bench/crosscheck

demo: all
	vm-test/run --timeout 300 -- scripts/demo-guest.sh

# fuzz_ack runs ~1,500 executions a second here (fuzz_reasm ~3,000,
# fuzz_wire ~60,000): 10 million take it about two hours.
FUZZ_RUNS   ?= 10000000
FUZZ_SECS   ?= 14400
fuzz: deps
	cmake -S userspace/fuzz -B $(BUILD)/fuzz -DCMAKE_C_COMPILER=clang \
		-DCMAKE_CXX_COMPILER=clang++ >/dev/null
	cmake --build $(BUILD)/fuzz -j $(JOBS)
	userspace/fuzz/run.sh $(BUILD)/fuzz $(FUZZ_RUNS) $(FUZZ_SECS)

# The prefix is set at configure time: mrcd.service names mrcd's path.
install: userspace
	cmake -S userspace -B $(BUILD)/userspace -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD)/userspace -j $(JOBS)
	cmake --install $(BUILD)/userspace

# The module's sources as DKMS wants them (packaging/dkms/ holds the
# entry points); then DKMS builds and installs for each kernel with
# headers, unless DESTDIR says this is a package being staged.
install-dkms:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)/scripts
	cp packaging/dkms/dkms.conf packaging/dkms/Kbuild $(DKMS_SRC)/
	cp packaging/dkms/dkms-build.sh $(DKMS_SRC)/scripts/
	cp --parents $$(git ls-files 'kernel/*.[ch]' kernel/Kbuild 'include/*.h' 2>/dev/null || \
		find kernel include \( -name '*.[ch]' ! -name '*.mod.c' \) -o -name Kbuild) $(DKMS_SRC)/
	@if [ -z "$(DESTDIR)" ]; then \
		dkms status -m mrc -v $(VERSION) | grep -q . || dkms add -m mrc -v $(VERSION) || exit 1; \
		for build in /lib/modules/*/build; do \
			[ -e "$$build/Makefile" ] || continue; \
			dkms install -m mrc -v $(VERSION) -k $$(basename $$(dirname $$build)) || exit 1; \
		done; \
	fi

uninstall-dkms:
	-dkms remove -m mrc -v $(VERSION) --all
	rm -rf $(DKMS_SRC)

# CONST_STRUCT: the proto_ops tables get .family from a module parameter
# at init, so they are __ro_after_init rather than const. trace.h follows
# the tracepoint macro layout of include/trace/events/, not checkpatch's.
checkpatch: linux-source
	$(KSRC)/scripts/checkpatch.pl --no-tree --strict -q --ignore CONST_STRUCT -f \
		$$(git ls-files 'kernel/*.[ch]' 'drivers/*.[ch]' 'include/*.h' 'vm-test/warnmod/*.c' 'vm-test/debug/bugmod/*.c' | \
		   grep -v '^kernel/conn/trace.h$$')

format:
	clang-format -i $$(git ls-files 'userspace/*.cpp' 'userspace/*.hpp' 'kernel/*.cpp' 'kernel/*.hpp')

clean:
	-$(MAKE) -C $(KBUILD_TREE) M=$(CURDIR) clean 2>/dev/null
	-$(MAKE) -C $(KBUILD_TREE) M=$(CURDIR)/vm-test/warnmod clean 2>/dev/null
	rm -rf $(BUILD)
