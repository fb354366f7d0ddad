/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a failed `nvidia-smi` (or a runtime trying to start it) prints,
 * mapped to one cause.  Shells and container runtimes each word "not
 * installed" differently: bash "command not found", dash "sh: 1: x: not
 * found", runc "executable file not found in $PATH".
 */
#ifndef CI_PARSE_SMI_ERROR_H
#define CI_PARSE_SMI_ERROR_H

#include <stddef.h>

enum smi_error {
	SMI_OK = 0,          /* nothing recognised as an error */
	SMI_MISSING_TOOL,    /* nvidia-smi is not in the image / on PATH */
	SMI_LIBRARY_MISSING, /* libnvidia-ml.so not found (driver libs not injected) */
	SMI_DRIVER_FAILED,   /* "couldn't communicate with the NVIDIA driver" */
	SMI_NO_DEVICES,      /* "No devices were found" */
	SMI_DRIVER_MISMATCH, /* "Driver/library version mismatch" */
};

enum smi_error smi_error_classify(const char *buf, size_t len);
const char *smi_error_name(enum smi_error e); /* "ok", "missing-tool", ... */

#endif
