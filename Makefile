# A thin wrapper over meson for the commands a newcomer types.
#   make deps    install the Debian packages the project needs (only the missing ones)
#   make         build build/rootcause
#   make install meson install of the build: the binary, the man pages, the docs,
#                the bash completion
#                (under the build's --prefix, /usr/local by default; DESTDIR honoured)
#   make test    every test (unit, ASan+UBSan, cppcheck, CLI, scenarios, differential vs strace, do-no-harm, docs, house rules)
#   make demo    the bundled voice-service demo, diagnosed
#   make fuzz    build the fuzz targets with clang and run each for FUZZ_SECONDS
#   make bench   benchmarks against strace/grep (not tests)

BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60

# Build and test needs; python3-torch is for the healthy-PyTorch scenario
# and the demo's realism, strace for recording scenarios; elfutils' libdw and
# libelf unwind crashes, the compression libraries read systemd-coredump's
# cores, gdb and eu-stack are the crash tests' peers; python3-dev builds
# the C extension a crash test crashes in; clang, libbpf and bpftool build
# the in-kernel capture (meson's bpf option; without them, ptrace only).
# The servers are the real
# programs the scenarios and the healthy-programs sweep run: Debian's own
# nginx, redis, PostgreSQL, haproxy and gunicorn with Flask (the package
# scripts do not start them here: policy-rc.d, or no init at all).
# Chromium, its driver and selenium open the HTML reports in the tests;
# bash-completion loads the completion there, and dpkg-dev, debhelper and
# lintian build and check the Debian package (debian/). podman and
# debootstrap make the containers the container scenarios run in (a
# minimal Debian root, made once and cached). wrk loads nginx for watch's
# overhead benchmark (bench/watch-overhead). systemd-container boots
# systemd as pid 1 in a container, where tests/watch/systemd runs the
# package's rootcause-watch@.service.
DEPS = gcc meson ninja-build pkg-config libcmocka-dev python3 strace \
       python3-torch iproute2 util-linux time cppcheck \
       libdw-dev libelf-dev libzstd-dev liblzma-dev liblz4-dev gdb elfutils \
       python3-dev \
       clang libbpf-dev bpftool \
       nginx redis-server postgresql haproxy gunicorn python3-flask sqlite3 \
       chromium chromium-driver python3-selenium \
       bash-completion dpkg-dev debhelper lintian \
       podman debootstrap wrk systemd-container
FUZZ_DEPS = clang libclang-rt-14-dev

.PHONY: all deps build install test unit asan scenarios demo fuzz bench clean

all: build

deps:
	@./tools/install-deps $(DEPS)

$(BUILD)/build.ninja:
	meson setup $(BUILD)

build: $(BUILD)/build.ninja
	ninja -C $(BUILD)

# Where to is the build's prefix (meson configure build --prefix /usr);
# DESTDIR=DIR installs under DIR, as for a package.
install: build
	meson install -C $(BUILD) --no-rebuild

test: deps
	$(MAKE) build
	./tests/run-all

unit: build
	meson test -C $(BUILD) --suite unit --print-errorlogs

demo: deps
	$(MAKE) build
	./examples/demo.sh

fuzz: deps
	@./tools/install-deps $(FUZZ_DEPS)
	test -f $(FUZZ_BUILD)/build.ninja || CC=clang meson setup $(FUZZ_BUILD) -Dfuzz=true -Db_lundef=false
	ninja -C $(FUZZ_BUILD)
	./fuzz/run $(FUZZ_BUILD) $(FUZZ_SECONDS)

bench: deps
	$(MAKE) build
	./bench/run

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
