/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/gdrcopy.h"

#include <stdio.h>

/* gdrcopy 2.x, src/gdrapi.c gdr_open(): it fails when the driver's version is
 * below the library's MINIMUM_GDRDRV_VERSION (2.0, gdrapi_internal.h) or the
 * driver's minimum_gdr_api_version (MINIMUM_GDR_API_VERSION 2.0, gdrdrv.h)
 * is above the library's GDR_API_VERSION.  Within major 2 both hold, so an
 * older library on a newer driver works; a newer library on an older driver
 * opens, and its newer calls (gdr_get_info_v2, pin flags) get EINVAL from a
 * driver without those ioctls (gdrcopy_sanity "ioctl ... errno 22"). */
#define GDRCOPY_MIN_MAJOR 2

enum gdrcopy_compat gdrcopy_compat(const char *driver, const char *library)
{
	unsigned dm = 0, dn = 0, lm = 0, ln = 0;
	if (!driver || !library || sscanf(driver, "%u.%u", &dm, &dn) != 2 ||
	    sscanf(library, "%u.%u", &lm, &ln) != 2)
		return GDRCOPY_COMPAT_UNKNOWN;
	if (dm < GDRCOPY_MIN_MAJOR || lm < GDRCOPY_MIN_MAJOR || dm != lm)
		return GDRCOPY_COMPAT_BROKEN;
	return ln > dn ? GDRCOPY_COMPAT_LIB_NEWER : GDRCOPY_COMPAT_OK;
}
