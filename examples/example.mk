# example.mk, included by each example's Makefile before its own flags: the
# toolchain, libspec's place and the rules every example builds with.
#
# Variables an example uses: CFLAGS (to add to with +=), HANDLER_CFLAGS
# (with what it sets in HANDLER_EXTRA_CFLAGS),
# EXAMPLE_LDLIBS (LLVM, libspec's own dependencies as it reports them, libc's
# extras), SAN (ASan/UBSan), B (the build folder), LIBSPEC.
# Rules:
#   $(B)/handlers.ll  handlers.c to LLVM IR by spec-cc, with SPEC_CC_FLAGS
#   $(B)/handlers.o   handlers.c native, with the JIT's compiler, level and
#                     target (HANDLER_CC, HANDLER_CFLAGS)
#   $(B)/%.o          from %.c with CFLAGS
#   $(B)/tests/NAME, $(B)/asan/tests/NAME
#                     an example's cmocka tests: TEST_SRCS and LIB_SRCS with
#                     the native handlers, and under ASan/UBSan with
#                     handlers.c built alike; the example names its test
#                     binaries' further prerequisites
#   libspec's static libraries through libspec's Makefile; check and install
#   do nothing; clean.
# An example adds its handlers' headers as prerequisites of $(B)/handlers.ll
# and $(B)/handlers.o.

LLVM_VERSION ?= 16
LLVM_CONFIG ?= llvm-config-$(LLVM_VERSION)
CC ?= cc
HANDLER_CC ?= clang-$(LLVM_VERSION)
LIBSPEC := ../../libspec
B := build

WARN := -Wall -Wextra -Werror
CFLAGS := -std=gnu11 $(WARN) -g -O2 -I$(LIBSPEC)/include
# -march=native after HANDLER_EXTRA_CFLAGS (libdpdk's carry a -march of their own)
HANDLER_CFLAGS = -std=gnu11 $(WARN) -g -O3 $(HANDLER_EXTRA_CFLAGS) -march=native -I$(LIBSPEC)/include
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LLVM_LIBS := $(shell $(LLVM_CONFIG) --ldflags) $(shell $(LLVM_CONFIG) --libs)
# MAKEFLAGS cleared: a parent make -jN (or -w) would print its directory lines into the list
EXAMPLE_LDLIBS := $(LLVM_LIBS) $(shell MAKEFLAGS= $(MAKE) --no-print-directory -s -C $(LIBSPEC) ldlibs) \
	-lpthread -ldl -lm

.DEFAULT_GOAL := all
.PHONY: all check install clean FORCE

$(LIBSPEC)/build/libspec.a $(LIBSPEC)/build/asan/libspec.a: FORCE
	$(MAKE) -C $(LIBSPEC) $(patsubst $(LIBSPEC)/%,%,$@)

$(B)/handlers.ll: handlers.c $(LIBSPEC)/spec-cc $(LIBSPEC)/include/libspec/annotate.h
	@mkdir -p $(@D)
	LLVM_VERSION=$(LLVM_VERSION) $(LIBSPEC)/spec-cc -S $(SPEC_CC_FLAGS) $< -o $@

$(B)/handlers.o: handlers.c
	@mkdir -p $(@D)
	$(HANDLER_CC) $(HANDLER_CFLAGS) -c $< -o $@

$(B)/%.o: %.c $(wildcard *.h) $(wildcard $(LIBSPEC)/include/libspec/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(B)/tests/%: $(B)/handlers.o $(B)/handlers.ll $(wildcard *.h) $(LIBSPEC)/build/libspec.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -rdynamic -o $@ $(TEST_SRCS) $(LIB_SRCS) $(B)/handlers.o \
		$(LIBSPEC)/build/libspec.a -lcmocka $(LDLIBS)

$(B)/asan/tests/%: handlers.c $(B)/handlers.ll $(wildcard *.h) $(LIBSPEC)/build/asan/libspec.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) -rdynamic -o $@ $(TEST_SRCS) $(LIB_SRCS) handlers.c \
		$(LIBSPEC)/build/asan/libspec.a -lcmocka $(LDLIBS)

check install:
	@true

clean:
	rm -rf $(B)
