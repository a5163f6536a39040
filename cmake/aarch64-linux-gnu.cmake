# SPDX-License-Identifier: GPL-2.0-only
# Cross-build perpkt for arm64 on a Debian 12 amd64 machine:
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get install gcc-aarch64-linux-gnu libpfm4-dev:arm64 libdw-dev:arm64 \
#       libelf-dev:arm64 libjansson-dev:arm64 libcmocka-dev:arm64
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# (`make cross-arm64` does all of it.) The :arm64 -dev packages are
# Multi-Arch: same, so they live beside the amd64 ones in
# /usr/lib/aarch64-linux-gnu and /usr/include.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
# multiarch: the :arm64 libraries are in /usr/lib/aarch64-linux-gnu, which
# CMake searches for this CMAKE_LIBRARY_ARCHITECTURE; programs are the host's
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# pkg-config must see the arm64 .pc files only, never the host's
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
# unit tests run through qemu-user (qemu-user-static): ctest uses this
find_program(PERPKT_QEMU_AARCH64 qemu-aarch64-static qemu-aarch64)
if(PERPKT_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${PERPKT_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)
endif()
