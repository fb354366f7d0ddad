/* SPDX-License-Identifier: Apache-2.0 */
#include "manifest/deploy_model.h"
