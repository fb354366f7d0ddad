/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GDRCopy: whether the image's libgdrapi and the node's gdrdrv can work
 * together, as gdrcopy's own gdr_open() decides (the source of each row in
 * rules/gdrcopy.c; docs/checks.md cites the same).
 */
#ifndef CI_RULES_GDRCOPY_H
#define CI_RULES_GDRCOPY_H

enum gdrcopy_compat {
	GDRCOPY_COMPAT_UNKNOWN = 0, /* a version could not be read */
	GDRCOPY_COMPAT_OK,          /* same, or the library older than the driver */
	GDRCOPY_COMPAT_LIB_NEWER,   /* same major, library newer: gdr_open works, the
				     * calls the driver lacks fail (ioctl errno 22) */
	GDRCOPY_COMPAT_BROKEN,      /* gdr_open fails: a major version apart */
};

/* "2.5" / "2.4.1" as read from /sys/module/gdrdrv/version and
 * libgdrapi.so.2.x. */
enum gdrcopy_compat gdrcopy_compat(const char *driver, const char *library);

#endif
