/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/smi_error.h"

#include <string.h>

#include "parse/lines.h"

enum smi_error smi_error_classify(const char *buf, size_t len)
{
	struct lines it;
	char *l;
	enum smi_error e = SMI_OK;

	lines_init(&it, buf, len);
	while (e == SMI_OK && (l = lines_next(&it))) {
		bool names_smi = str_icontains(l, "nvidia-smi") != NULL;

		/* bash "x: command not found", dash "sh: 1: x: not found",
		 * runc/containerd "exec: \"x\": executable file not found" */
		if (names_smi &&
		    (str_icontains(l, "command not found") || str_icontains(l, ": not found") ||
		     str_icontains(l, "executable file not found") ||
		     str_icontains(l, "No such file or directory")))
			e = SMI_MISSING_TOOL;
		else if (str_icontains(l, "couldn't find libnvidia-ml") ||
			 str_icontains(l, "libnvidia-ml.so") ||
			 str_icontains(l, "NVML library not found") ||
			 str_icontains(l, "could not load NVML"))
			e = SMI_LIBRARY_MISSING;
		else if (str_icontains(l, "Driver/library version mismatch"))
			e = SMI_DRIVER_MISMATCH;
		else if (str_icontains(l, "couldn't communicate with the NVIDIA driver") ||
			 str_icontains(l, "Failed to initialize NVML"))
			e = SMI_DRIVER_FAILED;
		else if (str_icontains(l, "No devices were found"))
			e = SMI_NO_DEVICES;
	}
	lines_release(&it);
	return e;
}

const char *smi_error_name(enum smi_error e)
{
	switch (e) {
	case SMI_OK: return "ok";
	case SMI_MISSING_TOOL: return "missing-tool";
	case SMI_LIBRARY_MISSING: return "library-missing";
	case SMI_DRIVER_FAILED: return "driver-failed";
	case SMI_NO_DEVICES: return "no-devices";
	case SMI_DRIVER_MISMATCH: return "driver-mismatch";
	}
	return "unknown";
}
