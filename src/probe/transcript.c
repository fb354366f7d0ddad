/* SPDX-License-Identifier: Apache-2.0 */
/* Placeholder: the transcript parser is written by the probe transport work. */
#include "probe/transcript.h"
