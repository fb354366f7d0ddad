# Thin wrapper over Meson + Ninja.
BUILD ?= build
.PHONY: all build run test clean
all: build
build:
	@test -f $(BUILD)/build.ninja || meson setup $(BUILD) --werror
	ninja -C $(BUILD)
clean:
	rm -rf $(BUILD) build-*
