/* SPDX-License-Identifier: Apache-2.0 */
/*
 * /opt/amazon/efa_installed_packages, as aws-efa-installer's efa_installer.sh
 * (write_package_file) writes it:
 *   # EFA installer version: 1.28.0
 *   # Debug packages installed: no
 *   # Packages installed:
 *   ibacm_50.0-1_amd64 libfabric1-aws_1.18.2amzn1.0_amd64 ...
 * The package list holds the installed packages' file names without
 * .deb/.rpm: Debian's NAME_VERSION_ARCH, RPM's NAME-VERSION-RELEASE.ARCH.
 * Pure and bounded: at most EFA_PKGS_MAX packages, names and versions cut at
 * 95 bytes.
 */
#ifndef CI_PARSE_EFA_PACKAGES_H
#define CI_PARSE_EFA_PACKAGES_H

#include <stdbool.h>
#include <stddef.h>

#define EFA_PKGS_MAX 128

struct efa_pkg {
	char name[96];
	char version[96]; /* Debian: the version field; RPM: VERSION (no RELEASE) */
};

struct efa_packages {
	char installer[32]; /* "1.28.0"; "" when the header line is absent */
	bool debug;         /* "Debug packages installed: yes" */
	struct efa_pkg pkgs[EFA_PKGS_MAX];
	size_t n;
};

/* 0 when the text is the installer's file (its version line, or at least
 * one package); -1 otherwise. */
int efa_packages_parse(const char *buf, size_t len, struct efa_packages *out);

#endif
