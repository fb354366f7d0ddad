/* SPDX-License-Identifier: Apache-2.0 */
/* placeholder translation unit until the parse transport lands */
int ci_parse_placeholder_;
int ci_parse_placeholder_ = 0;
